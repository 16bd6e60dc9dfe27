import type { CaptchaAnswer, CaptchaTrack } from '../contract/captcha.ts';
import { post } from './http.ts';

export type { CaptchaAnswer, CaptchaTrack };

/** A puzzle from `captcha/get`: background and piece as base64 PNG, its token and AES key. */
export interface CaptchaPuzzle {
  token: string;
  secretKey: string;
  originalImageBase64: string;
  jigsawImageBase64: string;
}

/** What `captcha/check` is sent: the encrypted point and drag track, and the puzzle's token. */
export interface CaptchaCheck {
  captchaType: string;
  pointJson: string;
  /** The encrypted {@link CaptchaTrack}, under the same key as the point. */
  trackJson: string;
  token: string;
  clientUid?: string | undefined;
}

/** Who asks for a puzzle: the browser's id, and the account the action that follows is for. */
export interface CaptchaAsker {
  clientUid?: string | undefined;
  account?: string | undefined;
}

/** What a passed check answers: the verification for the action that follows. */
export interface CaptchaPassed {
  result: boolean;
  token: string;
  captchaVerification?: string;
}

/** Fetches a new puzzle. Quiet: the captcha shows its own messages. */
export const getCaptcha = (asker: CaptchaAsker = {}) =>
  post<CaptchaAnswer<CaptchaPuzzle>>(
    '/captcha/get',
    { captchaType: 'blockPuzzle', ts: Date.now(), ...asker },
    { quiet: true },
  );

/**
 * Verifies a solved puzzle; a pass carries the verification for the action that follows, and
 * repCode 6114 (passed, one more to go) the next puzzle of the chain.
 */
export const checkCaptcha = (input: CaptchaCheck) =>
  post<CaptchaAnswer<CaptchaPassed & Partial<CaptchaPuzzle>>>('/captcha/check', input, { quiet: true });
