import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CAPTCHA_TTL_MS, ESCALATION } from '../../src/server/auth/captcha.ts';
import { sweepAuthState } from '../../src/server/auth/state-sweeper.ts';
import { captchaPuzzles, captchaVerifications, rateCounters } from '../../src/server/db/schema/index.ts';
import { type AccountHarness, type AccountNode, openAccountHarness } from '../helpers/account-harness.ts';
import { browserEncrypt, humanTrack } from '../helpers/captcha-solver.ts';

// Two servers over one database, as behind a load balancer: each has its own auth context (captcha
// service and limiters), so whatever they agree on went through the database.

const PASSWORD = 'two nodes, one site';
let h: AccountHarness;
let a: AccountNode;
let b: AccountNode;

beforeAll(async () => {
  h = await openAccountHarness();
  a = { app: h.app, ctx: h.ctx, call: h.call };
  b = h.addNode();
});
afterAll(async () => {
  await h.close();
});

interface Puzzle {
  token: string;
  secretKey: string;
  originalImageBase64: string;
}
type CaptchaAnswer = { repCode: string; repData: Record<string, unknown> | null };

async function puzzleFrom(node: AccountNode, ip: string, asker: Record<string, string> = {}) {
  const got = await node.call('POST', '/captcha/get', { captchaType: 'blockPuzzle', ...asker }, { ip });
  expect(got.status).toBe(200);
  const puzzle = (got.body as unknown as CaptchaAnswer).repData as unknown as Puzzle;
  return { ...puzzle, x: h.answerOf(puzzle.originalImageBase64) };
}

async function answerOn(node: AccountNode, puzzle: Puzzle, x: number, ip: string, clientUid?: string) {
  const point = JSON.stringify({ x, y: 5 });
  const res = await node.call(
    'POST',
    '/captcha/check',
    {
      captchaType: 'blockPuzzle',
      token: puzzle.token,
      pointJson: browserEncrypt(point, puzzle.secretKey),
      trackJson: browserEncrypt(JSON.stringify(humanTrack(x, x)), puzzle.secretKey),
      ...(clientUid ? { clientUid } : {}),
    },
    { ip },
  );
  return { status: res.status, body: res.body as unknown as CaptchaAnswer, point };
}

describe('two nodes over one database', () => {
  test('a puzzle fetched from one node is answered on the other, once, and its pass works on the first', async () => {
    const account = '13700000001';
    await h.register(account, PASSWORD);
    const puzzle = await puzzleFrom(a, '10.30.0.1');
    const passed = await answerOn(b, puzzle, puzzle.x, '10.30.0.1');
    expect(passed.body.repCode).toBe('0000');
    // One try per token holds across nodes: the first node no longer knows it either.
    expect((await answerOn(a, puzzle, puzzle.x, '10.30.0.1')).body.repCode).toBe('6110');

    const captchaVerification = browserEncrypt(`${puzzle.token}---${passed.point}`, puzzle.secretKey);
    const login = await a.call('POST', '/web/api/login', { account, password: PASSWORD, captchaVerification });
    expect(login.status).toBe(200);
    // …and the pass is used up on every node.
    const again = await b.call('POST', '/web/api/login', { account, password: PASSWORD, captchaVerification });
    expect(again.body.code).toBe('6110');
  });

  test('five wrong passwords spread over both nodes lock the address out of the account on both', async () => {
    const account = 'spread@example.com';
    await h.register(account, PASSWORD);
    const ip = '10.31.0.1';
    const loginOn = async (node: AccountNode, password: string) =>
      node.call(
        'POST',
        '/web/api/login',
        { account, password, captchaVerification: await h.captcha({ account }) },
        { ip },
      );
    for (const node of [a, b, a, b, a]) expect((await loginOn(node, 'wrong password')).status).toBe(401);
    for (const node of [a, b]) {
      const blocked = await loginOn(node, PASSWORD);
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toMatch(/登录失败次数过多/);
    }
    h.clock.advance(15 * 60_000);
    expect((await loginOn(b, PASSWORD)).status).toBe(200);
  });

  test('two code requests for one number at once on two nodes send one code', async () => {
    const mobile = '13700000002';
    const ask = async (node: AccountNode, ip: string) =>
      node.call(
        'POST',
        '/web/api/account/sendCode',
        { account: mobile, purpose: 'register', captchaVerification: await h.captcha() },
        { ip },
      );
    const [first, second] = await Promise.all([ask(a, '10.33.0.1'), ask(b, '10.33.0.2')]);
    expect([first.status, second.status].sort()).toEqual([200, 429]);
    expect(h.sms.sent.filter((message) => message.to === mobile)).toHaveLength(1);
  });

  test('captcha failures from one browser count together, whichever node they reach', async () => {
    const uid = 'browser-on-two-nodes-01';
    const nodes = [a, b];
    for (let i = 0; i < ESCALATION.browser.coolDownAfter; i += 1) {
      const ip = `10.32.${i}.1`;
      const miss = await puzzleFrom(nodes[i % 2] ?? a, ip, { clientUid: uid });
      expect((await answerOn(nodes[(i + 1) % 2] ?? b, miss, miss.x + 40, ip, uid)).body.repCode).toBe('6111');
    }
    for (const node of nodes) {
      const refused = await node.call('POST', '/captcha/get', { captchaType: 'blockPuzzle', clientUid: uid });
      expect(refused.status).toBe(429);
      expect((refused.body as unknown as CaptchaAnswer).repCode).toBe('6201');
    }
  });
});

describe('the sweep of expired shared state', () => {
  test('deletes ended counters, expired puzzles and verifications, and keeps what still counts', async () => {
    await h.captcha({ ip: '10.34.0.1' });
    const waiting = await puzzleFrom(b, '10.34.0.2');
    const before = await h.db.select().from(captchaVerifications);
    expect(before.length).toBeGreaterThan(0);
    // Past every puzzle's and verification's lifetime, and the one-minute captcha windows, not the 15-minute ones.
    h.clock.advance(Math.max(CAPTCHA_TTL_MS, 180_000));
    const fresh = await puzzleFrom(a, '10.34.0.3');
    expect(await sweepAuthState(h.ctx)).toBeGreaterThan(0);
    const tokens = (await h.db.select().from(captchaPuzzles)).map((row) => row.token);
    expect(tokens).toEqual([fresh.token]);
    expect(tokens).not.toContain(waiting.token);
    expect(await h.db.select().from(captchaVerifications)).toEqual([]);
    const counters = await h.db.select().from(rateCounters);
    expect(counters.every((row) => row.windowEndsAt.getTime() > h.clock())).toBe(true);
    expect(counters.some((row) => row.key === 'captchaGetIp:ip:10.34.0.3')).toBe(true);
    expect(counters.some((row) => row.key === 'captchaGetIp:ip:10.34.0.2')).toBe(false);
  });
});
