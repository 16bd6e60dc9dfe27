import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { CaptchaTrack } from '../../src/contract/captcha.ts';
import { ESCALATION } from '../../src/server/auth/captcha.ts';
import { aesEcbEncrypt } from '../../src/server/auth/captcha-crypto.ts';
import { log } from '../../src/server/log.ts';
import { type AccountHarness, openAccountHarness } from '../helpers/account-harness.ts';
import { browserEncrypt, findHoleByOutline, findPieceByPixels, humanTrack } from '../helpers/captcha-solver.ts';

interface Puzzle {
  originalImageBase64: string;
  jigsawImageBase64: string;
  token: string;
  secretKey: string;
}
interface CaptchaBody {
  repCode: string;
  repMsg: string | null;
  repData: Record<string, unknown> | null;
  success: boolean;
}

let h: AccountHarness;
let serial = 0;

beforeAll(async () => {
  h = await openAccountHarness();
});
afterAll(async () => {
  await h.close();
});

async function post(
  path: string,
  body: unknown,
  ip?: string,
): Promise<{ status: number; body: CaptchaBody; headers: Headers }> {
  serial += 1;
  const res = await h.call('POST', path, body, { ip: ip ?? `10.7.0.${serial % 250}` });
  return { status: res.status, body: res.body as unknown as CaptchaBody, headers: res.headers };
}

async function newPuzzle(asker: Record<string, string> = {}, ip?: string): Promise<Puzzle & { x: number }> {
  const res = await post('/captcha/get', { captchaType: 'blockPuzzle', ts: Date.now(), ...asker }, ip);
  const data = res.body.repData as unknown as Puzzle;
  return { ...data, x: h.answerOf(data.originalImageBase64) };
}

/** Answers a puzzle at `x` with a hand's drag to there, unless the test gives its own track (or none). */
function check(
  puzzle: Puzzle,
  x: number,
  options: { y?: number; track?: CaptchaTrack | null; ip?: string; clientUid?: string } = {},
) {
  const pointJson = browserEncrypt(JSON.stringify({ x, y: options.y ?? 5 }), puzzle.secretKey);
  const track = options.track === undefined ? humanTrack(x, serial) : options.track;
  return post(
    '/captcha/check',
    {
      captchaType: 'blockPuzzle',
      token: puzzle.token,
      pointJson,
      ...(track ? { trackJson: browserEncrypt(JSON.stringify(track), puzzle.secretKey) } : {}),
      ...(options.clientUid ? { clientUid: options.clientUid } : {}),
    },
    options.ip,
  );
}

describe('POST /captcha/get', () => {
  test('answers two PNG images, a token and a per-captcha key in AJ-Captcha shape, without the answer', async () => {
    const res = await post('/captcha/get', { captchaType: 'blockPuzzle' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ repCode: '0000', success: true });
    const data = res.body.repData as unknown as Puzzle;
    expect(Object.keys(data).sort()).toEqual([
      'jigsawImageBase64',
      'originalImageBase64',
      'result',
      'secretKey',
      'token',
    ]);
    expect(data.token).toMatch(/^[0-9a-f]{32}$/);
    expect(data.secretKey).toMatch(/^[A-Za-z0-9]{16}$/);
    const background = await sharp(Buffer.from(data.originalImageBase64, 'base64')).metadata();
    const piece = await sharp(Buffer.from(data.jigsawImageBase64, 'base64')).metadata();
    expect([background.format, background.width, background.height]).toEqual(['png', 310, 155]);
    expect([piece.format, piece.height, piece.hasAlpha]).toEqual(['png', 155, true]);
    const other = await post('/captcha/get', {});
    expect((other.body.repData as unknown as Puzzle).secretKey).not.toBe(data.secretKey);
  });

  test('refuses another captcha type and a body that is not JSON', async () => {
    expect((await post('/captcha/get', { captchaType: 'clickWord' })).body.repCode).toBe('0016');
    const res = await h.app.request('/captcha/get', { method: 'POST', body: '{oops' }, { clientAddress: '10.7.1.1' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as CaptchaBody).repCode).toBe('0016');
  });

  test('refuses a NUL or a lone surrogate in any field with 400, and logs nothing of the account it names', async () => {
    const spies = (['error', 'warn', 'info'] as const).map((level) =>
      vi.spyOn(log(), level).mockImplementation(() => undefined),
    );
    const account = '13800138000\u0000zhangsan@example.com';
    const puzzle = await newPuzzle();
    const answers = [
      await post('/captcha/get', { captchaType: 'blockPuzzle', account }),
      await post('/captcha/get', { captchaType: 'blockPuzzle', account: 'reader\ud800@example.com' }),
      await post('/captcha/get', { captchaType: 'blockPuzzle', clientUid: 'a\u0000bcdefghij' }),
      await post('/captcha/check', { captchaType: 'blockPuzzle', token: `${puzzle.token}\u0000`, pointJson: 'x' }),
      await post('/captcha/check', { captchaType: 'blockPuzzle', token: puzzle.token, pointJson: 'x\u0000' }),
      await post('/captcha/check', { token: puzzle.token, pointJson: 'x', trackJson: '[\u0000]' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ repCode: '0016', success: false });
      expect(answer.body.repMsg).toMatch(/不允许的字符/);
    }
    const logged = JSON.stringify(
      spies.flatMap((spy) => spy.mock.calls),
      (_key, value: unknown) =>
        value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
    );
    expect(logged).not.toContain('zhangsan');
    expect(logged).not.toContain('13800138000');
    for (const spy of spies) spy.mockRestore();
  });

  test('counts every IPv6 address of one /64 as one address', async () => {
    for (let i = 1; i <= 30; i += 1) {
      expect((await post('/captcha/get', {}, `2001:db8:7:1::${i.toString(16)}`)).status).toBe(200);
    }
    expect((await post('/captcha/get', {}, '2001:db8:7:1:ffff:ffff:ffff:ffff')).status).toBe(429);
    expect((await post('/captcha/get', {}, '2001:db8:7:2::1')).status).toBe(200);
    h.clock.advance(60_000);
  });

  test('answers 429 with Retry-After past 30 puzzles a minute from one address', async () => {
    for (let i = 0; i < 30; i += 1) expect((await post('/captcha/get', {}, '10.7.2.1')).status).toBe(200);
    const res = await post('/captcha/get', {}, '10.7.2.1');
    expect(res.status).toBe(429);
    expect(res.body.repCode).toBe('6201');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    h.clock.advance(60_000);
    expect((await post('/captcha/get', {}, '10.7.2.1')).status).toBe(200);
  });
});

describe('POST /captcha/check', () => {
  test.each([-5, 0, 5])('passes with the piece %i px from the hole', async (shift) => {
    const puzzle = await newPuzzle();
    const res = await check(puzzle, puzzle.x + shift);
    expect(res.body).toMatchObject({ repCode: '0000', success: true, repData: { result: true, token: puzzle.token } });
  });

  test.each([-6, 6, 40])('fails with 6111 when the piece is %i px off', async (shift) => {
    const puzzle = await newPuzzle();
    const res = await check(puzzle, puzzle.x + shift);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ repCode: '6111', success: false, repData: null });
  });

  test('fails with 6111 when y is not the protocol value 5', async () => {
    const puzzle = await newPuzzle();
    expect((await check(puzzle, puzzle.x, { y: 30 })).body.repCode).toBe('6111');
  });

  test('gives each token one try: after a miss the right answer gets 6110', async () => {
    const puzzle = await newPuzzle();
    expect((await check(puzzle, puzzle.x + 30)).body.repCode).toBe('6111');
    expect((await check(puzzle, puzzle.x)).body.repCode).toBe('6110');
  });

  test('answers 6110 for a used, an unknown and an expired token', async () => {
    const used = await newPuzzle();
    expect((await check(used, used.x)).body.repCode).toBe('0000');
    expect((await check(used, used.x)).body.repCode).toBe('6110');
    expect((await check({ ...used, token: 'f'.repeat(32) }, used.x)).body.repCode).toBe('6110');
    const late = await newPuzzle();
    h.clock.advance(120_000);
    expect((await check(late, late.x)).body.repCode).toBe('6110');
    const inTime = await newPuzzle();
    h.clock.advance(119_999);
    expect((await check(inTime, inTime.x)).body.repCode).toBe('0000');
  });

  test('hands out the same verification the browser computes from token and point', async () => {
    const puzzle = await newPuzzle();
    const point = JSON.stringify({ x: puzzle.x + 0.4, y: 5 });
    const res = await post('/captcha/check', {
      captchaType: 'blockPuzzle',
      token: puzzle.token,
      pointJson: browserEncrypt(point, puzzle.secretKey),
      trackJson: browserEncrypt(JSON.stringify(humanTrack(puzzle.x + 0.4)), puzzle.secretKey),
    });
    expect(res.body.repData?.['captchaVerification']).toBe(
      browserEncrypt(`${puzzle.token}---${point}`, puzzle.secretKey),
    );
  });

  test.each([
    ['not base64', () => 'not base64 at all!'],
    ['a partial block', () => Buffer.from('12345').toString('base64')],
    ['bad padding', () => Buffer.alloc(16, 7).toString('base64')],
    ['not JSON', (key: string) => aesEcbEncrypt('x=12,y=5', key)],
    ['JSON without x', (key: string) => aesEcbEncrypt('{"y":5}', key)],
    ['a string x', (key: string) => aesEcbEncrypt('{"x":"12","y":5}', key)],
  ])('answers 400 with code 0016 and no stack for %s', async (_name, make) => {
    const puzzle = await newPuzzle();
    const res = await post('/captcha/check', {
      captchaType: 'blockPuzzle',
      token: puzzle.token,
      pointJson: make(puzzle.secretKey),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ repCode: '0016', success: false });
    expect(JSON.stringify(res.body)).not.toMatch(/Error|at \w+ \(|node:|\.ts:/);
    // The try is spent.
    expect((await check(puzzle, puzzle.x)).body.repCode).toBe('6110');
  });

  test('refuses the right x without a drag track, or with a track no hand makes', async () => {
    const only = await newPuzzle();
    expect((await check(only, only.x, { track: null })).body.repCode).toBe('6111');
    const instant = await newPuzzle();
    const jump: CaptchaTrack = {
      kind: 'pointer',
      points: [
        [0, 0, 0],
        [5, instant.x, 0],
      ],
    };
    expect((await check(instant, instant.x, { track: jump })).body.repCode).toBe('6111');
    const robotic = await newPuzzle();
    const even: CaptchaTrack = {
      kind: 'pointer',
      points: Array.from({ length: 21 }, (_, i) => [i * 20, (robotic.x * i) / 20, 0] as [number, number, number]),
    };
    expect((await check(robotic, robotic.x, { track: even })).body.repCode).toBe('6111');
    const elsewhere = await newPuzzle();
    expect((await check(elsewhere, elsewhere.x, { track: humanTrack(elsewhere.x + 30) })).body.repCode).toBe('6111');
  });

  test('passes a keyboard answer: arrow-key steps over time, ending at the answer', async () => {
    const puzzle = await newPuzzle();
    const points: [number, number, number][] = [[0, 0, 0]];
    for (let x = 0, t = 0; x < puzzle.x; ) {
      x = Math.min(puzzle.x, x + (puzzle.x - x >= 10 ? 10 : 1));
      t += 90;
      points.push([t, x, 0]);
    }
    expect((await check(puzzle, puzzle.x, { track: { kind: 'keys', points } })).body.repCode).toBe('0000');
  });

  test('answers 0011 when the token or the point is missing', async () => {
    expect((await post('/captcha/check', { pointJson: 'abc' })).body.repCode).toBe('0011');
    expect((await post('/captcha/check', { token: 'abc' })).body.repCode).toBe('0011');
  });
});

describe('captcha verification', () => {
  test('is accepted by the next action once, and not after 180 seconds', async () => {
    const verification = await h.captcha();
    expect(await h.ctx.captcha.consumeVerification(verification)).toBe(true);
    expect(await h.ctx.captcha.consumeVerification(verification)).toBe(false);
    const late = await h.captcha();
    h.clock.advance(180_000);
    expect(await h.ctx.captcha.consumeVerification(late)).toBe(false);
    const inTime = await h.captcha();
    h.clock.advance(179_999);
    expect(await h.ctx.captcha.consumeVerification(inTime)).toBe(true);
  });

  test('a stale verification is refused by login with code 6110', async () => {
    const captchaVerification = await h.captcha();
    h.clock.advance(180_000);
    const res = await h.call('POST', '/web/api/login', {
      account: '13800138000',
      password: 'whatever it is',
      captchaVerification,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('6110');
  });
});

describe('puzzles against scripts', () => {
  // 200 puzzles: the matcher's few lucky hits and the person's few misses stay far from the bounds.
  const PUZZLES = 200;

  test("matching the piece's pixels finds the hole in under one puzzle in ten; the outline finds it in nine of ten", async () => {
    let matcherHits = 0;
    let outlineHits = 0;
    let xOnlyPasses = 0;
    for (let i = 0; i < PUZZLES; i += 1) {
      const puzzle = await newPuzzle();
      const guess = await findPieceByPixels(puzzle.originalImageBase64, puzzle.jigsawImageBase64);
      if (Math.abs(guess - puzzle.x) <= 5) matcherHits += 1;
      const seen = await findHoleByOutline(puzzle.originalImageBase64, puzzle.jigsawImageBase64);
      if (Math.abs(seen - puzzle.x) <= 5) outlineHits += 1;
      // The script posts only its x, as AJ-Captcha's protocol carries it.
      if ((await check(puzzle, guess, { track: null })).body.repCode === '0000') xOnlyPasses += 1;
    }
    expect(xOnlyPasses).toBe(0);
    expect(matcherHits).toBeLessThanOrEqual(PUZZLES * 0.1);
    expect(outlineHits).toBeGreaterThanOrEqual(PUZZLES * 0.9);
  }, 120_000);
});

describe('repeated failures', () => {
  const uid = 'browser-under-test-0001';

  test(`after ${ESCALATION.browser.harderAfter} failures from one browser a pass takes two puzzles; after ${ESCALATION.browser.coolDownAfter} none are handed out for a while`, async () => {
    for (let i = 0; i < ESCALATION.browser.harderAfter; i += 1) {
      const miss = await newPuzzle({ clientUid: uid });
      expect((await check(miss, miss.x + 40, { clientUid: uid })).body.repCode).toBe('6111');
    }
    const first = await newPuzzle({ clientUid: uid });
    const more = await check(first, first.x, { clientUid: uid });
    expect(more.body).toMatchObject({ repCode: '6114', repMsg: '验证通过，请再完成一张拼图' });
    const second = more.body.repData as unknown as Puzzle;
    const passed = await check({ ...second }, h.answerOf(second.originalImageBase64), { clientUid: uid });
    expect(passed.body.repCode).toBe('0000');

    const left = ESCALATION.browser.coolDownAfter - ESCALATION.browser.harderAfter;
    for (let i = 0; i < left; i += 1) {
      const miss = await newPuzzle({ clientUid: uid });
      expect((await check(miss, miss.x + 40, { clientUid: uid })).body.repCode).toBe('6111');
    }
    const refused = await post('/captcha/get', { captchaType: 'blockPuzzle', clientUid: uid });
    expect(refused.status).toBe(429);
    expect(refused.body.repCode).toBe('6201');
    expect(refused.body.repMsg).toMatch(/^验证失败次数过多，请 \d+ 分钟后再试$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another browser at other addresses is not held back.
    expect((await post('/captcha/get', { captchaType: 'blockPuzzle', clientUid: 'another-browser-01' })).status).toBe(
      200,
    );
    h.clock.advance(15 * 60_000);
    expect((await post('/captcha/get', { captchaType: 'blockPuzzle', clientUid: uid })).status).toBe(200);
  });

  test('failures from one address count across browsers that change their id', async () => {
    const ip = '10.7.9.9';
    for (let i = 0; i < ESCALATION.address.harderAfter; i += 1) {
      const miss = await newPuzzle({ clientUid: `rotating-id-${i}-xx` }, ip);
      expect((await check(miss, miss.x + 40, { ip })).body.repCode).toBe('6111');
    }
    const puzzle = await newPuzzle({ clientUid: 'fresh-id-never-seen' }, ip);
    expect((await check(puzzle, puzzle.x, { ip })).body.repCode).toBe('6114');
  });

  test('an account with recent wrong passwords needs a two-puzzle verification to log in', async () => {
    const account = 'attacked@example.com';
    await h.register(account, 'right-password-1');
    for (let i = 0; i < 3; i += 1) {
      expect((await h.login(account, 'wrong-password')).status).toBe(401);
    }
    // One puzzle, as a script that leaves the account out of the puzzle request gets.
    const weak = await h.captcha();
    const refused = await h.call('POST', '/web/api/login', {
      account,
      password: 'right-password-1',
      captchaVerification: weak,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('6110');
    // The login form names the account, and the chain has two puzzles.
    const strong = await h.captcha({ account });
    const res = await h.call('POST', '/web/api/login', {
      account,
      password: 'right-password-1',
      captchaVerification: strong,
    });
    expect(res.status).toBe(200);
  });
});
