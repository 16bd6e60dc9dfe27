// Validation rules of SPEC §5, shared by forms in the browser and checks on the server.
// Each `validate*` returns the Chinese message to show, or null when the value passes.

/** Message for a mobile number that does not fit the mainland format. */
export const MOBILE_MESSAGE = '手机号格式不正确';
/** Message for an e-mail address that does not fit the accepted shape. */
export const EMAIL_MESSAGE = '邮箱格式不正确';
/** Message for an account field that is neither a mobile number nor an e-mail address. */
export const ACCOUNT_MESSAGE = '账号格式不正确，请输入手机号或邮箱';

// 11 digits, first 1, second 3–9 (mainland mobile numbers).
const MOBILE = /^1[3-9]\d{9}$/;
// name@domain, then one or two suffixes of 2–3 letters: qq.com, 163.com, example.com.cn.
const EMAIL =
  /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z]{2,3}){1,2}$/;
const EXTERNAL = /^(?:https?:|mailto:|tel:)/;

/** The state a form field moves through (SPEC §4). */
export type FieldState = 'idle' | 'validating' | 'error' | 'success';

/** True when `value` is a mainland mobile number; an empty value passes (SPEC §5). */
export function isMobile(value: string | null | undefined): boolean {
  return !value || MOBILE.test(value);
}

/** True when `value` looks like an e-mail address; an empty value passes (SPEC §5). */
export function isEmail(value: string | null | undefined): boolean {
  return !value || EMAIL.test(value);
}

/** Checks a mobile number field. */
export function validateMobile(value: string | null | undefined): string | null {
  return isMobile(value) ? null : MOBILE_MESSAGE;
}

/** Checks an e-mail field. */
export function validateEmail(value: string | null | undefined): string | null {
  return isEmail(value) ? null : EMAIL_MESSAGE;
}

/**
 * Checks a combined account field (mobile number or e-mail). Like its two parts it lets an empty
 * value through: whether the field is required is the form's decision.
 */
export function validateAccount(value: string | null | undefined): string | null {
  if (!value) return null;
  return MOBILE.test(value) || EMAIL.test(value) ? null : ACCOUNT_MESSAGE;
}

/** True when a link leaves the site: it starts with http:, https:, mailto: or tel: (SPEC §5). */
export function isExternalLink(path: string): boolean {
  return EXTERNAL.test(path);
}
