import { count } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { authContext } from '../../src/server/auth/context.ts';
import { messageBoard } from '../../src/server/db/schema/index.ts';
import { type ContentSuite, openContentSuite } from '../helpers/content.ts';

let suite: ContentSuite;
let app: ReturnType<typeof createApp>;
let ipCounter = 0;
let ip = '';
const passed = new Set<string>();

async function save(body: unknown, from = ip) {
  const res = await app.request(
    '/web/api/messageBoard/save',
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    { clientAddress: from },
  );
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { code: string; message: string; data: unknown },
  };
}

async function savedCount(): Promise<number> {
  const [row] = await suite.database.db.select({ n: count() }).from(messageBoard);
  return row?.n ?? 0;
}

const valid = {
  name: '李老师',
  contact: '13812345678',
  content: '想咨询一下字体授权的问题。',
  captchaVerification: 'ok-1',
};

beforeAll(async () => {
  suite = await openContentSuite({ content: false });
  // The accounts' captcha hands out single-use verifications after a solved puzzle; here a set of
  // issued ones stands in for solved puzzles, consumed the same way.
  vi.spyOn(authContext().captcha, 'consumeVerification').mockImplementation(async (value) =>
    value ? passed.delete(value) : false,
  );
});
afterAll(async () => {
  vi.restoreAllMocks();
  await suite.close();
});
beforeEach(async () => {
  await suite.database.db.delete(messageBoard);
  passed.clear();
  for (let i = 1; i <= 10; i++) passed.add(`ok-${i}`);
  app = createApp();
  ipCounter++;
  ip = `203.0.113.${ipCounter}`;
});

describe('POST /web/api/messageBoard/save', () => {
  test('saves a valid message with the sender’s IP', async () => {
    const { status, body } = await save({ ...valid, contact: 'li@example.com.cn' });
    expect(status).toBe(200);
    expect(body.code).toBe('200');
    const rows = await suite.database.db.select().from(messageBoard);
    expect(rows).toEqual([expect.objectContaining({ name: '李老师', contact: 'li@example.com.cn', ip })]);
  });

  test.each([
    [{ contact: '12345' }, '联系方式格式不正确，请填写手机号或邮箱'],
    [{ contact: 'li@example' }, '联系方式格式不正确，请填写手机号或邮箱'],
    [{ contact: '' }, '请填写手机号或邮箱'],
    [{ name: '  ' }, '请填写称呼'],
    [{ content: '四个字呀' }, '留言内容至少 5 个字'],
    [{ content: '字'.repeat(1001) }, '留言内容最多 1000 个字'],
  ])('refuses %j with a Chinese message and saves nothing', async (change, message) => {
    const { status, body } = await save({ ...valid, ...change });
    expect(status).toBe(400);
    expect(body.message).toContain(message);
    expect(await savedCount()).toBe(0);
  });

  test('accepts exactly 5 and exactly 1000 characters', async () => {
    expect((await save({ ...valid, content: '五个字正好', captchaVerification: 'ok-1' })).status).toBe(200);
    expect((await save({ ...valid, content: '字'.repeat(1000), captchaVerification: 'ok-2' })).status).toBe(200);
    expect(await savedCount()).toBe(2);
  });

  test('requires a passed captcha, once per message', async () => {
    const missing = await save({ ...valid, captchaVerification: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('滑块验证');
    const forged = await save({ ...valid, captchaVerification: 'never-issued' });
    expect(forged.status).toBe(400);
    expect((await save(valid)).status).toBe(200);
    const reused = await save(valid);
    expect(reused.status).toBe(400);
    expect(await savedCount()).toBe(1);
  });

  test('allows five messages per IP in ten minutes, then answers 429 with Retry-After', async () => {
    for (let i = 1; i <= 5; i++) expect((await save({ ...valid, captchaVerification: `ok-${i}` })).status).toBe(200);
    const limited = await save({ ...valid, captchaVerification: 'ok-6' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(limited.body.message).toBe('留言太频繁了，请稍后再试');
    // The refused attempt did not use up its captcha, and another address is not limited.
    expect((await save({ ...valid, captchaVerification: 'ok-6' }, '198.51.100.1')).status).toBe(200);
    expect(await savedCount()).toBe(6);
  });
});
