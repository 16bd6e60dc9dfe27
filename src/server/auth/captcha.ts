import { randomInt, randomUUID } from 'node:crypto';
import type { CaptchaTrack } from '../../contract/captcha.ts';
import { log } from '../log.ts';
import { CAPTCHA_WIDTH } from './captcha-art.ts';
import { aesEcbDecrypt, aesEcbEncrypt, CaptchaCipherError, newSecretKey } from './captcha-crypto.ts';
import type { BackgroundSet } from './captcha-image.ts';
import { MAX_X, MIN_X, PIECE_WIDTH, PIECE_Y_RANGE } from './captcha-image.ts';
import { judgeTrack, parseTrack } from './captcha-track.ts';
import type { Clock } from './clock.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';

/** A puzzle lives this long after `get` (AJ-Captcha: 120 s). */
export const CAPTCHA_TTL_MS = 120_000;
/** A passed check can be used by the next action for this long (AJ-Captcha: 180 s). */
export const VERIFICATION_TTL_MS = 180_000;
/** How far the piece may land from the hole, in background pixels. */
export const SLIP_OFFSET = 5;
/** The y every block-puzzle client sends: the piece strip is full height, so only x matters. */
export const POINT_Y = 5;

/** The largest encrypted drag track taken, in bytes once decoded (600 samples fit). */
export const TRACK_JSON_BYTES = 24 * 1024;

/** What `captcha/get` hands out (AJ-Captcha's repData). */
export interface CaptchaChallenge {
  originalImageBase64: string;
  jigsawImageBase64: string;
  token: string;
  secretKey: string;
}

/** Who asks for puzzles: the address, and the browser's own id when it sends one (AJ-Captcha's clientUid). */
export interface CaptchaSubject {
  ip: string;
  clientUid?: string | undefined;
}

/**
 * Failures in FAILURE_WINDOW_MS after which a pass takes two puzzles in a row, and after which
 * nothing is handed out or checked until the window ends: per browser id, and (higher, since an
 * office or a campus shares one) per address.
 */
export const ESCALATION = {
  browser: { harderAfter: 3, coolDownAfter: 8 },
  address: { harderAfter: 6, coolDownAfter: 30 },
} as const;
/** The window failures are counted in. */
export const FAILURE_WINDOW_MS = 15 * 60_000;

/** The outcome of `captcha/check`, with AJ-Captcha's repCode (6114, 6201 are this site's). */
export type CaptchaCheckResult =
  | { ok: true; captchaVerification: string }
  | { ok: false; repCode: '6110' | '6111' | '0016'; message: string }
  /** Passed, and another puzzle follows: the answer carries it. */
  | { ok: false; repCode: '6114'; message: string; next: CaptchaChallenge }
  /** Too many failures: nothing is checked for `retryAfter` seconds. */
  | { ok: false; repCode: '6201'; message: string; retryAfter: number };

/** What `create` answers: a puzzle, or how long the asker must wait. */
export type CaptchaCreateResult =
  | { ok: true; challenge: CaptchaChallenge }
  | { ok: false; retryAfter: number; message: string };

interface Pending {
  x: number;
  secretKey: string;
  expiresAt: number;
  /** Which puzzle of the chain this is (1-based), and how many the chain has. */
  round: number;
  rounds: number;
  /** The failure keys of whoever asked for the chain. */
  keys: string[];
}

interface Verification {
  expiresAt: number;
  rounds: number;
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

const subjectKeys = (subject: CaptchaSubject) =>
  subject.clientUid ? [`ip:${subject.ip}`, `uid:${subject.clientUid}`] : [`ip:${subject.ip}`];

const COOL_DOWN_MESSAGE = (seconds: number) =>
  `验证失败次数过多，请 ${Math.max(1, Math.ceil(seconds / 60))} 分钟后再试`;
const MALFORMED = '验证数据格式不正确，请刷新后重新验证';

/**
 * The block-puzzle captcha, compatible with AJ-Captcha's protocol: `create` cuts a puzzle and
 * remembers its answer under a token with a per-captcha AES key; `check` takes one try per token
 * (the token is gone before the answer is compared) and also judges the drag track the answer
 * carries (captcha-track.ts). Failures are counted per address and per browser id (ESCALATION):
 * past the first threshold a pass takes two puzzles in a row, past the second nothing is handed
 * out until the window ends. A pass leaves a single-use verification that `consumeVerification`
 * accepts once within 180 s. State lives in this process.
 */
export class CaptchaService {
  private readonly pending = new Map<string, Pending>();
  private readonly verifications = new Map<string, Verification>();
  private readonly clock: Clock;
  private readonly backgrounds: () => Promise<BackgroundSet>;
  private readonly failures: { browser: RateLimiter; address: RateLimiter };

  constructor(options: { clock: Clock; backgrounds: () => Promise<BackgroundSet> }) {
    this.clock = options.clock;
    this.backgrounds = options.backgrounds;
    const counter = (limit: number) => createRateLimiter({ limit, windowMs: FAILURE_WINDOW_MS, clock: options.clock });
    this.failures = {
      browser: counter(ESCALATION.browser.coolDownAfter),
      address: counter(ESCALATION.address.coolDownAfter),
    };
  }

  private counterOf(key: string): { limiter: RateLimiter; harderAfter: number } {
    const kind = key.startsWith('uid:') ? 'browser' : 'address';
    return { limiter: this.failures[kind], harderAfter: ESCALATION[kind].harderAfter };
  }

  /** How many puzzles in a row a pass takes for these failure keys (at least `atLeast`). */
  private roundsFor(keys: string[], atLeast = 1): number {
    const harder = keys.some((key) => {
      const { limiter, harderAfter } = this.counterOf(key);
      return limiter.count(key) >= harderAfter;
    });
    return Math.max(atLeast, harder ? 2 : 1);
  }

  /** The longest wait any of the keys is under, or 0. */
  private coolDown(keys: string[]): number {
    let wait = 0;
    for (const key of keys) {
      const verdict = this.counterOf(key).limiter.check(key);
      if (!verdict.allowed) wait = Math.max(wait, verdict.retryAfter);
    }
    return wait;
  }

  /**
   * Cuts a new puzzle at a random place in a random background, the first of a chain of
   * `rounds` (at least what the asker's failures call for), unless the asker is cooling down.
   */
  async create(subject: CaptchaSubject, options: { rounds?: number } = {}): Promise<CaptchaCreateResult> {
    const keys = subjectKeys(subject);
    const wait = this.coolDown(keys);
    if (wait > 0) return { ok: false, retryAfter: wait, message: COOL_DOWN_MESSAGE(wait) };
    const challenge = await this.cut({ round: 1, rounds: this.roundsFor(keys, options.rounds), keys });
    return { ok: true, challenge };
  }

  private async cut(chain: Pick<Pending, 'round' | 'rounds' | 'keys'>): Promise<CaptchaChallenge> {
    const set = await this.backgrounds();
    const puzzle = await set.cut(
      randomInt(set.size),
      randomInt(MIN_X, MAX_X + 1),
      randomInt(PIECE_Y_RANGE.min, PIECE_Y_RANGE.max + 1),
    );
    const token = randomUUID().replaceAll('-', '');
    const secretKey = newSecretKey();
    remember(this.pending, token, { ...chain, x: puzzle.x, secretKey, expiresAt: this.clock() + CAPTCHA_TTL_MS });
    return {
      originalImageBase64: puzzle.originalImageBase64,
      jigsawImageBase64: puzzle.jigsawImageBase64,
      token,
      secretKey,
    };
  }

  private fail(keys: string[], repCode: '6111' | '0016', message: string): CaptchaCheckResult {
    for (const key of keys) this.counterOf(key).limiter.hit(key);
    return { ok: false, repCode, message };
  }

  /**
   * Checks an answer: `pointJson` is base64 AES-ECB of `{"x":…,"y":5}` under the puzzle's key,
   * `trackJson` the same of the drag track ({@link CaptchaTrack}).
   */
  async check(
    token: string,
    pointJson: string,
    trackJson: string | undefined,
    subject: CaptchaSubject,
  ): Promise<CaptchaCheckResult> {
    const entry = this.pending.get(token);
    // One try per token: it is gone before anything else is looked at.
    this.pending.delete(token);
    const keys = [...new Set([...subjectKeys(subject), ...(entry?.keys ?? [])])];
    const wait = this.coolDown(keys);
    if (wait > 0) return { ok: false, repCode: '6201', message: COOL_DOWN_MESSAGE(wait), retryAfter: wait };
    if (!entry || entry.expiresAt <= this.clock()) {
      return { ok: false, repCode: '6110', message: '验证码已失效，请重新获取' };
    }
    let plain: string;
    let track: CaptchaTrack | undefined;
    try {
      plain = aesEcbDecrypt(pointJson, entry.secretKey);
      track = trackJson ? parseTrack(aesEcbDecrypt(trackJson, entry.secretKey, TRACK_JSON_BYTES)) : undefined;
    } catch (error) {
      if (!(error instanceof CaptchaCipherError)) throw error;
      return this.fail(keys, '0016', MALFORMED);
    }
    const point = parsePoint(plain);
    if (!point) return this.fail(keys, '0016', MALFORMED);
    if (Math.abs(point.x - entry.x) > SLIP_OFFSET || point.y !== POINT_Y) {
      return this.fail(keys, '6111', '验证失败，请再试一次');
    }
    const verdict = track ? judgeTrack(track, point.x, CAPTCHA_WIDTH - PIECE_WIDTH) : { ok: false, reason: 'no track' };
    if (!verdict.ok) {
      log().info({ reason: verdict.reason }, 'A captcha answer had no human drag track');
      return this.fail(keys, '6111', '验证失败，请再试一次');
    }
    if (entry.round < entry.rounds) {
      const next = await this.cut({ round: entry.round + 1, rounds: entry.rounds, keys: entry.keys });
      return { ok: false, repCode: '6114', message: '验证通过，请再完成一张拼图', next };
    }
    // The client computes the same value itself: ECB is deterministic, so encrypting the exact
    // decrypted text again gives the ciphertext it will send with the next action.
    const captchaVerification = aesEcbEncrypt(`${token}---${plain}`, entry.secretKey);
    remember(this.verifications, captchaVerification, {
      expiresAt: this.clock() + VERIFICATION_TTL_MS,
      rounds: entry.rounds,
    });
    return { ok: true, captchaVerification };
  }

  /**
   * Accepts a verification from a passed check once, within its lifetime, when its chain had at
   * least `rounds` puzzles (an account under attack asks for more).
   */
  consumeVerification(value: string | undefined | null, rounds = 1): boolean {
    if (!value) return false;
    const found = this.verifications.get(value);
    this.verifications.delete(value);
    return found !== undefined && found.expiresAt > this.clock() && found.rounds >= rounds;
  }
}
