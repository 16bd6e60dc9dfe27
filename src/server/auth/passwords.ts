import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { readDataFile } from '../paths.ts';

/**
 * argon2id parameters: 19 MiB, two passes, one lane, OWASP's second recommended setting, of the same
 * strength as its first (46 MiB, one pass) and ASVS 5.0's floor. Measured here it costs half the time
 * (8 against 14 ms: fresh memory is most of the cost) and less than half the memory per login, which
 * keeps logins quick under load (docs/architecture.md, "Reads from memory"). Hashes made with less are upgraded at the
 * next login.
 */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Algorithm.Argon2id of @node-rs/argon2, a const enum that erasable TypeScript cannot import.
const ARGON2ID = 2 as Algorithm;

/** Fewest characters a password may have (ASVS 6.2.1). */
export const PASSWORD_MIN = 8;
/** Most characters a password may have (ASVS 6.2.9 asks for at least 64 to be allowed). */
export const PASSWORD_MAX = 64;

/** The user-facing reasons a new password is refused. */
export const PASSWORD_MESSAGES = {
  tooShort: `密码至少 ${PASSWORD_MIN} 个字符`,
  tooLong: `密码最多 ${PASSWORD_MAX} 个字符`,
  common: '这个密码太常见，容易被猜中，请换一个',
} as const;

let common: Set<string> | undefined;

/** The shipped list of common passwords, lower-cased. */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    readDataFile('auth', 'common-passwords.txt')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line && !line.startsWith('#')),
  );
  return common;
}

/** Length in characters as a person counts them (code points, so one emoji or 汉字 is one). */
export function passwordLength(password: string): number {
  return [...password].length;
}

/**
 * Checks a new password against the policy: 8 to 64 characters, not on the common list. No
 * composition rules (ASVS 6.2.5). Returns the Chinese reason, or null when the password is fine.
 */
export function checkNewPassword(password: string): string | null {
  const length = passwordLength(password);
  if (length < PASSWORD_MIN) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX) return PASSWORD_MESSAGES.tooLong;
  if (commonPasswords().has(password.toLowerCase())) return PASSWORD_MESSAGES.common;
  return null;
}

/** Hashes a password with argon2id; the result is a PHC string that carries its own parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...ARGON2_PARAMS });
}

/** True when a stored hash is not argon2id or was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!match) return true;
  const [memory, time, lanes] = match.slice(1).map(Number) as [number, number, number];
  return memory < ARGON2_PARAMS.memoryCost || time < ARGON2_PARAMS.timeCost || lanes < ARGON2_PARAMS.parallelism;
}

let dummy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash, exactly as typed (no trimming, no case folding). With
 * no hash (unknown account, or one without a password) a dummy hash is checked instead, so the
 * answer takes as long as a real check and timing does not reveal which accounts exist.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword('dummy password that never matches');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash is a broken account, not a server error for the user.
    return false;
  }
}
