import sharp from 'sharp';
import { boldestFace, CLOUD_SAMPLE } from '../../../contract/word-cloud.ts';
import type { WeightedWord } from '../../engine/wordcloud/words.ts';
import { listFontFamilies } from '../../fonts/catalogue.ts';
import { badRequest, notFound } from '../../http/envelope.ts';
import type { ToolClient } from '../clients.ts';
import { MAX_DECODED_FONT_BYTES, toolsPool, userFacing } from '../runtime.ts';
import { resolveSource } from '../sources.ts';
import { cachedCloud, cloudKey } from './cloud-cache.ts';
import { findMask } from './masks.ts';
import { type CloudRequestBody, cloudRequest } from './requests.ts';
import type { CloudShapeRef, CloudTaskResult } from './tasks.ts';
import { templateSvg } from './templates.ts';

// The word-cloud generator (SPEC §7 Word cloud): words from text, and the cloud drawn in a tools
// worker on the quick lane, answered as the image itself.

/** Cuts text into its strongest words with their weights. */
export async function cloudWords(text: string, limit: number, client: ToolClient): Promise<WeightedWord[]> {
  if (!text.trim()) throw badRequest('请粘贴要做成词云的文字');
  return userFacing(
    toolsPool().run({ kind: 'cloudWords', text, limit }, { lane: 'quick', client: client.key, timeoutMs: 30_000 }),
  );
}

async function shapeRef(body: CloudRequestBody): Promise<CloudShapeRef> {
  const { shape } = body;
  switch (shape.kind) {
    case 'none':
      return { kind: 'none' };
    case 'template': {
      const svg = templateSvg(shape.id);
      if (!svg) throw badRequest(`没有编号为 ${shape.id} 的形状模板`);
      return { kind: 'svg', svg };
    }
    case 'picture':
      return { kind: 'stored', key: await findMask(shape.maskId) };
    case 'character': {
      const source = shape.fontId ? await resolveSource({ fontId: shape.fontId }) : await resolveSource(body.font);
      return {
        kind: 'character',
        character: shape.character,
        font: { key: source.key, faceIndex: 0, maxSfntBytes: MAX_DECODED_FONT_BYTES, sha256: source.sha256 },
      };
    }
  }
}

/** Lays out and draws a cloud; answers the image and what was left out. */
export async function renderCloud(body: CloudRequestBody, client: ToolClient): Promise<CloudTaskResult> {
  const source = await resolveSource(body.font);
  const shape = await shapeRef(body);
  if (body.colors === 'picture' && shape.kind !== 'svg' && shape.kind !== 'stored') {
    throw badRequest('「取自图片」配色需要先选择形状模板或上传形状图片');
  }
  const task = {
    kind: 'cloud',
    font: { key: source.key, faceIndex: 0, maxSfntBytes: MAX_DECODED_FONT_BYTES, sha256: source.sha256 },
    words: body.words,
    text: body.text,
    limit: body.limit,
    shape,
    threshold: body.threshold,
    orientation: body.orientation,
    verticalText: body.verticalText,
    colors: body.colors,
    background: body.background === 'transparent' ? null : body.background,
    width: body.width,
    height: body.height,
    seed: body.seed,
    format: body.format,
  } as const;
  return cachedCloud(cloudKey(task), () =>
    userFacing(toolsPool().run(task, { lane: 'quick', client: client.key, timeoutMs: 60_000 })),
  );
}

/**
 * The cloud the tool opens on (CLOUD_SAMPLE), built exactly as the page's script builds its first
 * request, so both are one drawing in the cache and the picture does not change when the script runs.
 */
export async function renderSample(client: ToolClient): Promise<CloudTaskResult> {
  const first = (await listFontFamilies({ current: 1, size: 1 })).records[0];
  const face = first && boldestFace(first.childFontResource);
  if (face?.id === undefined) throw notFound('字体库里还没有字体，暂时无法生成示例词云');
  const words = await cloudWords(CLOUD_SAMPLE.text, CLOUD_SAMPLE.limit, client);
  const body = cloudRequest.parse({
    words,
    font: { fontId: face.id },
    shape: { kind: 'template', id: CLOUD_SAMPLE.templateId },
    threshold: CLOUD_SAMPLE.threshold / 100,
    orientation: CLOUD_SAMPLE.orientation,
    verticalText: CLOUD_SAMPLE.verticalText,
    colors: CLOUD_SAMPLE.palette,
    background: CLOUD_SAMPLE.background,
    width: CLOUD_SAMPLE.width,
    height: CLOUD_SAMPLE.height,
    seed: CLOUD_SAMPLE.seed,
    format: 'png',
  });
  return renderCloud(body, client);
}

const sampleWebps = new WeakMap<CloudTaskResult, Map<number, Promise<Buffer>>>();

/**
 * The sample as WebP at one of CLOUD_SAMPLE_WIDTHS, made once per drawing (sharp works off the event
 * loop): a phone loads about 50 KB instead of the PNG's 210 KB before its first screen is complete.
 */
export async function renderSampleWebp(client: ToolClient, width: number): Promise<Buffer> {
  const drawing = await renderSample(client);
  let widths = sampleWebps.get(drawing);
  if (!widths) {
    widths = new Map();
    sampleWebps.set(drawing, widths);
  }
  let made = widths.get(width);
  if (!made) {
    made = sharp(drawing.bytes).resize({ width }).webp({ quality: 75 }).toBuffer();
    const kept = widths;
    made.catch(() => kept.delete(width));
    widths.set(width, made);
  }
  return made;
}
