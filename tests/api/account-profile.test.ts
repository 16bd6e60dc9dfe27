import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { UserInfo } from '../../src/server/accounts/common.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';

const PASSWORD = 'willow by the river';
let h: AccountHarness;
let serial = 0;

beforeAll(async () => {
  h = await openAccountHarness();
});
afterAll(async () => {
  await h.close();
});

function freshMobile(): string {
  serial += 1;
  return `1360000${String(serial).padStart(4, '0')}`;
}

async function signUp(): Promise<{ mobile: string; token: string }> {
  const mobile = freshMobile();
  return { mobile, token: await h.register(mobile, PASSWORD) };
}

function userInfo(token: string) {
  return h.call<UserInfo>('GET', '/web/api/account/user-info', undefined, { token });
}

describe('PUT /web/api/account/update-account-pwd', () => {
  test('changes the password, keeps this session and ends every other one', async () => {
    const { mobile, token } = await signUp();
    const other = (await h.login(mobile, PASSWORD)).body.data.token;
    const res = await h.call(
      'PUT',
      '/web/api/account/update-account-pwd',
      { oldPassword: PASSWORD, password: 'a brand new password' },
      { token },
    );
    expect(res.status).toBe(200);
    expect((await userInfo(token)).status).toBe(200);
    expect((await userInfo(other)).status).toBe(401);
    expect((await h.login(mobile, PASSWORD)).status).toBe(401);
    expect((await h.login(mobile, 'a brand new password')).status).toBe(200);
  });

  test('answers a wrong current password with 400, so the session is not thrown away', async () => {
    const { token } = await signUp();
    const res = await h.call(
      'PUT',
      '/web/api/account/update-account-pwd',
      { oldPassword: 'not my password', password: 'a brand new password' },
      { token },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('当前密码不正确');
    const missing = await h.call(
      'PUT',
      '/web/api/account/update-account-pwd',
      { password: 'a brand new password' },
      { token },
    );
    expect(missing.body.message).toBe('请输入当前密码');
    expect((await userInfo(token)).status).toBe(200);
  });

  test('applies the password policy to the new password', async () => {
    const { token } = await signUp();
    const res = await h.call(
      'PUT',
      '/web/api/account/update-account-pwd',
      { oldPassword: PASSWORD, password: '12345678' },
      { token },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('新密码（password）：这个密码太常见，容易被猜中，请换一个');
  });

  test('answers 401 without a session', async () => {
    const res = await h.call('PUT', '/web/api/account/update-account-pwd', {
      oldPassword: PASSWORD,
      password: 'x new password',
    });
    expect(res.status).toBe(401);
  });
});

describe('PUT /web/api/account/bind-account', () => {
  test('binds an e-mail address with a code sent to it and the current password', async () => {
    const { token } = await signUp();
    const code = await h.code('Bound@Example.com', 'bind');
    const res = await h.call<UserInfo>(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'email', account: 'Bound@Example.com', code, password: PASSWORD },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe('bound@example.com');
    expect((await h.login('bound@example.com', PASSWORD)).status).toBe(200);
  });

  test('replaces the mobile number with a new one', async () => {
    const { mobile, token } = await signUp();
    const next = freshMobile();
    const code = await h.code(next, 'bind');
    const res = await h.call<UserInfo>(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'mobile', account: next, code, password: PASSWORD },
      { token },
    );
    expect(res.body.data.mobile).toBe(next);
    expect((await h.login(mobile, PASSWORD)).status).toBe(401);
  });

  test('refuses an address bound to another account and leaves both accounts unchanged', async () => {
    const first = await signUp();
    const second = await signUp();
    const code = await h.code(first.mobile, 'bind');
    const res = await h.call(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'mobile', account: first.mobile, code, password: PASSWORD },
      { token: second.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('这个手机号已绑定其他账户');
    expect((await userInfo(second.token)).body.data.mobile).toBe(second.mobile);
  });

  test('refuses a code sent for another purpose, a wrong password and a mismatched type', async () => {
    const { token } = await signUp();
    const target = freshMobile();
    const loginCode = await h.code(target, 'login');
    const wrongPurpose = await h.call(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'mobile', account: target, code: loginCode, password: PASSWORD },
      { token },
    );
    expect(wrongPurpose.status).toBe(400);
    const bindCode = await h.code(target, 'bind');
    const wrongPassword = await h.call(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'mobile', account: target, code: bindCode, password: 'wrong password' },
      { token },
    );
    expect(wrongPassword.body.message).toBe('当前密码不正确');
    const mismatch = await h.call(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'email', account: target, code: bindCode, password: PASSWORD },
      { token },
    );
    expect(mismatch.body.message).toBe('邮箱格式不正确');
  });
});

describe('PUT /web/api/account/unbind-account', () => {
  test('unbinds the e-mail address while the mobile number remains', async () => {
    const { token } = await signUp();
    const code = await h.code('leaving@example.com', 'bind');
    await h.call(
      'PUT',
      '/web/api/account/bind-account',
      { type: 'email', account: 'leaving@example.com', code, password: PASSWORD },
      { token },
    );
    const res = await h.call<UserInfo>(
      'PUT',
      '/web/api/account/unbind-account',
      { type: 'email', password: PASSWORD },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBeNull();
  });

  test('refuses to remove the last way in, and to unbind what is not bound', async () => {
    const { token } = await signUp();
    const last = await h.call(
      'PUT',
      '/web/api/account/unbind-account',
      { type: 'mobile', password: PASSWORD },
      { token },
    );
    expect(last.status).toBe(400);
    expect(last.body.message).toBe('解绑后将无法登录这个账户，请先绑定其他登录方式');
    const wechat = await h.call(
      'PUT',
      '/web/api/account/unbind-account',
      { type: 'wechat', password: PASSWORD },
      { token },
    );
    expect(wechat.body.message).toBe('这项没有绑定，无需解绑');
  });
});

async function png(width: number, height: number): Promise<Blob> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/png' });
}

function form(fields: Record<string, Blob | string>, filename = 'avatar.png'): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Blob) data.append(key, value, filename);
    else data.append(key, value);
  }
  return data;
}

describe('POST /web/api/account/update-account-info', () => {
  test('stores an uploaded image as a 256 × 256 WebP avatar and removes the previous one', async () => {
    const { token } = await signUp();
    const first = await h.call<UserInfo>(
      'POST',
      '/web/api/account/update-account-info',
      form({ file: await png(800, 600) }),
      { token },
    );
    expect(first.status).toBe(200);
    const url = first.body.data.avatar ?? '';
    expect(url).toMatch(/^\/files\/avatars\/\d+-[0-9a-f]{12}\.webp$/);
    const file = path.join(h.dataDir, 'storage', url.replace('/files/', ''));
    const meta = await sharp(file).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
    const second = await h.call<UserInfo>(
      'POST',
      '/web/api/account/update-account-info',
      form({ file: await png(300, 300) }),
      { token },
    );
    expect(second.body.data.avatar).not.toBe(url);
    expect(fs.existsSync(file)).toBe(false);
  });

  test('updates the nickname alone', async () => {
    const { token } = await signUp();
    const res = await h.call<UserInfo>('POST', '/web/api/account/update-account-info', form({ nickname: '  墨客  ' }), {
      token,
    });
    expect(res.body.data.nickname).toBe('墨客');
  });

  test.each([
    [
      'text dressed as a PNG',
      async () => new Blob(['not an image at all'], { type: 'image/png' }),
      415,
      '头像只能是 JPG、PNG、WebP 或 GIF 图片',
    ],
    [
      'an SVG',
      async () => new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/svg+xml' }),
      415,
      '头像只能是 JPG、PNG、WebP 或 GIF 图片',
    ],
    ['an image over 2000 px wide', () => png(2001, 10), 422, '头像图片的宽和高都不能超过 2000 像素，请先裁剪或缩小'],
    [
      'a file over 2 MB',
      async () => new Blob([new Uint8Array(2 * 1024 * 1024 + 200_000)], { type: 'image/png' }),
      413,
      '头像文件不能超过 2 MB',
    ],
  ])('refuses %s and changes nothing', async (_name, make, status, message) => {
    const { token, mobile } = await signUp();
    const res = await h.call(
      'POST',
      '/web/api/account/update-account-info',
      form({ file: await make(), nickname: '不该保存' }),
      { token },
    );
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    const [row] = await h.db.select().from(accounts).where(eq(accounts.mobile, mobile));
    expect(row?.avatarKey).toBeNull();
    expect(row?.nickname).not.toBe('不该保存');
    const avatars = path.join(h.dataDir, 'storage', 'avatars');
    const files = fs.existsSync(avatars) ? fs.readdirSync(avatars) : [];
    expect(files.filter((name) => name.startsWith(`${row?.id}-`))).toEqual([]);
  });

  test.each([
    ['<script>', '昵称（nickname）：不能包含控制字符或尖括号'],
    ['', '昵称（nickname）：请填写 1 到 20 个字符'],
    ['长'.repeat(21), '昵称（nickname）：请填写 1 到 20 个字符'],
  ])('refuses the nickname %j', async (nickname, message) => {
    const { token } = await signUp();
    const res = await h.call('POST', '/web/api/account/update-account-info', form({ nickname }), { token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  test('answers 401 without a session', async () => {
    const res = await h.call('POST', '/web/api/account/update-account-info', form({ nickname: '游客' }));
    expect(res.status).toBe(401);
  });
});
