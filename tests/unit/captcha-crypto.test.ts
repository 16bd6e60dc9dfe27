import { createCipheriv } from 'node:crypto';
import CryptoJS from 'crypto-js';
import { describe, expect, test } from 'vitest';
import {
  aesEcbDecrypt,
  aesEcbEncrypt,
  CaptchaCipherError,
  newSecretKey,
} from '../../src/server/auth/captcha-crypto.ts';
import { browserEncrypt } from '../helpers/captcha-solver.ts';

// AJ-Captcha's default key, used by its clients when the server sends none.
const AJ_DEFAULT_KEY = 'XwKsGlMcdPMEhR1B';

describe('aesEcbEncrypt', () => {
  test('matches the golden vector of crypto-js and of node aes-128-ecb', () => {
    const plain = '{"x":123.456,"y":5}';
    const node = createCipheriv('aes-128-ecb', Buffer.from(AJ_DEFAULT_KEY), null);
    const expected = Buffer.concat([node.update(plain, 'utf8'), node.final()]).toString('base64');
    expect(aesEcbEncrypt(plain, AJ_DEFAULT_KEY)).toBe(expected);
    expect(browserEncrypt(plain, AJ_DEFAULT_KEY)).toBe(expected);
    // The captcha's own value, fixed so that a change of library or mode shows up here.
    expect(expected).toBe(
      CryptoJS.AES.encrypt(CryptoJS.enc.Utf8.parse(plain), CryptoJS.enc.Utf8.parse(AJ_DEFAULT_KEY), {
        mode: CryptoJS.mode.ECB,
        padding: CryptoJS.pad.Pkcs7,
      }).toString(),
    );
  });

  test('round-trips Chinese text and pads a whole block when the text fills one', () => {
    const key = newSecretKey();
    expect(aesEcbDecrypt(aesEcbEncrypt('滑块验证', key), key)).toBe('滑块验证');
    expect(Buffer.from(aesEcbEncrypt('a'.repeat(16), key), 'base64')).toHaveLength(32);
  });
});

describe('aesEcbDecrypt', () => {
  test.each([
    ['empty', ''],
    ['not base64', '***'],
    ['not whole blocks', Buffer.from('abc').toString('base64')],
    ['bad padding', Buffer.alloc(32, 1).toString('base64')],
    ['too long', Buffer.alloc(2048).toString('base64')],
  ])('throws CaptchaCipherError for %s input', (_name, input) => {
    expect(() => aesEcbDecrypt(input, AJ_DEFAULT_KEY)).toThrow(CaptchaCipherError);
  });

  test('throws CaptchaCipherError under the wrong key', () => {
    const encrypted = aesEcbEncrypt('{"x":1,"y":5}', newSecretKey());
    let outcome: unknown;
    try {
      outcome = aesEcbDecrypt(encrypted, AJ_DEFAULT_KEY);
    } catch (error) {
      outcome = error;
    }
    // A wrong key almost always breaks the padding; when it does not, the text is garbage, not the point.
    if (typeof outcome === 'string') expect(outcome).not.toBe('{"x":1,"y":5}');
    else expect(outcome).toBeInstanceOf(CaptchaCipherError);
  });
});

describe('newSecretKey', () => {
  test('returns 16 letters and digits, different each time', () => {
    const keys = new Set(Array.from({ length: 50 }, newSecretKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});
