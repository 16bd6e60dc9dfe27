import { z } from 'zod';
import { PIXEL_SHAPES, type PixelPreview } from '../../contract/tools.ts';
import type { JobView } from '../../lib/tools-types.ts';
import { TOOL_TASKS } from '../db/schema/index.ts';
import { faintMessage } from '../engine/pixel/thin.ts';
import { badRequest } from '../http/envelope.ts';
import type { ToolClient } from './clients.ts';
import { enqueueJob, type JobKind } from './jobs.ts';
import { inTurn, refuseBusyClient } from './limits.ts';
import type { pixelFontTask } from './pixel-tasks.ts';
import { MAX_DECODED_FONT_BYTES, toolsPool } from './runtime.ts';
import { resolveSource, sourceSchema } from './sources.ts';
import { MAX_SUBSET_TEXT, requestedCodePoints } from './subset.ts';

// The pixel-font maker (SPEC §7 Tools, workflow tasks 146 preview and 143 pixel font): the
// requests, their checks, and the hand-off to the tools workers (pixel-tasks.ts).

/** Most characters a preview line may hold. */
export const MAX_PREVIEW_TEXT = 40;
/** Most hand-edited glyphs one request may carry (GB2312 has 6763 characters, Big5 13 000). */
export const MAX_EDITS = 14_000;

/** The drawing options, as every pixel call takes them. */
export const pixelOptions = z
  .object({
    grid: z
      .number({ error: '点阵尺寸必须是 8 到 48 之间的整数' })
      .int('点阵尺寸必须是 8 到 48 之间的整数')
      .min(8, '点阵尺寸至少 8 像素')
      .max(48, '点阵尺寸最多 48 像素')
      .meta({ label: '点阵尺寸' }),
    threshold: z.number().min(0.05, '笔画粗细超出范围').max(0.95, '笔画粗细超出范围').default(0.45).meta({
      label: '笔画粗细',
    }),
    shape: z.enum(PIXEL_SHAPES).default('square').meta({ label: '像素形状' }),
  })
  .meta({ label: '点阵选项' });

/** Hand-edited glyphs, at most `max` of them. */
export const pixelEditsUpTo = (max: number) =>
  z
    .array(
      z.object({
        codePoint: z.number().int().min(0x20).max(0x10ffff),
        width: z.number().int().min(1).max(72),
        bits: z.string().regex(/^[01]*$/, '字形编辑数据格式不正确'),
      }),
    )
    .max(max, `最多保存 ${max} 个修改过的字`)
    .default([])
    .meta({ label: '字形编辑' });
const pixelEdits = pixelEditsUpTo(MAX_EDITS);

/** Every edit must hold exactly width × grid cells (a refinement of every body with options and edits). */
export function editsFit(
  value: { options: { grid: number }; edits: Array<{ width: number; bits: string }> },
  ctx: z.RefinementCtx,
): void {
  if (value.edits.some((edit) => edit.bits.length !== edit.width * value.options.grid)) {
    ctx.addIssue({ code: 'custom', message: '字形编辑与点阵尺寸不一致，请重新生成预览', path: ['edits'] });
  }
}

/** The body of POST /tools/api/pixel/preview. */
export const pixelPreviewRequest = z
  .object({
    source: sourceSchema,
    faceIndex: z.number().int().min(0).max(255).optional().meta({ label: '字体序号' }),
    options: pixelOptions,
    text: z
      .string()
      .trim()
      .min(1, '请输入预览文字')
      .max(MAX_PREVIEW_TEXT, `预览文字最多 ${MAX_PREVIEW_TEXT} 个字符`)
      .meta({ label: '预览文字' }),
    edits: pixelEdits,
  })
  .superRefine(editsFit);

/** The body of POST /tools/api/pixel (start making the font). */
export const pixelFontRequest = z
  .object({
    source: sourceSchema,
    faceIndex: z.number().int().min(0).max(255).optional().meta({ label: '字体序号' }),
    options: pixelOptions,
    charsets: z
      .array(z.enum(['gb2312', 'common3500', 'big5', 'latin']).meta({ label: '字符集' }))
      .max(4)
      .optional()
      .meta({ label: '字符集' }),
    text: z
      .string()
      .max(MAX_SUBSET_TEXT, `文字最多 ${MAX_SUBSET_TEXT} 个字符`)
      .optional()
      .meta({ label: '自定义文字' }),
    family: z
      .string()
      .trim()
      .min(1, '请填写字体名称')
      .max(40, '字体名称最多 40 个字')
      .regex(/^[^\p{Cc}\\/"<>]+$/u, '字体名称不能包含控制字符或 \\ / " < >')
      .meta({ label: '字体名称' }),
    weight: z
      .number()
      .int()
      .refine((value) => value >= 100 && value <= 900 && value % 100 === 0, '字重只能是 100 到 900 之间的整百数')
      .default(400)
      .meta({ label: '字重' }),
    edits: pixelEdits,
  })
  .superRefine(editsFit);

/** An ASCII family name for PostScript and old systems: the name itself when it is ASCII. */
function asciiFamilyOf(family: string, grid: number): string {
  const ascii = family.replace(/[^\x20-\x7e]/g, '').trim();
  return ascii.length >= 2 && ascii === family ? ascii : `Pixel Font ${grid}`;
}

/** Draws a line of text as the pixel font will look (task 146), quickly, on the quick lane. */
export async function previewPixelFont(
  request: z.infer<typeof pixelPreviewRequest>,
  client: ToolClient,
): Promise<PixelPreview> {
  const source = await resolveSource(request.source, request.faceIndex ?? 0);
  const result = await toolsPool().run(
    {
      kind: 'pixelPreview',
      source: {
        key: source.key,
        faceIndex: request.faceIndex ?? 0,
        maxSfntBytes: MAX_DECODED_FONT_BYTES,
        sha256: source.sha256,
      },
      options: request.options,
      text: request.text,
      edits: request.edits,
    },
    { lane: 'quick', client: client.key, timeoutMs: 30_000 },
  );
  if (result.glyphs.length === 0) throw badRequest('这款字体里没有预览文字中的任何字符');
  return {
    image: `data:image/png;base64,${Buffer.from(result.png).toString('base64')}`,
    width: result.width,
    height: result.height,
    glyphs: result.glyphs,
    missing: result.missing,
    ...(result.faint && {
      faint: { message: faintMessage(request.options.grid, result.faint), ...result.faint },
    }),
  };
}

/** Starts making the pixel font (task 143): a job whose outputs are TTF, WOFF, WOFF2 and a zip. */
export function startPixelFont(request: z.infer<typeof pixelFontRequest>, client: ToolClient): Promise<JobView> {
  const codePoints = requestedCodePoints(request.text, request.charsets);
  if (codePoints.length === 0) throw badRequest('请选择字符集或输入要包含的文字');
  return inTurn(client, async () => {
    await refuseBusyClient(client);
    const source = await resolveSource(request.source, request.faceIndex ?? 0);
    const faceIndex = request.faceIndex ?? 0;
    // A font without any chosen character gets its answer now, not as a failed job.
    const { covered } = await toolsPool().run(
      { kind: 'coverage', key: source.key, faceIndex, codePoints, maxSfntBytes: MAX_DECODED_FONT_BYTES },
      { lane: 'quick', client: client.key, timeoutMs: 30_000 },
    );
    if (covered === 0) throw badRequest('这款字体里没有所选的任何字符，请换一款字体或字符集');
    const { grid } = request.options;
    const params: PixelFontParams = {
      source: { key: source.key, faceIndex, maxSfntBytes: MAX_DECODED_FONT_BYTES, sha256: source.sha256 },
      options: request.options,
      codePoints,
      edits: request.edits,
      family: request.family,
      asciiFamily: asciiFamilyOf(request.family, grid),
      weight: request.weight,
    };
    return enqueueJob(pixelFontJob, `${source.stem}-pixel-${grid}`, params, client);
  });
}

/** What a queued pixel font needs: the pixel font task but for where its outputs go. */
type PixelFontParams = Omit<Parameters<typeof pixelFontTask>[0], 'outPrefix'>;

/** Making a pixel font (task 143), run by a job runner on any node. */
export const pixelFontJob: JobKind<PixelFontParams> = {
  name: 'pixelFont',
  task: TOOL_TASKS.pixelFont,
  run: async (params, { outPrefix, progress, client, lane }) => {
    const result = await toolsPool().run(
      { kind: 'pixelFont', ...params, outPrefix },
      { lane, onProgress: progress, client },
    );
    return {
      files: result.files,
      extra: { familyName: params.family, keptCount: result.glyphCount, missingCount: result.missing },
    };
  },
};
