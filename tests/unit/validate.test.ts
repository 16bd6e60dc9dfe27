import { describe, expect, it, test } from 'vitest';
import {
  ACCOUNT_MESSAGE,
  EMAIL_MESSAGE,
  isEmail,
  isExternalLink,
  isMobile,
  MOBILE_MESSAGE,
  validateAccount,
  validateEmail,
  validateMobile,
} from '../../src/lib/validate.ts';

describe('validateMobile', () => {
  it.each([
    ['', null],
    [null, null],
    [undefined, null],
    ['13812345678', null],
    ['19912345678', null],
    ['15000000000', null],
    ['12812345678', MOBILE_MESSAGE], // second digit 2
    ['10812345678', MOBILE_MESSAGE], // second digit 0
    ['23812345678', MOBILE_MESSAGE], // first digit not 1
    ['1381234567', MOBILE_MESSAGE], // 10 digits
    ['138123456789', MOBILE_MESSAGE], // 12 digits
    ['1381234567a', MOBILE_MESSAGE],
    [' 13812345678', MOBILE_MESSAGE],
    ['13812345678 ', MOBILE_MESSAGE],
    ['+8613812345678', MOBILE_MESSAGE],
    ['138-1234-5678', MOBILE_MESSAGE],
    ['１３８１２３４５６７８', MOBILE_MESSAGE], // full-width digits
  ])('returns %j → %j', (value, expected) => {
    expect(validateMobile(value)).toBe(expected);
    expect(isMobile(value)).toBe(expected === null);
  });
});

describe('validateEmail', () => {
  it.each([
    ['', null],
    [undefined, null],
    ['user@qq.com', null],
    ['li.ming@163.com', null],
    ['a_b-c+tag@example.com.cn', null],
    ['X@Example.CO', null],
    ['user@example.info', EMAIL_MESSAGE], // suffix of 4 characters
    ['name@mail.example.cn', EMAIL_MESSAGE], // SPEC: only suffixes of 2–3 characters follow the domain name
    ['user@example.c', EMAIL_MESSAGE], // suffix of 1 character
    ['user@a.b.c.com', EMAIL_MESSAGE], // three suffixes
    ['user@example', EMAIL_MESSAGE], // no suffix
    ['user@@example.com', EMAIL_MESSAGE],
    ['@example.com', EMAIL_MESSAGE],
    ['user@.com', EMAIL_MESSAGE],
    ['user@-example.com', EMAIL_MESSAGE],
    ['user.@example.com', EMAIL_MESSAGE],
    ['us er@example.com', EMAIL_MESSAGE],
    ['user@example.com ', EMAIL_MESSAGE],
    ['用户@example.com', EMAIL_MESSAGE],
    ['user@example.12', EMAIL_MESSAGE], // numeric suffix
  ])('returns %j → %j', (value, expected) => {
    expect(validateEmail(value)).toBe(expected);
    expect(isEmail(value)).toBe(expected === null);
  });
});

describe('validateAccount', () => {
  it.each([
    ['13812345678', null],
    ['user@qq.com', null],
    ['', null],
    ['12812345678', ACCOUNT_MESSAGE],
    ['user@example', ACCOUNT_MESSAGE],
    ['zhangsan', ACCOUNT_MESSAGE],
    ['138 1234 5678', ACCOUNT_MESSAGE],
  ])('returns %j → %j', (value, expected) => {
    expect(validateAccount(value)).toBe(expected);
  });

  test('uses its own message, not the mobile or e-mail one', () => {
    expect(ACCOUNT_MESSAGE).not.toBe(MOBILE_MESSAGE);
    expect(ACCOUNT_MESSAGE).not.toBe(EMAIL_MESSAGE);
    expect(ACCOUNT_MESSAGE).toMatch(/手机号|邮箱/);
  });
});

describe('isExternalLink', () => {
  it.each([
    ['http://example.com', true],
    ['https://example.com/a?b=c', true],
    ['mailto:hi@example.com', true],
    ['tel:+8610123456', true],
    ['/font', false],
    ['font/1', false],
    ['//evil.com', false],
    ['javascript:alert(1)', false],
    ['ftp://example.com', false],
    ['HTTP://EXAMPLE.COM', false], // the SPEC rule is case-sensitive
    ['', false],
  ])('returns %j → %j', (value, expected) => {
    expect(isExternalLink(value)).toBe(expected);
  });
});
