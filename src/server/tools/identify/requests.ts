import { z } from 'zod';
import { IDENTIFY_MAX_GLYPHS, IDENTIFY_MIN_CROP } from '../../../contract/identify.ts';

// The identification calls' bodies, checked before anything runs.

// Every field has a Chinese label: a refusal names the field the way the page shows it.
const coordinate = (label: string) =>
  z.number().min(0, { error: '不能为负数' }).max(4000, { error: '不能超过 4000 像素' }).meta({ label });
const side = (label: string, least: number, unit: string) =>
  z
    .number()
    .min(least, { error: `最小 ${least} 像素${unit}` })
    .max(4000, { error: '不能超过 4000 像素' })
    .meta({ label });

const box = z
  .object({
    x: coordinate('字框左边位置'),
    y: coordinate('字框上边位置'),
    width: side('字框宽度', 1, ''),
    height: side('字框高度', 1, ''),
  })
  .meta({ label: '字框' });

/** The picture, the part of it to read (at least 10 px a side, SPEC §9) and its turn. */
export const pictureView = z.object({
  pictureId: z.string().max(64).meta({ label: '图片编号' }),
  crop: z
    .object({
      x: coordinate('裁剪区域左边位置'),
      y: coordinate('裁剪区域上边位置'),
      width: side('裁剪区域宽度', IDENTIFY_MIN_CROP, '，请框选大一些'),
      height: side('裁剪区域高度', IDENTIFY_MIN_CROP, '，请框选大一些'),
    })
    .optional()
    .meta({ label: '裁剪区域' }),
  rotate: z.number().min(-360).max(360).default(0).meta({ label: '旋转角度' }),
});

/** Reading characters for boxes the person drew or changed. */
export const readRequest = pictureView.extend({
  boxes: z
    .array(box)
    .min(1, { error: '请至少框出一个字' })
    .max(IDENTIFY_MAX_GLYPHS, { error: `一次最多识别 ${IDENTIFY_MAX_GLYPHS} 个字` })
    .meta({ label: '字框' }),
});

/** Comparing glyphs with the library; a glyph without a character takes the reader's suggestion. */
export const matchRequest = pictureView.extend({
  glyphs: z
    .array(
      z.object({
        box,
        character: z
          .string()
          .trim()
          .refine((text) => [...text].length <= 1, { error: '每个字框只能填一个字' })
          .optional()
          .meta({ label: '字' }),
      }),
    )
    .min(1, { error: '请至少保留一个字框' })
    .max(IDENTIFY_MAX_GLYPHS, {
      error: `一次最多比对 ${IDENTIFY_MAX_GLYPHS} 个字，请删去一些字框，留下笔画清楚、最有特点的字`,
    })
    .meta({ label: '比对的字' }),
  limit: z.number().int().min(1).max(24).default(12).meta({ label: '候选数量' }),
});

export type PictureViewBody = z.infer<typeof pictureView>;
export type MatchRequestBody = z.infer<typeof matchRequest>;
