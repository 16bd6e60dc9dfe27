import { describe, expect, test } from 'vitest';
import { EnvError, parseEnv } from '../../src/server/env.ts';

describe('parseEnv (accounts)', () => {
  test('needs no account settings: sessions last a week, delivery goes to the outbox, WeChat is off', () => {
    const config = parseEnv({});
    expect(config.SESSION_TTL_SECONDS).toBe(604_800);
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.ALIYUN_SMS_ACCESS_KEY_ID).toBeUndefined();
    expect(config.WECHAT_APP_ID).toBeUndefined();
    expect(config.TRUST_PROXY).toBe(false);
  });

  test.each([
    [{ ALIYUN_SMS_ACCESS_KEY_ID: 'id' }, 'ALIYUN_SMS_ACCESS_KEY_SECRET'],
    [{ WECHAT_APP_ID: 'wx1' }, 'WECHAT_APP_SECRET'],
    [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
    [{ SESSION_TTL_SECONDS: '10' }, 'SESSION_TTL_SECONDS'],
  ])('refuses %j and names %s', (values, name) => {
    expect(() => parseEnv(values)).toThrow(EnvError);
    expect(() => parseEnv(values)).toThrow(new RegExp(`\\n  ${name}: `));
  });

  test('accepts a complete Aliyun and WeChat configuration', () => {
    const config = parseEnv({
      ALIYUN_SMS_ACCESS_KEY_ID: 'id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: '造字联盟',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
      WECHAT_APP_ID: 'wx1',
      WECHAT_APP_SECRET: 'secret',
      TRUST_PROXY: 'true',
    });
    expect(config.ALIYUN_SMS_ENDPOINT).toBe('https://dysmsapi.aliyuncs.com');
    expect(config.WECHAT_OPEN_URL).toBe('https://open.weixin.qq.com');
    expect(config.TRUST_PROXY).toBe(true);
  });
});
