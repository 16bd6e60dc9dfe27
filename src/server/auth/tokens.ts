import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session token: 32 random bytes (256 bits) in base64url, 43 characters. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True when a string has the shape of a token; anything else is refused before the database is asked. */
export function isTokenShaped(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The SHA-256 hex of a secret: what the database keeps instead of the secret itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
