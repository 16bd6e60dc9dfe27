import { randomInt, randomUUID } from 'node:crypto';
import { aesEcbDecrypt, aesEcbEncrypt, CaptchaCipherError, newSecretKey } from './captcha-crypto.ts';
import type { BackgroundSet } from './captcha-image.ts';
import { MAX_X, MIN_X, PIECE_Y_RANGE } from './captcha-image.ts';
import type { Clock } from './clock.ts';

/** A puzzle lives this long after `get` (AJ-Captcha: 120 s). */
export const CAPTCHA_TTL_MS = 120_000;
/** A passed check can be used by the next action for this long (AJ-Captcha: 180 s). */
export const VERIFICATION_TTL_MS = 180_000;
/** How far the piece may land from the hole, in background pixels. */
export const SLIP_OFFSET = 5;
/** The y every block-puzzle client sends: the piece strip is full height, so only x matters. */
export const POINT_Y = 5;

/** What `captcha/get` hands out (AJ-Captcha's repData). */
export interface CaptchaChallenge {
  originalImageBase64: string;
  jigsawImageBase64: string;
  token: string;
  secretKey: string;
}

/** The outcome of `captcha/check`, with AJ-Captcha's repCode. */
export type CaptchaCheckResult =
  | { ok: true; captchaVerification: string }
  | { ok: false; repCode: '6110' | '6111' | '0016'; message: string };

interface Pending {
  x: number;
  secretKey: string;
  expiresAt: number;
}

// Beyond this many waiting puzzles or verifications the oldest go first, so a flood of `get`
// calls cannot grow memory without bound.
const MAX_ENTRIES = 50_000;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
}

function parsePoint(json: string): { x: number; y: number } | undefined {
  try {
    const point = JSON.parse(json) as { x?: unknown; y?: unknown };
    if (typeof point?.x !== 'number' || typeof point.y !== 'number') return undefined;
    if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) return undefined;
    return { x: point.x, y: point.y };
  } catch {
    return undefined;
  }
}

/**
 * The block-puzzle captcha, compatible with AJ-Captcha's protocol: `create` cuts a puzzle and
 * remembers its answer under a token with a per-captcha AES key; `check` takes one try per token
 * (the token is gone before the answer is compared); a pass leaves a single-use verification that
 * `consumeVerification` accepts once within 180 s. State lives in this process.
 */
export class CaptchaService {
  private readonly pending = new Map<string, Pending>();
  private readonly verifications = new Map<string, number>();
  private readonly clock: Clock;
  private readonly backgrounds: () => Promise<BackgroundSet>;

  constructor(options: { clock: Clock; backgrounds: () => Promise<BackgroundSet> }) {
    this.clock = options.clock;
    this.backgrounds = options.backgrounds;
  }

  /** Cuts a new puzzle at a random place in a random background. */
  async create(): Promise<CaptchaChallenge> {
    const set = await this.backgrounds();
    const puzzle = await set.cut(
      randomInt(set.size),
      randomInt(MIN_X, MAX_X + 1),
      randomInt(PIECE_Y_RANGE.min, PIECE_Y_RANGE.max + 1),
    );
    const token = randomUUID().replaceAll('-', '');
    const secretKey = newSecretKey();
    remember(this.pending, token, { x: puzzle.x, secretKey, expiresAt: this.clock() + CAPTCHA_TTL_MS });
    return {
      originalImageBase64: puzzle.originalImageBase64,
      jigsawImageBase64: puzzle.jigsawImageBase64,
      token,
      secretKey,
    };
  }

  /** Checks an answer: `pointJson` is base64 AES-ECB of `{"x":…,"y":5}` under the puzzle's key. */
  check(token: string, pointJson: string): CaptchaCheckResult {
    const entry = this.pending.get(token);
    // One try per token: it is gone before anything else is looked at.
    this.pending.delete(token);
    if (!entry || entry.expiresAt <= this.clock()) {
      return { ok: false, repCode: '6110', message: '验证码已失效，请重新获取' };
    }
    let plain: string;
    try {
      plain = aesEcbDecrypt(pointJson, entry.secretKey);
    } catch (error) {
      if (!(error instanceof CaptchaCipherError)) throw error;
      return { ok: false, repCode: '0016', message: '验证数据格式不正确，请刷新后重新验证' };
    }
    const point = parsePoint(plain);
    if (!point) return { ok: false, repCode: '0016', message: '验证数据格式不正确，请刷新后重新验证' };
    if (Math.abs(point.x - entry.x) > SLIP_OFFSET || point.y !== POINT_Y) {
      return { ok: false, repCode: '6111', message: '验证失败，请再试一次' };
    }
    // The client computes the same value itself: ECB is deterministic, so encrypting the exact
    // decrypted text again gives the ciphertext it will send with the next action.
    const captchaVerification = aesEcbEncrypt(`${token}---${plain}`, entry.secretKey);
    remember(this.verifications, captchaVerification, this.clock() + VERIFICATION_TTL_MS);
    return { ok: true, captchaVerification };
  }

  /** Accepts a verification from a passed check once, within its lifetime. */
  consumeVerification(value: string | undefined | null): boolean {
    if (!value) return false;
    const expiresAt = this.verifications.get(value);
    this.verifications.delete(value);
    return expiresAt !== undefined && expiresAt > this.clock();
  }
}
