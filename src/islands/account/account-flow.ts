import { type LoginResult, sendCode } from '../../api/account.ts';
/** What a one-time code is for (the server's purposes). */
import type { CodePurpose } from '../../contract/accounts.ts';
import { validateAccount, validateEmail, validateMobile } from '../../lib/validate.ts';
import { showToast } from '../../stores/toast.ts';
import { loginWithToken } from '../../stores/user.ts';

export type { CodePurpose };

/** Password limits the server applies (src/server/auth/passwords.ts). */
export const PASSWORD_MIN = 8;
/** The most characters a password may have. */
export const PASSWORD_MAX = 64;

/** Checks a required mobile number field. */
export function checkMobile(value: string): string | null {
  return value.trim() ? validateMobile(value.trim()) : '请输入手机号';
}

/** Checks a required e-mail field. */
export function checkEmail(value: string): string | null {
  return value.trim() ? validateEmail(value.trim()) : '请输入邮箱';
}

/** Checks a required mobile-or-e-mail field. */
export function checkAccount(value: string): string | null {
  return value.trim() ? validateAccount(value.trim()) : '请输入手机号或邮箱';
}

/** Checks a new password's length (the server also refuses very common passwords). */
export function checkNewPassword(value: string): string | null {
  const length = [...value].length;
  if (length < PASSWORD_MIN) return `密码至少 ${PASSWORD_MIN} 个字符`;
  if (length > PASSWORD_MAX) return `密码最多 ${PASSWORD_MAX} 个字符`;
  return null;
}

/** Checks a six-digit code field. */
export function checkCode(value: string): string | null {
  return /^\d{6}$/.test(value) ? null : '请输入 6 位数字验证码';
}

/**
 * Sends a code to an address after a solved captcha and answers the resend cooldown. The address is
 * checked first and its problem shown under its field (`showProblem(null)` clears it); a bad address
 * throws without asking for the puzzle. The server's refusals (cooldown, daily cap) are shown as
 * toasts by the API client.
 */
export async function sendCodeWithCaptcha(
  verify: () => Promise<string>,
  account: string,
  purpose: CodePurpose,
  check: (account: string) => string | null,
  showProblem: (problem: string | null) => void,
): Promise<number> {
  const problem = check(account);
  showProblem(problem);
  if (problem) throw new Error(problem);
  const captchaVerification = await verify();
  const answer = await sendCode({ account: account.trim(), purpose, captchaVerification });
  const cooldown = answer?.cooldown ?? 60;
  showToast(account.includes('@') ? '验证码已发送到邮箱，5 分钟内有效' : '验证码已发送到手机，5 分钟内有效', 'success');
  return cooldown;
}

/**
 * What every way of logging in does at the end (SPEC §4): store the token with its lifetime, then
 * load user info and favourites in turn. A favourites call that fails does not undo the login.
 */
export async function finishLogin(result: LoginResult, message = '登录成功'): Promise<void> {
  try {
    await loginWithToken(result.token, result.expired);
  } catch {
    // Each failure was shown by the API client; the session itself is in place.
  }
  showToast(message, 'success');
}
