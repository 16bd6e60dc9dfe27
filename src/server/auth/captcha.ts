import { randomInt, randomUUID } from 'node:crypto';
import { eq, lte } from 'drizzle-orm';
import type { CaptchaTrack } from '../../contract/captcha.ts';
import { type Db, db } from '../db/client.ts';
import { captchaPuzzles, captchaVerifications } from '../db/schema/index.ts';
import { log } from '../log.ts';
import { CAPTCHA_WIDTH } from './captcha-art.ts';
import { aesEcbDecrypt, aesEcbEncrypt, CaptchaCipherError, newSecretKey } from './captcha-crypto.ts';
import type { BackgroundSet } from './captcha-image.ts';
import { MAX_X, MIN_X, PIECE_WIDTH, PIECE_Y_RANGE } from './captcha-image.ts';
import { judgeTrack, parseTrack } from './captcha-track.ts';
import type { Clock } from './clock.ts';
import { createSharedLimiter, type SharedLimiter } from './shared-limiter.ts';

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

/** Where a puzzle stands in its chain, and whose failures it counts to. */
interface Chain {
  /** Which puzzle of the chain this is (1-based), and how many the chain has. */
  round: number;
  rounds: number;
  /** The failure keys of whoever asked for the chain. */
  keys: string[];
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
 * accepts once within 180 s. Puzzles, verifications and failure counts live in the database, so a
 * puzzle fetched from one node can be answered on another; each is taken with `DELETE … RETURNING`,
 * so one try per token holds across nodes. Expiry follows the service's clock.
 */
export class CaptchaService {
  private readonly clock: Clock;
  private readonly backgrounds: () => Promise<BackgroundSet>;
  private readonly database: () => Promise<Db>;
  private readonly failures: { browser: SharedLimiter; address: SharedLimiter };

  constructor(options: { clock: Clock; backgrounds: () => Promise<BackgroundSet>; database?: () => Promise<Db> }) {
    this.clock = options.clock;
    this.backgrounds = options.backgrounds;
    this.database = options.database ?? db;
    const counter = (kind: 'browser' | 'address') =>
      createSharedLimiter({
        name: `captchaFailures.${kind}`,
        limit: ESCALATION[kind].coolDownAfter,
        windowMs: FAILURE_WINDOW_MS,
        clock: options.clock,
        database: this.database,
      });
    this.failures = { browser: counter('browser'), address: counter('address') };
  }

  private counterOf(key: string): { limiter: SharedLimiter; harderAfter: number } {
    const kind = key.startsWith('uid:') ? 'browser' : 'address';
    return { limiter: this.failures[kind], harderAfter: ESCALATION[kind].harderAfter };
  }

  /** How many puzzles in a row a pass takes for these failure keys (at least `atLeast`). */
  private async roundsFor(keys: string[], atLeast = 1): Promise<number> {
    const counts = await Promise.all(
      keys.map(async (key) => {
        const { limiter, harderAfter } = this.counterOf(key);
        return (await limiter.count(key)) >= harderAfter;
      }),
    );
    return Math.max(atLeast, counts.includes(true) ? 2 : 1);
  }

  /** The longest wait any of the keys is under, or 0. */
  private async coolDown(keys: string[]): Promise<number> {
    let wait = 0;
    for (const key of keys) {
      const verdict = await this.counterOf(key).limiter.check(key);
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
    const wait = await this.coolDown(keys);
    if (wait > 0) return { ok: false, retryAfter: wait, message: COOL_DOWN_MESSAGE(wait) };
    const challenge = await this.cut({ round: 1, rounds: await this.roundsFor(keys, options.rounds), keys });
    return { ok: true, challenge };
  }

  private async cut(chain: Chain): Promise<CaptchaChallenge> {
    const set = await this.backgrounds();
    const puzzle = await set.cut(
      randomInt(set.size),
      randomInt(MIN_X, MAX_X + 1),
      randomInt(PIECE_Y_RANGE.min, PIECE_Y_RANGE.max + 1),
    );
    const token = randomUUID().replaceAll('-', '');
    const secretKey = newSecretKey();
    await (await this.database()).insert(captchaPuzzles).values({
      token,
      x: puzzle.x,
      secretKey,
      expiresAt: new Date(this.clock() + CAPTCHA_TTL_MS),
      round: chain.round,
      rounds: chain.rounds,
      failureKeys: chain.keys,
    });
    return {
      originalImageBase64: puzzle.originalImageBase64,
      jigsawImageBase64: puzzle.jigsawImageBase64,
      token,
      secretKey,
    };
  }

  private async fail(keys: string[], repCode: '6111' | '0016', message: string): Promise<CaptchaCheckResult> {
    for (const key of keys) await this.counterOf(key).limiter.hit(key);
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
    // One try per token: it is gone before anything else is looked at, whichever node asks.
    const [entry] = await (await this.database())
      .delete(captchaPuzzles)
      .where(eq(captchaPuzzles.token, token))
      .returning();
    const keys = [...new Set([...subjectKeys(subject), ...(entry?.failureKeys ?? [])])];
    const wait = await this.coolDown(keys);
    if (wait > 0) return { ok: false, repCode: '6201', message: COOL_DOWN_MESSAGE(wait), retryAfter: wait };
    if (!entry || entry.expiresAt.getTime() <= this.clock()) {
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
      const next = await this.cut({ round: entry.round + 1, rounds: entry.rounds, keys: entry.failureKeys });
      return { ok: false, repCode: '6114', message: '验证通过，请再完成一张拼图', next };
    }
    // The client computes the same value itself: ECB is deterministic, so encrypting the exact
    // decrypted text again gives the ciphertext it will send with the next action.
    const captchaVerification = aesEcbEncrypt(`${token}---${plain}`, entry.secretKey);
    await (await this.database()).insert(captchaVerifications).values({
      value: captchaVerification,
      expiresAt: new Date(this.clock() + VERIFICATION_TTL_MS),
      rounds: entry.rounds,
    });
    return { ok: true, captchaVerification };
  }

  /**
   * Accepts a verification from a passed check once, within its lifetime, when its chain had at
   * least `rounds` puzzles (an account under attack asks for more).
   */
  async consumeVerification(value: string | undefined | null, rounds = 1): Promise<boolean> {
    if (!value) return false;
    const [found] = await (await this.database())
      .delete(captchaVerifications)
      .where(eq(captchaVerifications.value, value))
      .returning();
    return found !== undefined && found.expiresAt.getTime() > this.clock() && found.rounds >= rounds;
  }

  /** Deletes the puzzles and verifications that expired by the service's clock; answers how many went. */
  async sweep(): Promise<number> {
    const handle = await this.database();
    const now = new Date(this.clock());
    const puzzles = await handle
      .delete(captchaPuzzles)
      .where(lte(captchaPuzzles.expiresAt, now))
      .returning({ token: captchaPuzzles.token });
    const passes = await handle
      .delete(captchaVerifications)
      .where(lte(captchaVerifications.expiresAt, now))
      .returning({ value: captchaVerifications.value });
    return puzzles.length + passes.length;
  }
}
