import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Canvas } from '@napi-rs/canvas';
import type { Hono } from 'hono';
import { createApp } from '../../src/server/app.ts';
import { CaptchaService } from '../../src/server/auth/captcha.ts';
import { BACKGROUND_COUNT } from '../../src/server/auth/captcha-font.ts';
import { BackgroundSet, drawBackgrounds } from '../../src/server/auth/captcha-image.ts';
import { type ManualClock, manualClock } from '../../src/server/auth/clock.ts';
import { type AuthContext, createAuthContext, setAuthContext } from '../../src/server/auth/context.ts';
import type { CodeMessage, MessageSender, NoticeMessage } from '../../src/server/auth/messages.ts';
import { closeDatabase, type Db, useDatabase } from '../../src/server/db/client.ts';
import { resetEnv } from '../../src/server/env.ts';
import { browserEncrypt, humanTrack } from './captcha-solver.ts';
import { openTestDatabase } from './database.ts';

/** A sender that keeps what it was asked to deliver: the fake SMS or mail provider of a test. */
export interface RecordingSender extends MessageSender {
  sent: CodeMessage[];
  /** E-mail copies of site messages. */
  notices: NoticeMessage[];
  /** The code of the newest message to `to`. */
  lastCode(to: string): string;
}

/** Creates a recording sender. */
export function recordingSender(name = 'recording'): RecordingSender {
  const sent: CodeMessage[] = [];
  const notices: NoticeMessage[] = [];
  return {
    name,
    sent,
    notices,
    async send(message) {
      if (message.purpose === 'notice') notices.push(message);
      else sent.push(message);
    },
    lastCode(to) {
      const found = sent.filter((message) => message.to === to).at(-1);
      if (!found) throw new Error(`No message was sent to ${to}`);
      return found.code;
    },
  };
}

/** The site's puzzle backgrounds, noting where each puzzle's hole was cut. */
class AnswerNotingSet extends BackgroundSet {
  private readonly answers: Map<string, number>;

  constructor(backgrounds: Canvas[], answers: Map<string, number>) {
    super(backgrounds);
    this.answers = answers;
  }

  override async cut(...args: Parameters<BackgroundSet['cut']>) {
    const puzzle = await super.cut(...args);
    this.answers.set(puzzle.originalImageBase64, puzzle.x);
    return puzzle;
  }
}

/** A JSON answer of the API. */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: string; message: string; data: T };
}

/** Options of one call. */
export interface CallOptions {
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
}

/** One more server over the harness's database: an app with an auth context of its own. */
export interface AccountNode {
  app: Hono;
  ctx: AuthContext;
  call<T = unknown>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
}

/** An app with the account routes over a fresh database, a manual clock and recording senders. */
export interface AccountHarness {
  app: Hono;
  ctx: AuthContext;
  clock: ManualClock;
  db: Db;
  sms: RecordingSender;
  email: RecordingSender;
  /** The waits the login asked for, in ms; they advance the manual clock instead of taking time. */
  pauses: number[];
  dataDir: string;
  call<T = unknown>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
  /**
   * Solves a fresh captcha (every puzzle of its chain) with a hand's drag track and answers the
   * verification for the next action; `account` is named as the login form names it.
   */
  captcha(options?: { ip?: string; account?: string }): Promise<string>;
  /** Where the hole of a puzzle handed out by this harness is, read from the puzzle as it was cut. */
  answerOf(originalImageBase64: string): number;
  /** Sends a code (solving the captcha first) and answers it as the recipient reads it. */
  code(account: string, purpose: 'login' | 'register' | 'reset' | 'bind', options?: CallOptions): Promise<string>;
  /**
   * Builds another server as a second process behind the load balancer would be: the same
   * database, clock and senders, and its own auth context, captcha service and limiters.
   */
  addNode(): AccountNode;
  /** Registers an account by mobile or e-mail and answers its token. */
  register(account: string, password: string): Promise<string>;
  /** Logs in with a password (solving the captcha) and answers the raw answer. */
  login(account: string, password: string, options?: CallOptions): Promise<Answer<{ token: string; expired: number }>>;
  close(): Promise<void>;
}

/**
 * Sets up a harness; `env` adds variables before the configuration is read. With
 * `configuredSenders` messages go where the configuration says (SMTP, Aliyun or the outbox)
 * instead of to the recording senders.
 */
export async function openAccountHarness(
  env: Record<string, string> = {},
  setup: { configuredSenders?: boolean } = {},
): Promise<AccountHarness> {
  const saved = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-account-'));
  Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  resetEnv();
  const database = await openTestDatabase();
  // biome-ignore lint/correctness/useHookAtTopLevel: useDatabase is not a React hook.
  useDatabase(database);
  const clock = manualClock(Date.now());
  const sms = recordingSender('sms');
  const email = recordingSender('email');
  const pauses: number[] = [];
  const pause = async (ms: number) => {
    pauses.push(ms);
    clock.advance(ms);
  };
  // The real puzzles, cut by a set that notes each answer: the test reads where a hole is as a
  // person sees it, without depending on an image matcher being right every time.
  const answers = new Map<string, number>();
  let puzzles: Promise<BackgroundSet> | undefined;
  const newContext = () => {
    const captcha = new CaptchaService({
      clock,
      backgrounds: () => {
        puzzles ??= drawBackgrounds(BACKGROUND_COUNT, []).then((drawn) => new AnswerNotingSet(drawn, answers));
        return puzzles;
      },
    });
    return setup.configuredSenders
      ? createAuthContext({ clock, pause, captcha })
      : createAuthContext({ clock, sms, email, pause, captcha });
  };
  const ctx = newContext();
  // The app is built exactly as the site builds it; its account routes pick up this context.
  setAuthContext(ctx);
  const app = createApp();

  let calls = 0;
  const callOn =
    (app: Hono) =>
    async <T>(method: string, url: string, body?: unknown, options: CallOptions = {}): Promise<Answer<T>> => {
      const headers: Record<string, string> = { ...options.headers };
      if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
      if (options.token) headers['alliance-authenticate'] = options.token;
      const init: RequestInit = { method, headers };
      if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body);
      // Every call comes from an address of its own unless the test names one, so per-IP limits
      // only apply where a test is about them.
      calls += 1;
      const clientAddress = options.ip ?? `10.0.${Math.floor(calls / 250) % 250}.${calls % 250}`;
      const res = await app.request(url, init, { clientAddress });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Answer<T>['body'] };
    };
  const call = callOn(app);

  let captchas = 0;
  let codes = 0;
  const harness: AccountHarness = {
    app,
    ctx,
    clock,
    db: database.db,
    sms,
    email,
    pauses,
    dataDir,
    call,
    answerOf(originalImageBase64) {
      const x = answers.get(originalImageBase64);
      if (x === undefined) throw new Error('This puzzle was not handed out by the harness');
      return x;
    },
    async captcha(options = {}) {
      // Each puzzle from its own address, so that many solves in one test stay under the captcha limits.
      captchas += 1;
      const ip = options.ip ?? `10.9.${Math.floor(captchas / 250)}.${captchas % 250}`;
      const asker = { captchaType: 'blockPuzzle', ...(options.account ? { account: options.account } : {}) };
      const got = await call<never>('POST', '/captcha/get', asker, { ip });
      let data = (got.body as unknown as { repData: Record<string, string> | null }).repData;
      for (let round = 1; data; round += 1) {
        const x = harness.answerOf(data['originalImageBase64'] ?? '');
        const point = JSON.stringify({ x, y: 5 });
        const secretKey = data['secretKey'] ?? '';
        const token = data['token'] ?? '';
        const checked = await call(
          'POST',
          '/captcha/check',
          {
            captchaType: 'blockPuzzle',
            token,
            pointJson: browserEncrypt(point, secretKey),
            trackJson: browserEncrypt(JSON.stringify(humanTrack(x, captchas * 7 + round)), secretKey),
          },
          { ip },
        );
        const answer = checked.body as unknown as { repCode: string; repData: Record<string, string> | null };
        if (answer.repCode === '0000') return browserEncrypt(`${token}---${point}`, secretKey);
        if (answer.repCode !== '6114') throw new Error(`Captcha not solved: ${answer.repCode}`);
        data = answer.repData;
      }
      throw new Error('Captcha not handed out');
    },
    async code(account, purpose, options = {}) {
      const captchaVerification = await harness.captcha();
      // Each request from its own address unless told otherwise, so per-IP caps stay out of the way.
      codes += 1;
      const ip = options.ip ?? `10.8.${Math.floor(codes / 250)}.${codes % 250}`;
      const sent = await call(
        'POST',
        '/web/api/account/sendCode',
        { account, purpose, captchaVerification },
        { ...options, ip },
      );
      if (sent.status !== 200) throw new Error(`sendCode failed: ${sent.status} ${sent.body.message}`);
      const code = setup.configuredSenders ? '' : (account.includes('@') ? email : sms).lastCode(account.toLowerCase());
      // Move past the resend cooldown so the next code for the same address can be asked for.
      clock.advance(61_000);
      return code;
    },
    addNode() {
      const nodeCtx = newContext();
      setAuthContext(nodeCtx);
      const nodeApp = createApp();
      setAuthContext(ctx);
      return { app: nodeApp, ctx: nodeCtx, call: callOn(nodeApp) };
    },
    async register(account, password) {
      const isMail = account.includes('@');
      const code = await harness.code(account, 'register');
      const res = await call<{ token: string }>(
        'POST',
        `/web/api/account/register/${isMail ? 'email' : 'phone'}`,
        isMail ? { email: account, code, password } : { mobile: account, code, password },
      );
      if (res.status !== 200) throw new Error(`register failed: ${res.status} ${res.body.message}`);
      return res.body.data.token;
    },
    async login(account, password, options = {}) {
      // As the login form does, the puzzle names the account it is for.
      const captchaVerification = await harness.captcha({ account });
      return call('POST', '/web/api/login', { account, password, captchaVerification }, options);
    },
    async close() {
      setAuthContext(undefined);
      await closeDatabase();
      process.env = saved;
      resetEnv();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
