import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import { sha256Hex } from '../../src/server/auth/tokens.ts';
import { accounts, sessions } from '../../src/server/db/schema/index.ts';
import { resetEnv } from '../../src/server/env.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';
import { queryRows } from '../helpers/database.ts';

const MOBILE = '13800138000';
const PASSWORD = 'plum blossom 2026';
let h: AccountHarness;

beforeAll(async () => {
  h = await openAccountHarness();
  await h.register(MOBILE, PASSWORD);
  await h.register('Li.Hua@Example.com', PASSWORD);
});
afterAll(async () => {
  await h.close();
});

describe('POST /web/api/login', () => {
  test('signs in with mobile and password and sets the token cookie with the session lifetime', async () => {
    const res = await h.login(MOBILE, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '200', data: { expired: 604_800 } });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`token=${res.body.data.token}`);
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Max-Age=604800');
    // Readable by scripts on purpose (the front end copies it into the header; docs/accounts.md explains).
    expect(cookie).not.toContain('HttpOnly');
    expect(cookie).not.toContain('Secure');
    // The answer holds the token: no cache may keep it.
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('marks the cookie Secure when the site runs on https', async () => {
    const saved = process.env['SITE_URL'];
    process.env['SITE_URL'] = 'https://fonts.example.com';
    resetEnv();
    try {
      const res = await h.login(MOBILE, PASSWORD);
      expect(res.headers.get('set-cookie')).toContain('Secure');
    } finally {
      process.env['SITE_URL'] = saved;
      if (saved === undefined) delete process.env['SITE_URL'];
      resetEnv();
    }
  });

  test('signs in with an e-mail address in any letter case', async () => {
    const res = await h.login('LI.HUA@example.COM', PASSWORD);
    expect(res.status).toBe(200);
  });

  test('verifies the password exactly as typed', async () => {
    const res = await h.login(MOBILE, `${PASSWORD} `);
    expect(res.status).toBe(401);
    const upper = await h.login(MOBILE, PASSWORD.toUpperCase());
    expect(upper.status).toBe(401);
  });

  test('refuses a login without a passed captcha, or with one used already', async () => {
    const none = await h.call('POST', '/web/api/login', { account: MOBILE, password: PASSWORD });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('6110');
    const captchaVerification = await h.captcha();
    const first = await h.call('POST', '/web/api/login', { account: MOBILE, password: PASSWORD, captchaVerification });
    expect(first.status).toBe(200);
    const again = await h.call('POST', '/web/api/login', { account: MOBILE, password: PASSWORD, captchaVerification });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('6110');
  });

  test.each([
    [{ account: '12345', password: 'x' }, '账号（account）：账号格式不正确，请输入手机号或邮箱'],
    [{ account: MOBILE }, '密码（password）'],
    [{ account: MOBILE, password: '' }, '密码（password）：请输入密码'],
  ])('answers 400 with a Chinese field message for %j', async (body, message) => {
    const res = await h.call('POST', '/web/api/login', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  test('answers 413 for an oversized body, with or without a length, before reading it', async () => {
    const big = JSON.stringify({ account: MOBILE, password: 'x'.repeat(20_000) });
    const sized = await h.call('POST', '/web/api/login', JSON.parse(big));
    expect(sized.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await h.app.request(
      '/web/api/account/sendCode',
      { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit,
      { clientAddress: '10.4.0.1' },
    );
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { message: string }).message).toBe('请求内容过大，这个接口最多接受 16 KB');
  });

  test('answers an unknown account and a wrong password alike', async () => {
    // That both cost the same is checked where the time is spent: tests/unit/passwords.test.ts.
    const answers = new Set<string>();
    for (const [i, account] of ['13900000000', MOBILE].entries()) {
      await h.ctx.limits.loginAccount.reset(`sms:${account}`);
      const captchaVerification = await h.captcha({ account });
      const res = await h.call(
        'POST',
        '/web/api/login',
        { account, password: 'not the password', captchaVerification },
        { ip: `10.1.0.${i + 1}` },
      );
      answers.add(JSON.stringify([res.status, res.body]));
    }
    expect([...answers]).toEqual([JSON.stringify([401, { code: '401', message: '账号或密码错误', data: null }])]);
  });

  test('refuses an address after five failures for one account, until the window ends', async () => {
    const account = 'limit@example.com';
    await h.register(account, PASSWORD);
    const attacker = '10.2.0.1';
    for (let i = 0; i < 5; i += 1)
      expect((await h.login(account, 'wrong password', { ip: attacker })).status).toBe(401);
    const blocked = await h.login(account, PASSWORD, { ip: attacker });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBe(900);
    expect(blocked.body.message).toMatch(/登录失败次数过多.*验证码登录/);
    h.clock.advance(15 * 60_000);
    expect((await h.login(account, PASSWORD, { ip: attacker })).status).toBe(200);
  });

  test('of twelve wrong passwords sent at once from one address, exactly five are checked', async () => {
    const account = 'parallel@example.com';
    await h.register(account, PASSWORD);
    // Three earlier failures make every login of this account take two puzzles, so the verifications
    // solved below stay enough whatever order the twelve attempts are counted in.
    for (let i = 0; i < 3; i += 1) {
      expect((await h.login(account, 'wrong password', { ip: `10.5.0.${i}` })).status).toBe(401);
    }
    const ip = '10.5.1.1';
    const verifications = [];
    for (let i = 0; i < 12; i += 1) verifications.push(await h.captcha({ account }));
    const answers = await Promise.all(
      verifications.map((captchaVerification) =>
        h.call('POST', '/web/api/login', { account, password: 'wrong password', captchaVerification }, { ip }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    h.clock.advance(15 * 60_000);
  });

  test('failures from many addresses slow an account down but never lock its owner out', async () => {
    const account = 'stuffed@example.com';
    await h.register(account, PASSWORD);
    h.pauses.length = 0;
    for (let i = 0; i < 8; i += 1) {
      expect((await h.login(account, 'wrong password', { ip: `10.4.0.${i}` })).status).toBe(401);
    }
    // From the sixth attempt on, each waits longer: 0.5 s, 1 s, 2 s (then 4 s, capped at 8 s).
    expect(h.pauses).toEqual([500, 1000, 2000]);
    const owner = await h.login(account, PASSWORD, { ip: '10.4.1.1' });
    expect(owner.status).toBe(200);
    expect(h.pauses.at(-1)).toBe(4000);
    // A success ends the slowdown; the code login was never limited by any of this.
    h.pauses.length = 0;
    expect((await h.login(account, PASSWORD, { ip: '10.4.1.1' })).status).toBe(200);
    expect(h.pauses).toEqual([]);
  });

  test('answers 429 after twenty failures from one IP, whatever the account', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < 20; i += 1) {
      expect((await h.login(`1390000${String(i).padStart(4, '0')}`, 'wrong password', { ip })).status).toBe(401);
    }
    const blocked = await h.login(MOBILE, PASSWORD, { ip });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    expect((await h.login(MOBILE, PASSWORD, { ip: '10.3.0.2' })).status).toBe(200);
    h.clock.advance(15 * 60_000);
  });

  test('issues a fresh 256-bit token at every login and stores only its hash', async () => {
    const first = (await h.login(MOBILE, PASSWORD)).body.data.token;
    const second = (await h.login(MOBILE, PASSWORD)).body.data.token;
    expect(first).not.toBe(second);
    expect(Buffer.from(first, 'base64url')).toHaveLength(32);
    const rows = await h.db.select().from(sessions);
    const ids = rows.map((row) => row.id);
    expect(ids).toContain(sha256Hex(first));
    expect(ids).toContain(sha256Hex(second));
    const dump = JSON.stringify(await queryRows(h.db, sql`select * from sessions`));
    expect(dump).not.toContain(first);
    expect(dump).not.toContain(second);
  });

  test('upgrades a hash made with weaker argon2 parameters at the next login', async () => {
    const { hash } = await import('@node-rs/argon2');
    const weak = await hash(PASSWORD, { algorithm: 2 as never, memoryCost: 4096, timeCost: 3, parallelism: 1 });
    await h.db.update(accounts).set({ passwordHash: weak }).where(sql`${accounts.mobile} = ${MOBILE}`);
    expect((await h.login(MOBILE, PASSWORD)).status).toBe(200);
    const [row] = await h.db.select().from(accounts).where(sql`${accounts.mobile} = ${MOBILE}`);
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await h.login(MOBILE, PASSWORD)).status).toBe(200);
  });

  test('stores new passwords as argon2id at or above the OWASP floor', async () => {
    const stored = await hashPassword('another good password');
    const [, memory, time, lanes] = /m=(\d+),t=(\d+),p=(\d+)/.exec(stored)?.map(Number) ?? [];
    expect(stored.startsWith('$argon2id$')).toBe(true);
    // OWASP's equivalent floors: 46 MiB with one pass, or 19 MiB with two.
    const floor = (time ?? 0) >= 2 ? 19 * 1024 : 46 * 1024;
    expect(memory).toBeGreaterThanOrEqual(floor);
    expect(time).toBeGreaterThanOrEqual(1);
    expect(lanes).toBe(1);
  });
});

describe('sessions', () => {
  test('user-info answers 401, never 500, without a token or with a garbage or oversized one', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'alliance-authenticate': 'garbage' },
      { 'alliance-authenticate': 'x'.repeat(43) },
      { 'alliance-authenticate': 'a'.repeat(10_000) },
      { 'alliance-authenticate': '../../etc/passwd' },
      { 'alliance-authenticate': encodeURIComponent('令牌') },
      { cookie: 'token=%E0%A4%A' },
      { cookie: `token=${'b'.repeat(5000)}` },
    ];
    for (const headers of cases) {
      const res = await h.call('GET', '/web/api/account/user-info', undefined, { headers });
      expect(res.status, JSON.stringify(headers).slice(0, 80)).toBe(401);
      expect(res.body.code).toBe('401');
    }
  });

  test('reads the token from the cookie as well as from the header', async () => {
    const token = (await h.login(MOBILE, PASSWORD)).body.data.token;
    const byCookie = await h.call('GET', '/web/api/account/user-info', undefined, {
      headers: { cookie: `token=${token}` },
    });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.data).toMatchObject({ mobile: MOBILE });
  });

  test('logout ends the session: its token answers 401 by header and by cookie', async () => {
    const token = (await h.login(MOBILE, PASSWORD)).body.data.token;
    const other = (await h.login(MOBILE, PASSWORD)).body.data.token;
    const res = await h.call('POST', '/web/api/logout', undefined, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/token=;.*Max-Age=0/);
    expect((await h.call('GET', '/web/api/account/user-info', undefined, { token })).status).toBe(401);
    const byCookie = await h.call('GET', '/web/api/account/user-info', undefined, {
      headers: { cookie: `token=${token}` },
    });
    expect(byCookie.status).toBe(401);
    // Other devices stay signed in.
    expect((await h.call('GET', '/web/api/account/user-info', undefined, { token: other })).status).toBe(200);
    // Logging out twice, or without a session, is not an error.
    expect((await h.call('POST', '/web/api/logout', undefined, { token })).status).toBe(200);
  });

  test('an expired session answers 401 with code S00106 one millisecond after its lifetime', async () => {
    const token = (await h.login(MOBILE, PASSWORD)).body.data.token;
    h.clock.advance(604_800_000 - 1);
    expect((await h.call('GET', '/web/api/account/user-info', undefined, { token })).status).toBe(200);
    h.clock.advance(1);
    const res = await h.call('GET', '/web/api/account/user-info', undefined, { token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'S00106', message: '登录已过期，请重新登录' });
    // Every later call with that token says the same, so whichever call a page makes first, the
    // browser learns that the session expired (SPEC §8) rather than that it was never valid.
    for (let call = 0; call < 3; call++) {
      const again = await h.call('GET', '/web/api/account/user-info', undefined, { token });
      expect(again.body).toMatchObject({ code: 'S00106' });
    }
    // A new login clears the account's expired sessions; the old token is then unknown.
    await h.login(MOBILE, PASSWORD);
    expect((await h.call('GET', '/web/api/account/user-info', undefined, { token })).body.code).toBe('401');
  });
});
