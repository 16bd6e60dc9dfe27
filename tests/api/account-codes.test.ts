import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accounts, oneTimeCodes } from '../../src/server/db/schema/index.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';

const PASSWORD = 'bamboo in the wind';
let h: AccountHarness;

beforeAll(async () => {
  h = await openAccountHarness({
    CODE_DAILY_LIMIT_PER_TARGET: '3',
    CODE_DAILY_LIMIT_PER_IP: '5',
    EDITOR_ACCOUNTS: 'chief.editor@example.com, 13900000000',
  });
});
afterAll(async () => {
  await h.close();
});

async function sendCode(account: string, purpose: string, ip = '10.0.0.1', captcha = true) {
  const captchaVerification = captcha ? await h.captcha() : undefined;
  return h.call('POST', '/web/api/account/sendCode', { account, purpose, captchaVerification }, { ip });
}

let serial = 0;
/** A mobile number no other test uses. */
function freshMobile(): string {
  serial += 1;
  return `1370000${String(serial).padStart(4, '0')}`;
}

describe('POST /web/api/account/sendCode', () => {
  test('sends a six-digit code after a passed captcha and keeps only a salted hash of it', async () => {
    const mobile = freshMobile();
    const res = await sendCode(mobile, 'register', '10.5.0.1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '200', data: { cooldown: 60 } });
    const code = h.sms.lastCode(mobile);
    expect(code).toMatch(/^\d{6}$/);
    expect(h.sms.sent.at(-1)?.text).toContain(code);
    const [row] = await h.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.target, mobile));
    expect(row?.codeHash).toMatch(/^[0-9a-f]{8}\$[0-9a-f]{64}$/);
    expect(row?.codeHash).not.toContain(code);
    expect(row?.expiresAt.getTime()).toBe(h.clock() + 5 * 60_000);
  });

  test('refuses without a passed captcha: nothing is sent and nothing is written', async () => {
    const mobile = freshMobile();
    const before = h.sms.sent.length;
    const res = await sendCode(mobile, 'register', '10.5.0.2', false);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('6110');
    const forged = await h.call('POST', '/web/api/account/sendCode', {
      account: mobile,
      purpose: 'register',
      captchaVerification: 'bm90IGEgdmVyaWZpY2F0aW9u',
    });
    expect(forged.status).toBe(400);
    expect(h.sms.sent.length).toBe(before);
    expect(await h.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.target, mobile))).toEqual([]);
  });

  test('answers a reset for an unknown address exactly like one for a known address', async () => {
    const known = 'known@example.com';
    await h.register(known, PASSWORD);
    const a = await sendCode(known, 'reset', '10.5.0.3');
    const b = await sendCode('nobody@example.com', 'reset', '10.5.0.4');
    expect([a.status, a.body]).toEqual([b.status, b.body]);
    h.clock.advance(61_000);
  });

  test('answers 429 inside the 60 s cooldown without calling the provider, and sends again after it', async () => {
    const mobile = freshMobile();
    expect((await sendCode(mobile, 'login', '10.5.1.1')).status).toBe(200);
    const calls = h.sms.sent.length;
    h.clock.advance(30_000);
    const early = await sendCode(mobile, 'login', '10.5.1.2');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('30');
    expect(early.body.message).toBe('验证码发送太频繁，请 30 秒后再试');
    expect(h.sms.sent.length).toBe(calls);
    // A code for another purpose is not a resend.
    expect((await sendCode(mobile, 'reset', '10.5.1.4')).status).toBe(200);
    h.clock.advance(30_000);
    expect((await sendCode(mobile, 'login', '10.5.1.3')).status).toBe(200);
    expect(h.sms.sent.length).toBe(calls + 2);
  });

  test('answers 429 past the daily cap for a number, without calling the provider, until a day has passed', async () => {
    const mobile = freshMobile();
    for (let i = 0; i < 3; i += 1) {
      expect((await sendCode(mobile, 'login', `10.5.2.${i}`)).status).toBe(200);
      h.clock.advance(61_000);
    }
    const calls = h.sms.sent.length;
    const capped = await sendCode(mobile, 'login', '10.5.2.9');
    expect(capped.status).toBe(429);
    expect(capped.body.message).toMatch(/今天获取验证码的次数已达上限/);
    const wait = Number(capped.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(23 * 3600);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(h.sms.sent.length).toBe(calls);
    h.clock.advance(wait * 1000);
    expect((await sendCode(mobile, 'login', '10.5.2.9')).status).toBe(200);
  });

  test('answers 429 past the daily cap for an IP address', async () => {
    const ip = '10.5.3.1';
    for (let i = 0; i < 5; i += 1) expect((await sendCode(freshMobile(), 'register', ip)).status).toBe(200);
    const calls = h.sms.sent.length;
    const capped = await sendCode(freshMobile(), 'register', ip);
    expect(capped.status).toBe(429);
    expect(capped.body.message).toMatch(/当前网络今天获取验证码的次数已达上限/);
    expect(h.sms.sent.length).toBe(calls);
  });

  test('refuses a login code for an e-mail address and a purpose it does not know', async () => {
    expect((await sendCode('a@example.com', 'login')).body.message).toBe('验证码登录只支持手机号');
    const res = await h.call('POST', '/web/api/account/sendCode', { account: freshMobile(), purpose: 'spam' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('用途（purpose）');
  });
});

describe('one-time codes', () => {
  test('a code is valid at the end of its five minutes and refused a second later', async () => {
    const email = 'clock@example.com';
    await h.register(email, PASSWORD);
    const code = await h.code(email, 'reset');
    h.clock.advance(5 * 60_000 - 61_000);
    expect((await h.call('POST', '/web/api/account/rest-code-verify', { account: email, code })).status).toBe(200);
    h.clock.advance(1000);
    const late = await h.call('POST', '/web/api/account/rest-code-verify', { account: email, code });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe('验证码错误或已过期，请重新获取');
  });

  test('a code works once', async () => {
    const mobile = freshMobile();
    await h.register(mobile, PASSWORD);
    const code = await h.code(mobile, 'login');
    const first = await h.call('POST', '/web/api/sms-login', { mobile, code });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ expired: 604_800 });
    expect(first.headers.get('set-cookie')).toContain('token=');
    expect((await h.call('POST', '/web/api/sms-login', { mobile, code })).status).toBe(400);
  });

  test('a code is bound to its number and its purpose', async () => {
    const mobile = freshMobile();
    const other = freshMobile();
    await h.register(mobile, PASSWORD);
    await h.register(other, PASSWORD);
    const code = await h.code(mobile, 'reset');
    expect((await h.call('POST', '/web/api/sms-login', { mobile, code })).status).toBe(400);
    expect((await h.call('POST', '/web/api/sms-login', { mobile: other, code })).status).toBe(400);
    expect((await h.call('POST', '/web/api/account/rest-code-verify', { account: mobile, code })).status).toBe(200);
  });

  test('five wrong guesses burn the code', async () => {
    const mobile = freshMobile();
    await h.register(mobile, PASSWORD);
    const code = await h.code(mobile, 'login');
    const wrong = code === '000000' ? '111111' : '000000';
    const messages: string[] = [];
    for (let i = 0; i < 5; i += 1)
      messages.push((await h.call('POST', '/web/api/sms-login', { mobile, code: wrong })).body.message);
    expect(messages.slice(0, 4)).toEqual(Array(4).fill('验证码不正确'));
    expect(messages[4]).toBe('验证码错误次数过多，已失效，请重新获取');
    expect((await h.call('POST', '/web/api/sms-login', { mobile, code })).status).toBe(400);
  });

  test('only the newest code for an address and purpose works', async () => {
    const mobile = freshMobile();
    await h.register(mobile, PASSWORD);
    const older = await h.code(mobile, 'login');
    const newer = await h.code(mobile, 'login');
    if (older !== newer) expect((await h.call('POST', '/web/api/sms-login', { mobile, code: older })).status).toBe(400);
    expect((await h.call('POST', '/web/api/sms-login', { mobile, code: newer })).status).toBe(200);
  });

  test('SMS login for a number without an account says so to the owner of the phone', async () => {
    const mobile = freshMobile();
    const code = await h.code(mobile, 'login');
    const res = await h.call('POST', '/web/api/sms-login', { mobile, code });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('这个手机号还没有注册，请先注册');
  });
});

describe('registration', () => {
  test('registers by e-mail, signs in, and keeps the address in lower case', async () => {
    const code = await h.code('New.User@Example.com', 'register');
    const res = await h.call('POST', '/web/api/account/register/email', {
      email: 'New.User@Example.com',
      code,
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const token = (res.body.data as { token: string }).token;
    const info = await h.call('GET', '/web/api/account/user-info', undefined, { token });
    expect(info.body.data).toMatchObject({
      email: 'new.user@example.com',
      hasPassword: true,
      mobile: null,
      role: 'user',
    });
  });

  test('an address named in EDITOR_ACCOUNTS registers as an editor', async () => {
    const code = await h.code('Chief.Editor@example.com', 'register');
    const res = await h.call('POST', '/web/api/account/register/email', {
      email: 'Chief.Editor@example.com',
      code,
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const [row] = await h.db.select().from(accounts).where(eq(accounts.email, 'chief.editor@example.com'));
    expect(row?.role).toBe('editor');
  });

  test.each([
    ['short1', '密码（password）：密码至少 8 个字符'],
    ['password123', '密码（password）：这个密码太常见，容易被猜中，请换一个'],
    ['Qwertyuiop', '密码（password）：这个密码太常见，容易被猜中，请换一个'],
    ['长'.repeat(65), '密码（password）：密码最多 64 个字符'],
  ])('refuses the password %j with a field message and writes nothing', async (password, message) => {
    const mobile = freshMobile();
    const code = await h.code(mobile, 'register');
    const res = await h.call('POST', '/web/api/account/register/phone', { mobile, code, password });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await h.db.select().from(accounts).where(eq(accounts.mobile, mobile))).toEqual([]);
    // The code was not used up by the refused attempt.
    const ok = await h.call('POST', '/web/api/account/register/phone', { mobile, code, password: PASSWORD });
    expect(ok.status).toBe(200);
  });

  test('accepts a 64-character Unicode password and verifies it exactly as typed', async () => {
    const email = 'unicode@example.com';
    const password = `${'墨'.repeat(30)}🖌️${'a'.repeat(32)}`;
    expect([...password]).toHaveLength(64);
    await h.register(email, password);
    expect((await h.login(email, password)).status).toBe(200);
    expect((await h.login(email, password.normalize('NFD').slice(0, -1))).status).toBe(401);
  });

  test('refuses an address that already has an account, to the owner of the code only', async () => {
    const mobile = freshMobile();
    await h.register(mobile, PASSWORD);
    const code = await h.code(mobile, 'register');
    const res = await h.call('POST', '/web/api/account/register/phone', { mobile, code, password: 'other password 1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('这个手机号已经注册，请直接登录');
  });

  test.each([
    [{ mobile: '23800138000', code: '123456', password: PASSWORD }, '手机号（mobile）：手机号格式不正确'],
    [{ mobile: '13800138000', code: '12345', password: PASSWORD }, '验证码（code）：验证码是 6 位数字'],
    [{ mobile: '13800138000', password: PASSWORD }, '验证码（code）'],
  ])('answers 400 for %j', async (body, message) => {
    const res = await h.call('POST', '/web/api/account/register/phone', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  test('refuses a malformed e-mail address', async () => {
    const res = await h.call('POST', '/web/api/account/register/email', {
      email: 'user@site',
      code: '123456',
      password: PASSWORD,
    });
    expect(res.body.message).toBe('邮箱（email）：邮箱格式不正确');
  });
});

describe('password reset', () => {
  test('changes nothing until the code is used; then works once, ends every session and does not sign in', async () => {
    const email = 'reset@example.com';
    const token = await h.register(email, PASSWORD);
    const [before] = await h.db.select().from(accounts).where(eq(accounts.email, email));
    const code = await h.code(email, 'reset');
    const [after] = await h.db.select().from(accounts).where(eq(accounts.email, email));
    expect(after).toEqual(before);
    const res = await h.call('PUT', '/web/api/account/rest-pwd', {
      account: email,
      code,
      password: 'new secret words',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    expect((await h.call('GET', '/web/api/account/user-info', undefined, { token })).status).toBe(401);
    expect((await h.login(email, PASSWORD)).status).toBe(401);
    expect((await h.login(email, 'new secret words')).status).toBe(200);
    const again = await h.call('PUT', '/web/api/account/rest-pwd', {
      account: email,
      code,
      password: 'third secret words',
    });
    expect(again.status).toBe(400);
  });

  test('a reset code stops working after the password is changed another way', async () => {
    const email = 'reset2@example.com';
    const token = await h.register(email, PASSWORD);
    const code = await h.code(email, 'reset');
    const changed = await h.call(
      'PUT',
      '/web/api/account/update-account-pwd',
      { oldPassword: PASSWORD, password: 'changed password' },
      { token },
    );
    expect(changed.status).toBe(200);
    const res = await h.call('PUT', '/web/api/account/rest-pwd', {
      account: email,
      code,
      password: 'attacker password',
    });
    expect(res.status).toBe(400);
    expect((await h.login(email, 'changed password')).status).toBe(200);
  });

  test('a reset code stops working after the e-mail address changes', async () => {
    const email = 'reset3@example.com';
    const token = await h.register(email, PASSWORD);
    const resetCode = await h.code(email, 'reset');
    const bindCode = await h.code('moved@example.com', 'bind');
    const bound = await h.call(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'email', account: 'moved@example.com', code: bindCode, password: PASSWORD },
      { token },
    );
    expect(bound.status).toBe(200);
    const res = await h.call('PUT', '/web/api/account/rest-pwd', {
      account: email,
      code: resetCode,
      password: 'x new password',
    });
    expect(res.status).toBe(400);
  });

  test('rest-code-verify checks a code without using it up', async () => {
    const mobile = freshMobile();
    await h.register(mobile, PASSWORD);
    const code = await h.code(mobile, 'reset');
    expect((await h.call('POST', '/web/api/account/rest-code-verify', { account: mobile, code })).status).toBe(200);
    expect((await h.call('POST', '/web/api/account/rest-code-verify', { account: mobile, code })).status).toBe(200);
    const res = await h.call('PUT', '/web/api/account/rest-pwd', {
      account: mobile,
      code,
      password: 'fresh new password',
    });
    expect(res.status).toBe(200);
  });
});
