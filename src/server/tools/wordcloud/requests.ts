import { z } from 'zod';
import { CLOUD_PALETTES } from '../../../contract/word-cloud.ts';
import { ORIENTATIONS } from '../../engine/wordcloud/layout.ts';
import { MAX_WORDS } from '../../engine/wordcloud/words.ts';
import { sourceSchema } from '../sources.ts';

// The word-cloud calls' bodies and their checks, with the Chinese message of each.

/** Most characters of text a cloud is made from. */
export const MAX_CLOUD_TEXT = 50_000;
/** Canvas sides, in pixels. */
export const MIN_CLOUD_SIDE = 600;
export const MAX_CLOUD_SIDE = 4000;

const text = z
  .string({ error: '请粘贴要做成词云的文字' })
  .max(MAX_CLOUD_TEXT, `文字最多 ${MAX_CLOUD_TEXT} 个字符，请删减后再试`)
  .meta({ label: '文字' });

const limit = z
  .number()
  .int('词数必须是整数')
  .min(1, '至少使用 1 个词')
  .max(MAX_WORDS, `最多使用 ${MAX_WORDS} 个词`)
  .default(200)
  .meta({ label: '词数' });

/** The body of POST /tools/api/word-cloud/words: text to cut into weighted words. */
export const cloudWordsRequest = z.object({ text, limit });

const word = z.object({
  text: z
    .string()
    .trim()
    .min(1, '词不能为空')
    .max(20, '每个词最多 20 个字')
    .regex(/^[^\p{Cc}]+$/u, '词里不能有控制字符')
    .meta({ label: '词' }),
  weight: z.number().min(0.01, '权重在 0.01 到 1 之间').max(1, '权重在 0.01 到 1 之间').meta({ label: '权重' }),
});

const side = (label: string) =>
  z
    .number({ error: `${label}必须是 ${MIN_CLOUD_SIDE} 到 ${MAX_CLOUD_SIDE} 之间的整数` })
    .int(`${label}必须是整数`)
    .min(MIN_CLOUD_SIDE, `${label}至少 ${MIN_CLOUD_SIDE} 像素`)
    .max(MAX_CLOUD_SIDE, `${label}最多 ${MAX_CLOUD_SIDE} 像素`)
    .meta({ label });

const shape = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('template'), id: z.number().int().positive().meta({ label: '形状模板' }) }),
    z.object({ kind: z.literal('picture'), maskId: z.uuid('形状图片已过期，请重新上传').meta({ label: '形状图片' }) }),
    z.object({
      kind: z.literal('character'),
      character: z
        .string()
        .refine((value) => [...value].length === 1 && /[\p{L}\p{N}]/u.test(value), '形状文字只能是一个汉字或字母')
        .meta({ label: '形状文字' }),
      /** The font the character is drawn in; the words' font when left out. */
      fontId: z.number().int().positive().optional().meta({ label: '形状字体' }),
    }),
  ])
  .default({ kind: 'none' })
  .meta({ label: '形状' });

/** The body of POST /tools/api/word-cloud: the words (or text), shape, style and output. */
export const cloudRequest = z
  .object({
    text: text.optional(),
    words: z.array(word).max(MAX_WORDS, `最多使用 ${MAX_WORDS} 个词`).optional().meta({ label: '词表' }),
    limit,
    font: sourceSchema,
    shape,
    threshold: z.number().min(0.05, '阈值在 0.05 到 0.95 之间').max(0.95, '阈值在 0.05 到 0.95 之间').default(0.5),
    orientation: z.enum(ORIENTATIONS).default('mixed').meta({ label: '文字方向' }),
    verticalText: z.boolean().default(true).meta({ label: '竖排' }),
    colors: z
      .union([z.enum(CLOUD_PALETTES), z.literal('picture')])
      .default('vermilion')
      .meta({ label: '配色' }),
    background: z
      .union([z.literal('transparent'), z.string().regex(/^#[0-9a-fA-F]{6}$/, '背景色格式应为 #RRGGBB')])
      .default('#ffffff')
      .meta({ label: '背景色' }),
    width: side('宽度').default(1000),
    height: side('高度').default(1000),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31)
      .default(1)
      .meta({ label: '随机种子' }),
    format: z.enum(['png', 'svg', 'svg-outlines']).default('png').meta({ label: '输出格式' }),
  })
  .superRefine((value, ctx) => {
    if (!value.words?.length && !value.text?.trim()) {
      ctx.addIssue({ code: 'custom', message: '请粘贴文字或填写词表', path: ['text'] });
    }
  });

export type CloudRequestBody = z.infer<typeof cloudRequest>;
