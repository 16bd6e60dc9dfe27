import { z } from 'zod';
import {
  ACCOUNT_MESSAGE,
  EMAIL_MESSAGE,
  isEmail,
  isMobile,
  MOBILE_MESSAGE,
  validateAccount,
} from '../../lib/validate.ts';
import { CODE_PURPOSES } from '../db/schema/index.ts';
import type { Address } from './account.ts';

// Request bodies of the account API (SPEC §5 formats). Passwords are never trimmed: they are
// checked exactly as typed.

const mobile = z.string().trim().min(1, '请输入手机号').refine(isMobile, MOBILE_MESSAGE).meta({ label: '手机号' });
const email = z
  .string()
  .trim()
  .min(1, '请输入邮箱')
  .max(254, EMAIL_MESSAGE)
  .refine(isEmail, EMAIL_MESSAGE)
  .transform((value) => value.toLowerCase())
  .meta({ label: '邮箱' });
const account = z
  .string()
  .trim()
  .min(1, '请输入手机号或邮箱')
  .max(254, ACCOUNT_MESSAGE)
  .refine((value) => validateAccount(value) === null, ACCOUNT_MESSAGE)
  .meta({ label: '账号' });
const code = z
  .string()
  .trim()
  .regex(/^\d{6}$/, '验证码是 6 位数字')
  .meta({ label: '验证码' });
const password = z.string().min(1, '请输入密码').max(256, '密码最多 64 个字符').meta({ label: '密码' });
const newPassword = z.string().min(1, '请输入新密码').max(256, '密码最多 64 个字符').meta({ label: '新密码' });
const captchaVerification = z.string().max(1024).optional().meta({ label: '滑动验证' });
const nickname = z.string().trim().max(40).optional().meta({ label: '昵称' });

/** Splits the combined account field into its channel and normalised address. */
export function toAddress(value: string): Address {
  return /^1[3-9]\d{9}$/.test(value)
    ? { channel: 'sms', target: value }
    : { channel: 'email', target: value.trim().toLowerCase() };
}

/** POST /login */
export const loginBody = z.object({ account, password, captchaVerification });
/** POST /sms-login */
export const smsLoginBody = z.object({ mobile, code });
/** POST /account/sendCode */
export const sendCodeBody = z.object({
  account,
  purpose: z.enum(CODE_PURPOSES, '用途只能是 login、register、reset 或 bind').meta({ label: '用途' }),
  captchaVerification,
});
/** POST /account/register/phone */
export const registerPhoneBody = z.object({ mobile, code, password, nickname });
/** POST /account/register/email */
export const registerEmailBody = z.object({ email, code, password, nickname });
/** POST /account/rest-code-verify */
export const resetCodeBody = z.object({ account, code });
/** PUT /account/rest-pwd */
export const resetPasswordBody = z.object({ account, code, password: newPassword });
/** PUT /account/bind-account */
export const bindBody = z.object({
  type: z.enum(['mobile', 'email'], '绑定类型只能是 mobile 或 email').meta({ label: '绑定类型' }),
  account,
  code,
  password: password.optional(),
});
/** PUT /account/unbind-account */
export const unbindBody = z.object({
  type: z.enum(['mobile', 'email', 'wechat'], '解绑类型只能是 mobile、email 或 wechat').meta({ label: '解绑类型' }),
  password: password.optional(),
});
/** PUT /account/update-account-pwd */
export const updatePasswordBody = z.object({ oldPassword: password.optional(), password: newPassword });
