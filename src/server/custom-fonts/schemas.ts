import { z } from 'zod';
import {
  CUSTOM_FONT_ACTIONS,
  CUSTOM_FONT_BUDGETS,
  CUSTOM_FONT_CHARSETS,
  CUSTOM_FONT_KINDS,
  CUSTOM_FONT_MAX_FILES,
  CUSTOM_FONT_STAGES,
} from '../../contract/custom-fonts.ts';
import { EMAIL_MESSAGE, isEmail, isMobile, MOBILE_MESSAGE } from '../../lib/validate.ts';
import { listChoiceOr, pageQuery } from '../http/validate.ts';

// What the custom-font calls take, with the Chinese names and messages the form shows.

const keys = <T extends Record<string, unknown>>(record: T) =>
  Object.keys(record) as [keyof T & string, ...(keyof T & string)[]];

/** Today in China ('YYYY-MM-DD'): a deadline must be a later day. */
export function chinaToday(now = new Date()): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

/** True for a real calendar day written YYYY-MM-DD. */
function isCalendarDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const uid = z
  .string()
  .trim()
  .regex(/^[0-9a-f-]{36}$/, '需求编号格式不正确')
  .meta({ label: '需求编号' });

export const ticketQuery = z.object({
  name: z.string().trim().min(1).max(200).meta({ label: '文件名' }),
  size: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ label: '文件大小' }),
  type: z.string().max(100).default('').meta({ label: '文件类型' }),
});

export const requestBody = z
  .object({
    organisation: z
      .string()
      .trim()
      .min(2, '请填写机构或公司名称（个人请填写姓名）')
      .max(60, '机构名称最多 60 个字')
      .meta({ label: '机构/公司名称' }),
    contactName: z.string().trim().min(1, '请填写联系人').max(30, '联系人最多 30 个字').meta({ label: '联系人' }),
    phone: z
      .string()
      .trim()
      .max(11, MOBILE_MESSAGE)
      .refine(isMobile, MOBILE_MESSAGE)
      .default('')
      .meta({ label: '手机号' }),
    email: z.string().trim().max(100, EMAIL_MESSAGE).refine(isEmail, EMAIL_MESSAGE).default('').meta({ label: '邮箱' }),
    kind: z.enum(keys(CUSTOM_FONT_KINDS), '请选择定制类型').meta({ label: '定制类型' }),
    charset: z.enum(keys(CUSTOM_FONT_CHARSETS), '请选择字符集').meta({ label: '字符集' }),
    customCount: z.coerce
      .number('字数应为整数')
      .int('字数应为整数')
      .min(1, '字数至少 1 个')
      .max(100_000, '字数最多 100000 个')
      .nullable()
      .default(null)
      .meta({ label: '字数' }),
    weights: z.coerce
      .number('字重数量应为整数')
      .int('字重数量应为整数')
      .min(1, '至少 1 个字重')
      .max(12, '最多 12 个字重')
      .meta({ label: '字重数量' }),
    deadline: z
      .string()
      .trim()
      .refine((value) => value === '' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && isCalendarDay(value)), '日期格式不正确')
      .refine((value) => value === '' || value > chinaToday(), '期望交付日期应晚于今天')
      .refine((value) => value === '' || value <= `${Number(chinaToday().slice(0, 4)) + 5}-12-31`, '期望交付日期太远了')
      .default('')
      .meta({ label: '期望交付日期' }),
    budget: z.enum(keys(CUSTOM_FONT_BUDGETS), '请选择预算范围').meta({ label: '预算范围' }),
    description: z
      .string()
      .trim()
      .min(10, '请简单描述用途和要求（至少 10 个字）')
      .max(2000, '需求描述最多 2000 个字')
      .meta({ label: '需求描述' }),
    attachments: z
      .array(
        z.object({
          key: z.string().max(300).meta({ label: '上传文件' }),
          name: z.string().trim().min(1).max(200).meta({ label: '文件名' }),
        }),
      )
      .max(CUSTOM_FONT_MAX_FILES, `附件最多 ${CUSTOM_FONT_MAX_FILES} 个`)
      .default([])
      .meta({ label: '附件' }),
  })
  .refine((body) => body.phone !== '' || body.email !== '', {
    message: '手机号和邮箱至少填写一项，方便我们联系你',
    path: ['phone'],
  })
  .refine((body) => body.charset !== 'custom' || (body.customCount ?? 0) > 0, {
    message: '选择自定字数时，请填写需要的字数',
    path: ['customCount'],
  });

export const uidQuery = z.object({ uid });

export const attachmentQuery = z.object({
  uid,
  file: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '附件编号' }),
});

export const queueQuery = pageQuery.extend({ filter: listChoiceOr(['open', ...CUSTOM_FONT_STAGES], 'open', '阶段') });

/** An editor's move; `from` is the stage the editor's page showed. */
export const moveBody = z.object({
  uid,
  action: z.enum(CUSTOM_FONT_ACTIONS, '操作不正确').meta({ label: '操作' }),
  from: z.enum(CUSTOM_FONT_STAGES).optional().meta({ label: '当前阶段' }),
  note: z.string().trim().max(1000, '备注最多 1000 个字').default('').meta({ label: '备注' }),
  quote: z.string().trim().max(60, '报价最多 60 个字').default('').meta({ label: '报价' }),
});
