import { z } from 'zod';
import type { JobFile, JobView } from '../../lib/tools-types.ts';
import { TOOL_TASKS } from '../db/schema/index.ts';
import { type CoverageSets, coverageSets } from '../engine/charsets.ts';
import { badRequest } from '../http/envelope.ts';
import type { ToolClient } from './clients.ts';
import { enqueueJob, type JobKind } from './jobs.ts';
import { inTurn, refuseBusyClient } from './limits.ts';
import { MAX_DECODED_FONT_BYTES, toolsPool } from './runtime.ts';
import { resolveSource, sourceSchema } from './sources.ts';
import { SUBSET_FORMATS, type SubsetFormat } from './tasks.ts';

/** Most characters of text one subset request may carry. */
export const MAX_SUBSET_TEXT = 20_000;
/** How many missing characters the answer lists at most. */
const MAX_MISSING_SHOWN = 500;

/** The character sets offered, by their request names. */
const CHARSETS = {
  gb2312: 'gb2312',
  common3500: 'tongyong',
  big5: 'big5',
  latin: 'latin',
} as const satisfies Record<string, keyof CoverageSets>;

/** The body of POST /tools/api/subset. */
export const subsetRequest = z.object({
  source: sourceSchema,
  text: z.string().max(MAX_SUBSET_TEXT, `文字最多 ${MAX_SUBSET_TEXT} 个字符`).optional().meta({ label: '保留文字' }),
  charsets: z
    .array(
      z
        .enum(Object.keys(CHARSETS) as [keyof typeof CHARSETS, ...Array<keyof typeof CHARSETS>])
        .meta({ label: '字符集' }),
    )
    .max(4)
    .optional()
    .meta({ label: '字符集' }),
  formats: z
    .array(z.enum(SUBSET_FORMATS).meta({ label: '输出格式' }))
    .min(1, '请至少选择一种输出格式')
    .max(3)
    .meta({ label: '输出格式' }),
  faceIndex: z.number().int().min(0).max(255).optional().meta({ label: '字体序号' }),
});

/** The code points a request asks for: its text's characters (no controls) and its sets, in request order. */
export function requestedCodePoints(text: string | undefined, charsets: ReadonlyArray<keyof typeof CHARSETS> = []) {
  const wanted = new Set<number>();
  for (const ch of text ?? '') {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0) && !(cp >= 0xd800 && cp <= 0xdfff)) wanted.add(cp);
  }
  const sets = coverageSets();
  for (const name of charsets) for (const cp of [...sets[CHARSETS[name]]].sort((a, b) => a - b)) wanted.add(cp);
  return [...wanted];
}

const cssString = (value: string) => `'${value.replace(/[\\']/g, (ch) => `\\${ch}`).replace(/[\n\r]/g, ' ')}'`;

/** An @font-face rule for the outputs, with URLs relative to the folder the files are saved in. */
export function fontFaceCss(familyName: string, files: readonly JobFile[]): string {
  const order = ['woff2', 'woff', 'ttf', 'otf'];
  const formatName: Record<string, string> = { woff2: 'woff2', woff: 'woff', ttf: 'truetype', otf: 'opentype' };
  const sources = [...files]
    .filter((file) => order.includes(file.format))
    .sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format))
    .map((file) => `url(${cssString(`./${file.name}`)}) format('${formatName[file.format]}')`);
  return [
    '@font-face {',
    `  font-family: ${cssString(familyName)};`,
    `  src: ${sources.join(',\n       ')};`,
    '  font-display: swap;',
    '}',
  ].join('\n');
}

/** Starts making a subset of a font with the requested characters, in the chosen formats. */
export function startSubset(request: z.infer<typeof subsetRequest>, client: ToolClient): Promise<JobView> {
  const codePoints = requestedCodePoints(request.text, request.charsets);
  if (codePoints.length === 0) throw badRequest('请输入要保留的文字或选择字符集');
  return inTurn(client, async () => {
    await refuseBusyClient(client);
    const source = await resolveSource(request.source, request.faceIndex ?? 0);
    const formats = [...new Set(request.formats)];
    const params: SubsetParams = {
      key: source.key,
      faceIndex: request.faceIndex ?? 0,
      codePoints,
      formats,
      fallbackFamily: source.stem,
    };
    return enqueueJob(subsetJob, `${source.stem}-subset`, params, client);
  });
}

/** What a queued subset needs: the font's storage key and face, the characters and formats. */
interface SubsetParams {
  key: string;
  faceIndex: number;
  codePoints: number[];
  formats: SubsetFormat[];
  /** The family name of the CSS when the font names none. */
  fallbackFamily: string;
}

/**
 * A subset of at most this many characters is a small job (its own lane, jobs.ts): a few hundred
 * milliseconds of work on the largest library font, in any of its formats.
 */
export const SMALL_SUBSET_CHARS = 300;

/** Making a subset (task 2), run by a job runner on any node. */
export const subsetJob: JobKind<SubsetParams> = {
  name: 'subset',
  task: TOOL_TASKS.subset,
  sizeOf: ({ codePoints }) => (codePoints.length <= SMALL_SUBSET_CHARS ? 'small' : 'long'),
  run: async ({ fallbackFamily, ...params }, { outPrefix, progress, client, lane }) => {
    const result = await toolsPool().run(
      { kind: 'subset', ...params, outPrefix, maxSfntBytes: MAX_DECODED_FONT_BYTES },
      { lane, onProgress: progress, client },
    );
    const missing = [...result.missing];
    const familyName = result.familyName || fallbackFamily;
    return {
      files: result.files,
      extra: {
        familyName,
        keptCount: result.keptCount,
        missing: missing.slice(0, MAX_MISSING_SHOWN).join(''),
        missingCount: missing.length,
      },
      finish: (files) => ({ css: fontFaceCss(familyName, files) }),
    };
  },
};
