import { post } from './http.ts';

/** A puzzle from `captcha/get` (AJ-Captcha block-puzzle shape; the accounts issue fills it in). */
export interface CaptchaPuzzle {
  token: string;
  secretKey: string;
  originalImageBase64: string;
  jigsawImageBase64: string;
  [key: string]: unknown;
}

/** What `captcha/check` is sent: the encrypted point and the puzzle's token. */
export interface CaptchaCheck {
  captchaType: string;
  pointJson: string;
  token: string;
}

/** Fetches a new puzzle. */
export const getCaptcha = (captchaType = 'blockPuzzle') => post<CaptchaPuzzle>('/captcha/get', { captchaType });

/** Verifies a solved puzzle; the answer carries the verification for the action that follows. */
export const checkCaptcha = (input: CaptchaCheck) => post<Record<string, unknown>>('/captcha/check', input);
