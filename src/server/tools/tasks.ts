import { buffer } from 'node:stream/consumers';
import { characterRanking } from '../engine/char-frequency.ts';
import {
  checkWrittenFont,
  convertFont,
  decodeFont,
  describeFont,
  type FontDescription,
  TARGET_FORMATS,
  type TargetFormat,
} from '../engine/convert.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { FORMAT_INFO } from '../engine/font-format.ts';
import { loadSubsetFace } from '../engine/hb-subset.ts';
import { outlineKind, readSfnt } from '../engine/sfnt.ts';
import { cmapOf, familyNameOf, glyphSizesOf } from '../engine/sfnt-info.ts';
import { cutSlices, orderCharacters, SLICE_TARGET_BYTES, sliceBytes } from '../engine/slices.ts';
import { encodeWoff } from '../engine/woff.ts';
import { encodeWoff2 } from '../engine/woff2.ts';
import type { WeightedWord } from '../engine/wordcloud/words.ts';
import { storage } from '../storage/index.ts';
import {
  checkSubmissionFont,
  compareSubmissionFaces,
  type DesignCompareTask,
  type FaceComparison,
  type SubmissionFontResult,
  type SubmissionFontTask,
} from '../submissions/checks.ts';
import {
  type PixelFontResult,
  type PixelPreviewResult,
  type PixelSource,
  pixelFontTask,
  pixelPreview,
} from './pixel-tasks.ts';
import { type CloudTask, type CloudTaskResult, cloudTask, cloudWordsTask } from './wordcloud/tasks.ts';

// The heavy work of the font tools, run inside a worker thread (tools-worker.ts): each task reads
// its font from storage, reports progress per step and writes its outputs back to storage, so
// only small descriptions cross between threads.

import { type PixelEdit, type PixelOptions, SUBSET_FORMATS, type SubsetFormat } from '../../contract/tools.ts';

export { SUBSET_FORMATS, type SubsetFormat };

import { OPAQUE_STEP, type Progress, type TaskFile } from './task-types.ts';

export type { Progress, TaskFile };

/** The tasks the tool workers run. */
export type ToolTask =
  | { kind: 'describe'; key: string; maxSfntBytes: number }
  | {
      kind: 'convert';
      key: string;
      faceIndex: number;
      targets: TargetFormat[];
      outPrefix: string;
      maxSfntBytes: number;
    }
  | {
      kind: 'subset';
      key: string;
      faceIndex: number;
      codePoints: number[];
      formats: SubsetFormat[];
      outPrefix: string;
      maxSfntBytes: number;
    }
  | { kind: 'plan'; key: string }
  | { kind: 'woff2'; ttf: Uint8Array; outKey: string }
  | { kind: 'coverage'; key: string; faceIndex: number; codePoints: number[]; maxSfntBytes: number }
  | { kind: 'pixelPreview'; source: PixelSource; options: PixelOptions; text: string; edits: PixelEdit[] }
  | ({ kind: 'pixelFont' } & Parameters<typeof pixelFontTask>[0])
  | { kind: 'cloudWords'; text: string; limit: number }
  | ({ kind: 'cloud' } & CloudTask)
  | ({ kind: 'submissionFont' } & SubmissionFontTask)
  | ({ kind: 'compareDesign' } & DesignCompareTask);

/** What the subset task found and made. */
export interface SubsetTaskResult {
  files: TaskFile[];
  familyName: string;
  keptCount: number;
  /** Requested characters the font lacks (all of them, in request order). */
  missing: string;
}

/** The slices of a font for the CSS service, with the figures the plan was made from. */
export interface SlicePlan {
  slices: number[][];
  /** WOFF2 bytes per byte of glyph data, measured on one slice. */
  ratio: number;
}

/** The result type of each task kind. */
export interface TaskResults {
  describe: FontDescription;
  convert: { files: TaskFile[] };
  subset: SubsetTaskResult;
  plan: SlicePlan;
  woff2: { size: number };
  coverage: { covered: number };
  pixelPreview: PixelPreviewResult;
  pixelFont: PixelFontResult;
  cloudWords: WeightedWord[];
  cloud: CloudTaskResult;
  submissionFont: SubmissionFontResult;
  compareDesign: FaceComparison;
}

async function readFont(key: string): Promise<Uint8Array> {
  const object = await storage().get(key);
  if (!object) throw new Error(`font file is missing from storage: ${key}`);
  return new Uint8Array(await buffer(object.body));
}

/** WOFF2 at Brotli quality 11 takes about 3 s per MB of font on a busy 2-core machine: say so for large fonts. */
const slowNote = (sfnt: Uint8Array) => (sfnt.byteLength > 4 << 20 ? '（最高压缩，大字体需要半分钟以上）' : '');

/** Relative effort of each target, so the progress bar moves evenly (WOFF2 at q11 dominates). */
const EFFORT: Record<TargetFormat, number> = { ttf: 1, otf: 1, woff: 2, woff2: 20, eot: 1, svg: 6 };

async function convert(
  task: Extract<ToolTask, { kind: 'convert' }>,
  progress: Progress,
): Promise<{ files: TaskFile[] }> {
  progress(0.02, '正在读取字体', OPAQUE_STEP);
  const { sfnt } = await decodeFont(await readFont(task.key), {
    faceIndex: task.faceIndex,
    maxSfntBytes: task.maxSfntBytes,
  });
  const targets = TARGET_FORMATS.filter((format) => task.targets.includes(format));
  const total = targets.reduce((sum, format) => sum + EFFORT[format], 0);
  let done = 0;
  const files: TaskFile[] = [];
  for (const format of targets) {
    const label = FORMAT_INFO[format].label;
    const base = 0.05 + (0.9 * done) / total;
    const share = (0.9 * EFFORT[format]) / total;
    let at = base;
    const bytes = await convertFont(sfnt, format, {
      progress: (fraction) => {
        at = base + share * 0.95 * fraction;
        progress(at, `正在生成 ${label}`);
      },
      stage: (stage) => {
        if (stage === 'encoding') progress(base, `正在生成 ${label}`);
        else if (stage === 'encoding-opaque') progress(base, `正在生成 ${label}${slowNote(sfnt)}`, OPAQUE_STEP);
        else progress(Math.max(at, base + share * 0.95), `正在检查生成的 ${label}`, OPAQUE_STEP);
      },
    });
    const key = `${task.outPrefix}/${files.length}.${FORMAT_INFO[format].ext}`;
    await storage().put(key, bytes, { durable: false });
    files.push({ format, key, size: bytes.byteLength });
    done += EFFORT[format];
  }
  return { files };
}

async function subset(task: Extract<ToolTask, { kind: 'subset' }>, progress: Progress): Promise<SubsetTaskResult> {
  progress(0.02, '正在读取字体');
  const { sfnt } = await decodeFont(await readFont(task.key), {
    faceIndex: task.faceIndex,
    maxSfntBytes: task.maxSfntBytes,
  });
  const font = readSfnt(sfnt);
  const cmap = cmapOf(font);
  const kept = task.codePoints.filter((cp) => cmap.has(cp));
  const missing = String.fromCodePoint(...task.codePoints.filter((cp) => !cmap.has(cp)));
  if (kept.length === 0) {
    throw new FontInputError('incompatible', 'no requested character in font', '这款字体里没有所输入的任何字符');
  }
  progress(0.1, '正在提取字形');
  const face = loadSubsetFace(sfnt);
  let subsetFont: Uint8Array;
  try {
    subsetFont = face.subset(kept, { keepAllNames: true });
  } finally {
    face.destroy();
  }
  const outline = outlineKind(readSfnt(subsetFont));
  const files: TaskFile[] = [];
  const formats = SUBSET_FORMATS.filter((format) => task.formats.includes(format));
  for (const [i, format] of formats.entries()) {
    const label = FORMAT_INFO[format].label;
    const base = 0.2 + (0.75 * i) / formats.length;
    const share = 0.75 / formats.length;
    progress(base, `正在生成 ${label}`, format === 'woff2' ? OPAQUE_STEP : {});
    const bytes =
      format === 'woff2'
        ? await encodeWoff2(subsetFont)
        : format === 'woff'
          ? encodeWoff(subsetFont, (fraction) => progress(base + share * 0.9 * fraction, `正在生成 ${label}`))
          : subsetFont;
    // A CFF font stays CFF after subsetting, so its "TTF" output is an OTF and is named so.
    const written: TargetFormat = format === 'ttf' && outline === 'cff' ? 'otf' : format;
    progress(base + share * 0.9, `正在检查生成的 ${label}`, OPAQUE_STEP);
    await checkWrittenFont(bytes, written);
    const key = `${task.outPrefix}/${files.length}.${FORMAT_INFO[written].ext}`;
    await storage().put(key, bytes, { durable: false });
    files.push({ format: written, key, size: bytes.byteLength });
  }
  return { files, familyName: familyNameOf(font), keptCount: kept.length, missing };
}

/**
 * Plans a font's slices: orders its characters, cuts them by estimated size, then encodes one
 * typical slice as WOFF2 to learn how well this font's glyphs compress and cuts again with that.
 */
export async function planFontSlices(sfnt: Uint8Array, targetBytes = SLICE_TARGET_BYTES): Promise<SlicePlan> {
  const font = readSfnt(sfnt);
  const input = { cmap: cmapOf(font), glyphSizes: glyphSizesOf(font) };
  const ordered = orderCharacters(input.cmap.keys(), characterRanking());
  const guess = 0.5;
  const first = cutSlices(input, ordered, guess, targetBytes);
  const sample = first[Math.min(1, first.length - 1)];
  if (!sample || first.length < 2) return { slices: first, ratio: guess };
  const face = loadSubsetFace(sfnt);
  let woff2: Uint8Array;
  try {
    woff2 = await encodeWoff2(face.subset(sample));
  } finally {
    face.destroy();
  }
  const ratio = Math.min(2, Math.max(0.1, woff2.byteLength / Math.max(1, sliceBytes(input, sample))));
  return { slices: cutSlices(input, ordered, ratio, targetBytes), ratio };
}

/** Runs one task; progress goes to `progress`. */
export async function runTask(task: ToolTask, progress: Progress): Promise<TaskResults[ToolTask['kind']]> {
  switch (task.kind) {
    case 'describe':
      return describeFont(await readFont(task.key), task.maxSfntBytes);
    case 'convert':
      return convert(task, progress);
    case 'subset':
      return subset(task, progress);
    case 'plan':
      return planFontSlices((await decodeFont(await readFont(task.key))).sfnt);
    case 'woff2': {
      const bytes = await encodeWoff2(task.ttf);
      await storage().put(task.outKey, bytes, { durable: false });
      return { size: bytes.byteLength };
    }
    case 'coverage': {
      const { sfnt } = await decodeFont(await readFont(task.key), {
        faceIndex: task.faceIndex,
        maxSfntBytes: task.maxSfntBytes,
      });
      const cmap = cmapOf(readSfnt(sfnt));
      return { covered: task.codePoints.filter((cp) => cmap.has(cp)).length };
    }
    case 'pixelPreview':
      return pixelPreview(task.source, task.options, task.text, task.edits);
    case 'pixelFont':
      return pixelFontTask(task, progress);
    case 'cloudWords':
      return cloudWordsTask(task.text, task.limit);
    case 'cloud':
      return cloudTask(task);
    case 'submissionFont':
      return checkSubmissionFont(task);
    case 'compareDesign':
      return compareSubmissionFaces(task);
  }
}
