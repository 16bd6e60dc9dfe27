import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { aliyunSignature } from '../../src/server/auth/aliyun-sms.ts';
import { oneTimeCodes } from '../../src/server/db/schema/index.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';

const SECRET = 'aliyun-test-secret';
const REFUSED_PHONE = '13000000000';
let h: AccountHarness;
let smtp: SmtpSink;
let aliyun: http.Server;
const aliyunCalls: Record<string, string>[] = [];

/** A stand-in for dysmsapi.aliyuncs.com that checks the signature the way Aliyun does. */
async function startFakeAliyun(): Promise<string> {
  aliyun = http.createServer((req, res) => {
    const params = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams);
    aliyunCalls.push(params);
    const reply = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (params['Signature'] !== aliyunSignature(params, SECRET)) {
      reply({ Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' });
    } else if (params['PhoneNumbers'] === REFUSED_PHONE) {
      reply({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发小时级流控Permits:5' });
    } else {
      reply({
        Code: 'OK',
        Message: 'OK',
        BizId: '900619746936498440^0',
        RequestId: 'F655A8D5-B967-440B-8683-DAD6FF8DE990',
      });
    }
  });
  await new Promise<void>((resolve) => aliyun.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(aliyun.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  const endpoint = await startFakeAliyun();
  h = await openAccountHarness(
    {
      SMTP_URL: smtp.url,
      MAIL_FROM: '造字联盟 <no-reply@fonts.example.com>',
      ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI-test-key',
      ALIYUN_SMS_ACCESS_KEY_SECRET: SECRET,
      ALIYUN_SMS_SIGN_NAME: '造字联盟',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_123456789',
      ALIYUN_SMS_ENDPOINT: endpoint,
    },
    { configuredSenders: true },
  );
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await new Promise((resolve) => aliyun.close(resolve));
});

async function sendCode(account: string, purpose: string) {
  const captchaVerification = await h.captcha();
  return h.call('POST', '/web/api/account/sendCode', { account, purpose, captchaVerification });
}

describe('e-mail through SMTP', () => {
  test('delivers the code to a real SMTP server, and the code read from the mail registers the account', async () => {
    const res = await sendCode('Reader@Example.com', 'register');
    expect(res.status).toBe(200);
    const mail = smtp.messages.at(-1);
    expect(mail?.to).toEqual(['reader@example.com']);
    expect(mail?.from).toBe('no-reply@fonts.example.com');
    expect(mail?.subject).toMatch(/^造字联盟官网注册验证码：\d{6}$/);
    const code = /验证码是 (\d{6})/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.text).toContain('5 分钟内有效');
    const registered = await h.call('POST', '/web/api/account/register/email', {
      email: 'reader@example.com',
      code,
      password: 'letters by post',
    });
    expect(registered.status).toBe(200);
  });
});

describe('SMS through Aliyun', () => {
  test('sends a signed SendSms request with the code in the template parameters', async () => {
    const res = await sendCode('13912345678', 'register');
    expect(res.status).toBe(200);
    const call = aliyunCalls.at(-1) ?? {};
    expect(call).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      AccessKeyId: 'LTAI-test-key',
      PhoneNumbers: '13912345678',
      SignName: '造字联盟',
      TemplateCode: 'SMS_123456789',
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      Format: 'JSON',
    });
    expect(call['Timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const code = (JSON.parse(call['TemplateParam'] ?? '{}') as { code: string }).code;
    expect(code).toMatch(/^\d{6}$/);
    const registered = await h.call('POST', '/web/api/account/register/phone', {
      mobile: '13912345678',
      code,
      password: 'letters by phone',
    });
    expect(registered.status).toBe(200);
  });

  test('answers 502 with a Chinese message when Aliyun refuses, and the code cannot be used', async () => {
    const res = await sendCode(REFUSED_PHONE, 'register');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('短信发送失败，请稍后再试');
    const code = (JSON.parse(aliyunCalls.at(-1)?.['TemplateParam'] ?? '{}') as { code: string }).code;
    const [row] = await h.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.target, REFUSED_PHONE));
    expect(row?.consumedAt).not.toBeNull();
    const registered = await h.call('POST', '/web/api/account/register/phone', {
      mobile: REFUSED_PHONE,
      code,
      password: 'letters by phone',
    });
    expect(registered.status).toBe(400);
  });
});
