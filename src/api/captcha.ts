import type { CaptchaAnswer } from '../contract/captcha.ts';
import { post } from './http.ts';

export type { CaptchaAnswer };

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
