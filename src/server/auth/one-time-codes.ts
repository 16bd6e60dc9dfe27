import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type CodeChannel, type CodePurpose, oneTimeCodes } from '../db/schema/index.ts';
import { ApiError, badRequest, tooManyRequests } from '../http/envelope.ts';
import type { Clock } from './clock.ts';
import { safeEqual } from './tokens.ts';

/** A code is valid this long (ASVS 6.5.5 allows at most 10 minutes). */
export const CODE_TTL_MS = 5 * 60_000;
/** A new code for the same address and purpose waits this long after the last one. */
export const CODE_COOLDOWN_MS = 60_000;
/** This many wrong guesses burn a code. */
export const CODE_MAX_ATTEMPTS = 5;
const DAY_MS = 24 * 60 * 60_000;

/** The answer to a wrong, used, burnt or expired code; one message so none can be told apart. */
export const CODE_INVALID_MESSAGE = '验证码错误或已过期，请重新获取';

/** Where a code goes and what it is for. */
export interface CodeTarget {
  channel: CodeChannel;
  /** The mobile number or lower-case e-mail address. */
  target: string;
  purpose: CodePurpose;
}

/** Daily caps on sending codes (rolling 24 hours). */
export interface CodeLimits {
  perTarget: number;
  perIp: number;
}

// A random 32-bit salt per code (ASVS 6.5.2 for secrets under 112 bits) and SHA-256 over the
// code bound to its address and purpose.
function hashCode(salt: string, where: CodeTarget, code: string): string {
  const digest = createHash('sha256')
    .update(`${salt}\n${where.channel}\n${where.target}\n${where.purpose}\n${code}`, 'utf8')
    .digest('hex');
  return `${salt}$${digest}`;
}

function matches(stored: string, where: CodeTarget, code: string): boolean {
  const salt = stored.slice(0, stored.indexOf('$'));
  return safeEqual(stored, hashCode(salt, where, code));
}

function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Refuses a new code when the address is inside its cooldown for this purpose, or the address or IP is
 * over its daily cap: 429 with Retry-After, before any provider is called.
 */
export async function assertMaySendCode(
  db: Db,
  where: CodeTarget,
  ip: string,
  limits: CodeLimits,
  clock: Clock,
): Promise<void> {
  const now = clock();
  const byTarget = and(eq(oneTimeCodes.channel, where.channel), eq(oneTimeCodes.target, where.target));
  // The cooldown is per address and purpose (a resend); the daily caps count every purpose.
  const [latest] = await db
    .select({ createdAt: oneTimeCodes.createdAt })
    .from(oneTimeCodes)
    .where(and(byTarget, eq(oneTimeCodes.purpose, where.purpose)))
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  const sinceLatest = latest ? now - latest.createdAt.getTime() : Number.POSITIVE_INFINITY;
  if (sinceLatest < CODE_COOLDOWN_MS) {
    const wait = retryAfterSeconds(CODE_COOLDOWN_MS - sinceLatest);
    throw tooManyRequests(wait, `验证码发送太频繁，请 ${wait} 秒后再试`);
  }
  const dayStart = new Date(now - DAY_MS);
  for (const [condition, cap, message] of [
    [byTarget, limits.perTarget, '这个号码今天获取验证码的次数已达上限，请明天再试'],
    [eq(oneTimeCodes.ip, ip), limits.perIp, '当前网络今天获取验证码的次数已达上限，请明天再试'],
  ] as const) {
    const where24h = and(condition, gt(oneTimeCodes.createdAt, dayStart));
    const [counted] = await db.select({ n: count() }).from(oneTimeCodes).where(where24h);
    if ((counted?.n ?? 0) < cap) continue;
    const [oldest] = await db
      .select({ createdAt: oneTimeCodes.createdAt })
      .from(oneTimeCodes)
      .where(where24h)
      .orderBy(asc(oneTimeCodes.createdAt))
      .limit(1);
    const wait = oldest ? oldest.createdAt.getTime() + DAY_MS - now : DAY_MS;
    throw tooManyRequests(retryAfterSeconds(wait), message);
  }
}

/**
 * Creates a code: six digits from the CSPRNG, stored only as a salted hash bound to its address
 * and purpose, valid five minutes. Earlier unused codes for the same address and purpose stop
 * working, so only the newest message counts. Returns the code for delivery.
 */
export async function createCode(db: Db, where: CodeTarget, ip: string, clock: Clock): Promise<string> {
  const now = clock();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await burnCodes(db, [where.target], [where.purpose], clock);
  await db.insert(oneTimeCodes).values({
    channel: where.channel,
    target: where.target,
    purpose: where.purpose,
    codeHash: hashCode(randomBytes(4).toString('hex'), where, code),
    expiresAt: new Date(now + CODE_TTL_MS),
    createdAt: new Date(now),
    ip,
  });
  return code;
}

/**
 * Checks a code for an address and purpose. A wrong guess counts against the code and the fifth
 * burns it; with `consume` a right one is used up (atomically, so two requests cannot both use it).
 * Any failure is a 400 with the same message.
 */
export async function verifyCode(
  db: Db,
  where: CodeTarget,
  code: string,
  options: { consume: boolean; clock: Clock },
): Promise<void> {
  const now = options.clock();
  const [row] = await db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.channel, where.channel),
        eq(oneTimeCodes.target, where.target),
        eq(oneTimeCodes.purpose, where.purpose),
        isNull(oneTimeCodes.consumedAt),
      ),
    )
    .orderBy(desc(oneTimeCodes.createdAt))
    .limit(1);
  // Valid up to and including the last millisecond of its five minutes.
  if (!row || row.expiresAt.getTime() < now || row.attempts >= CODE_MAX_ATTEMPTS) {
    throw badRequest(CODE_INVALID_MESSAGE);
  }
  if (!matches(row.codeHash, where, code)) {
    const attempts = row.attempts + 1;
    const burnt = attempts >= CODE_MAX_ATTEMPTS;
    await db
      .update(oneTimeCodes)
      .set({ attempts, ...(burnt ? { consumedAt: new Date(now) } : {}) })
      .where(eq(oneTimeCodes.id, row.id));
    throw new ApiError(400, '400', burnt ? '验证码错误次数过多，已失效，请重新获取' : '验证码不正确');
  }
  if (!options.consume) return;
  const used = await db
    .update(oneTimeCodes)
    .set({ consumedAt: new Date(now) })
    .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.consumedAt)))
    .returning({ id: oneTimeCodes.id });
  if (used.length === 0) throw badRequest(CODE_INVALID_MESSAGE);
}

/** Makes every unused code for these addresses and purposes unusable (e.g. reset codes after a password change). */
export async function burnCodes(db: Db, targets: string[], purposes: CodePurpose[], clock: Clock): Promise<void> {
  if (targets.length === 0 || purposes.length === 0) return;
  await db
    .update(oneTimeCodes)
    .set({ consumedAt: new Date(clock()) })
    .where(
      and(
        inArray(oneTimeCodes.target, targets),
        inArray(oneTimeCodes.purpose, purposes),
        isNull(oneTimeCodes.consumedAt),
      ),
    );
}
