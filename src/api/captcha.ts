import { post } from './http.ts';

/**
 * An answer of the captcha endpoints. They speak AJ-Captcha's protocol rather than the site's
 * envelope: `repCode` '0000' means success, 6110 an expired or used puzzle, 6111 a wrong position.
 */
export interface CaptchaAnswer<T> {
  repCode: string;
  repMsg: string | null;
  repData: T | null;
  success: boolean;
}

/** A puzzle from `captcha/get`: background and piece as base64 PNG, its token and AES key. */
export interface CaptchaPuzzle {
  token: string;
  secretKey: string;
  originalImageBase64: string;
  jigsawImageBase64: string;
}

/** What `captcha/check` is sent: the encrypted point and the puzzle's token. */
export interface CaptchaCheck {
  captchaType: string;
  pointJson: string;
  token: string;
}

/** What a passed check answers: the verification for the action that follows. */
export interface CaptchaPassed {
  result: boolean;
  token: string;
  captchaVerification?: string;
}

/** Fetches a new puzzle. Quiet: the captcha shows its own messages. */
export const getCaptcha = (captchaType = 'blockPuzzle') =>
  post<CaptchaAnswer<CaptchaPuzzle>>('/captcha/get', { captchaType, ts: Date.now() }, { quiet: true });

/** Verifies a solved puzzle; a pass carries the verification for the action that follows. */
export const checkCaptcha = (input: CaptchaCheck) =>
  post<CaptchaAnswer<CaptchaPassed>>('/captcha/check', input, { quiet: true });
