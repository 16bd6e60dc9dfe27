import type { WeightedWord } from '../../engine/wordcloud/words.ts';
import { badRequest } from '../../http/envelope.ts';
import type { ToolClient } from '../clients.ts';
import { MAX_DECODED_FONT_BYTES, toolsPool, userFacing } from '../runtime.ts';
import { resolveSource } from '../sources.ts';
import { cachedCloud, cloudKey } from './cloud-cache.ts';
import { findMask } from './masks.ts';
import type { CloudRequestBody } from './requests.ts';
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
        font: { key: source.key, faceIndex: 0, maxSfntBytes: MAX_DECODED_FONT_BYTES },
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
    font: { key: source.key, faceIndex: 0, maxSfntBytes: MAX_DECODED_FONT_BYTES },
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
