import { describe, expect, test } from 'vitest';
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
