import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readOutbox } from '../../src/server/auth/outbox.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';

let h: AccountHarness;

beforeAll(async () => {
  h = await openAccountHarness({ SMTP_URL: '', ALIYUN_SMS_ACCESS_KEY_ID: '' }, { configuredSenders: true });
});
afterAll(async () => {
  await h.close();
});

describe('the local outbox', () => {
  test('keeps e-mail and SMS as JSON files when no delivery service is configured, enough to register', async () => {
    for (const [account, purpose] of [
      ['outbox@example.com', 'register'],
      ['13712345678', 'register'],
    ]) {
      const captchaVerification = await h.captcha();
      const res = await h.call('POST', '/web/api/account/sendCode', { account, purpose, captchaVerification });
      expect(res.status).toBe(200);
    }
    const entries = await readOutbox(path.join(h.dataDir, 'outbox'));
    expect(entries.map((entry) => [entry.channel, entry.recipient, entry.purpose])).toEqual([
      ['email', 'outbox@example.com', 'register'],
      ['sms', '13712345678', 'register'],
    ]);
    for (const entry of entries) {
      expect(entry.code).toMatch(/^\d{6}$/);
      expect(entry.text).toContain(entry.code);
      expect(Date.parse(entry.createdAt)).not.toBeNaN();
    }
    const code = entries[0]?.code ?? '';
    const res = await h.call('POST', '/web/api/account/register/email', {
      email: 'outbox@example.com',
      code,
      password: 'no mail server here',
    });
    expect(res.status).toBe(200);
  });
});
