import { createCipheriv, createDecipheriv, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A per-captcha key: 16 letters and digits, as AJ-Captcha sends it (the UTF-8 bytes are the AES-128 key). */
export function newSecretKey(): string {
  let key = '';
  for (let i = 0; i < 16; i += 1) key += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return key;
}

/**
 * AES-128-ECB with PKCS#7 padding, base64 out: the captcha's wire format, byte for byte what
 * crypto-js produces in the browser. ECB is not a choice of ours; the protocol fixes it, and it
 * only obscures a point whose key travels with it.
 */
export function aesEcbEncrypt(plain: string, key: string): string {
  const cipher = createCipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

/** Thrown for ciphertext that is not base64 of whole AES blocks, or does not decrypt. */
export class CaptchaCipherError extends Error {
  override name = 'CaptchaCipherError';
}

/** Decrypts {@link aesEcbEncrypt}'s output; malformed input throws CaptchaCipherError, never anything else. */
export function aesEcbDecrypt(encoded: string, key: string, maxBytes = 1024): string {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    throw new CaptchaCipherError('not base64');
  }
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0 || bytes.length % 16 !== 0 || bytes.length > maxBytes) {
    throw new CaptchaCipherError('not a whole number of AES blocks');
  }
  try {
    const decipher = createDecipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
    const plain = Buffer.concat([decipher.update(bytes), decipher.final()]);
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new CaptchaCipherError('does not decrypt');
  }
}
