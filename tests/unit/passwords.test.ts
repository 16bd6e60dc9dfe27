import { describe, expect, test, vi } from 'vitest';

// The real argon2, with its verify counted: an unknown account must cost one full check.
const argon2 = vi.hoisted(() => ({ verified: [] as string[] }));
vi.mock('@node-rs/argon2', async (original) => {
  const real = await original<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (stored: string, password: string) => {
      argon2.verified.push(stored);
      return real.verify(stored, password);
    },
  };
});

import {
  ARGON2_PARAMS,
  checkNewPassword,
  commonPasswords,
  hashPassword,
  needsRehash,
  PASSWORD_MESSAGES,
  verifyPassword,
} from '../../src/server/auth/passwords.ts';

describe('checkNewPassword', () => {
  test.each([
    ['', PASSWORD_MESSAGES.tooShort],
    ['7 chars', PASSWORD_MESSAGES.tooShort],
    ['八个汉字不够长', PASSWORD_MESSAGES.tooShort],
    ['a'.repeat(65), PASSWORD_MESSAGES.tooLong],
    ['12345678', PASSWORD_MESSAGES.common],
    ['PassWord1', PASSWORD_MESSAGES.common],
    ['woaini1314', PASSWORD_MESSAGES.common],
  ])('refuses %j', (password, message) => {
    expect(checkNewPassword(password)).toBe(message);
  });

  test.each([
    ['8 chars!'],
    ['八个汉字刚好够长了'],
    ['a'.repeat(64)],
    ['🖌️'.repeat(32)],
    ['no composition rules at all'],
  ])('accepts %j', (password) => {
    expect(checkNewPassword(password)).toBeNull();
  });

  test('ships a list of common passwords', () => {
    expect(commonPasswords().size).toBeGreaterThan(200);
    expect(commonPasswords().has('qwertyuiop')).toBe(true);
  });
});

describe('hashPassword and verifyPassword', () => {
  test('hash with argon2id and verify exactly as typed', async () => {
    const stored = await hashPassword('Ｆｕｌｌｗｉｄｔｈ 密码');
    expect(stored).toMatch(
      new RegExp(`^\\$argon2id\\$v=19\\$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=1\\$`),
    );
    expect(await verifyPassword(stored, 'Ｆｕｌｌｗｉｄｔｈ 密码')).toBe(true);
    expect(await verifyPassword(stored, 'Fullwidth 密码')).toBe(false);
    expect(await verifyPassword(stored, 'Ｆｕｌｌｗｉｄｔｈ 密码 ')).toBe(false);
  });

  test('answers false, not an error, for no hash or a broken one', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('$argon2id$broken', 'anything')).toBe(false);
  });
});

describe('needsRehash', () => {
  test.each([
    ['$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA', false],
    ['$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaA', false],
    ['$argon2id$v=19$m=47104,t=1,p=1$c2FsdHNhbHQ$aGFzaA', true],
    ['$argon2id$v=19$m=19456,t=1,p=1$c2FsdHNhbHQ$aGFzaA', true],
    ['$argon2id$v=19$m=12288,t=3,p=1$c2FsdHNhbHQ$aGFzaA', true],
    ['$argon2i$v=19$m=65536,t=3,p=1$c2FsdHNhbHQ$aGFzaA', true],
    ['$2b$10$abcdefghijklmnopqrstuu', true],
  ])('answers %s → %s', (stored, expected) => {
    expect(needsRehash(stored)).toBe(expected);
  });
});

describe('an unknown account', () => {
  test('costs one argon2 check made with the same parameters as a real account, so its time tells nothing', async () => {
    argon2.verified.length = 0;
    expect(await verifyPassword(undefined, 'a guess')).toBe(false);
    expect(await verifyPassword(null, 'another guess')).toBe(false);
    expect(argon2.verified).toHaveLength(2);
    for (const stored of argon2.verified) {
      expect(stored).toMatch(
        `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`,
      );
      expect(needsRehash(stored)).toBe(false);
    }
  });
});
