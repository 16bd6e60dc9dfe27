import path from 'node:path';
import { db } from '../db/client.ts';
import { env } from '../env.ts';
import { storage } from '../storage/index.ts';
import { createAliyunSmsSender } from './aliyun-sms.ts';
import { CaptchaService } from './captcha.ts';
import { createBackgroundSet } from './captcha-font.ts';
import type { BackgroundSet } from './captcha-image.ts';
import { type Clock, systemClock } from './clock.ts';
import { createSmtpSender, defaultMailFrom } from './mail.ts';
import type { MessageSender } from './messages.ts';
import { createOutboxSender } from './outbox.ts';
import { createSharedLimiter, type SharedLimiter } from './shared-limiter.ts';

/** The rate limiters of the account endpoints, each keyed by account, IP or both, counted in the database. */
export interface AuthLimiters {
  /** Failed re-authentications per account id (a logged-in user confirming a change). */
  loginAccount: SharedLimiter;
  /** Failed logins per account name and address together: the pair is refused past the limit. */
  loginPair: SharedLimiter;
  /** Failed logins per account name from every address: counted only, to slow further attempts. */
  loginFailures: SharedLimiter;
  /** Failed logins per IP. */
  loginIp: SharedLimiter;
  /** Registrations per IP. */
  registerIp: SharedLimiter;
  /** Code requests per IP, on top of the daily caps kept in the database. */
  sendCodeIp: SharedLimiter;
  /**
   * A code request per address being handled: one at a time on every node (reset when it ends; the
   * window only frees an address whose node died mid-request).
   */
  sendingCode: SharedLimiter;
  /** Puzzles fetched per IP. */
  captchaGetIp: SharedLimiter;
  /** Answers checked per IP. */
  captchaCheckIp: SharedLimiter;
}

/** Everything the account services share: time, captcha state, limiters and message delivery. */
export interface AuthContext {
  clock: Clock;
  captcha: CaptchaService;
  limits: AuthLimiters;
  email: MessageSender;
  sms: MessageSender;
  /** fetch for calls to WeChat (tests may point it elsewhere; the addresses come from env). */
  fetch: typeof fetch;
  /** Waits before a login attempt on an account under attack (tests record it instead). */
  pause: (ms: number) => Promise<void>;
}

/** Builds the limiters with the project's numbers (docs/accounts.md). */
export function createLimiters(clock: Clock): AuthLimiters {
  const minute = 60_000;
  const limiter = (name: keyof AuthLimiters, limit: number, windowMs: number) =>
    createSharedLimiter({ name, limit, windowMs, clock });
  return {
    loginAccount: limiter('loginAccount', 5, 15 * minute),
    loginPair: limiter('loginPair', 5, 15 * minute),
    loginFailures: limiter('loginFailures', 100_000, 15 * minute),
    loginIp: limiter('loginIp', 20, 15 * minute),
    registerIp: limiter('registerIp', 10, 60 * minute),
    sendCodeIp: limiter('sendCodeIp', 10, 10 * minute),
    sendingCode: limiter('sendingCode', 1, 30_000),
    captchaGetIp: limiter('captchaGetIp', 30, minute),
    captchaCheckIp: limiter('captchaCheckIp', 60, minute),
  };
}

/** The senders the configuration asks for: SMTP and Aliyun when set, else the local outbox. */
export function createSenders(): { email: MessageSender; sms: MessageSender } {
  const config = env();
  const outbox = createOutboxSender(path.join(config.dataDir, 'outbox'));
  const email = config.SMTP_URL
    ? createSmtpSender({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM || defaultMailFrom(config.SITE_TITLE, config.SITE_URL),
      })
    : outbox;
  const sms =
    config.ALIYUN_SMS_ACCESS_KEY_ID &&
    config.ALIYUN_SMS_ACCESS_KEY_SECRET &&
    config.ALIYUN_SMS_SIGN_NAME &&
    config.ALIYUN_SMS_TEMPLATE_CODE
      ? createAliyunSmsSender({
          accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID,
          accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET,
          signName: config.ALIYUN_SMS_SIGN_NAME,
          templateCode: config.ALIYUN_SMS_TEMPLATE_CODE,
          endpoint: config.ALIYUN_SMS_ENDPOINT,
        })
      : outbox;
  return { email, sms };
}

/** Builds a context; tests pass a manual clock or their own senders. */
export function createAuthContext(overrides: Partial<AuthContext> = {}): AuthContext {
  const clock = overrides.clock ?? systemClock;
  let backgrounds: Promise<BackgroundSet> | undefined;
  const loadBackgrounds = () => {
    backgrounds ??= (async () => createBackgroundSet(await db(), storage()))().catch((error: unknown) => {
      backgrounds = undefined;
      throw error;
    });
    return backgrounds;
  };
  const senders = overrides.email && overrides.sms ? { email: overrides.email, sms: overrides.sms } : createSenders();
  return {
    clock,
    captcha: overrides.captcha ?? new CaptchaService({ clock, backgrounds: loadBackgrounds }),
    limits: overrides.limits ?? createLimiters(clock),
    email: overrides.email ?? senders.email,
    sms: overrides.sms ?? senders.sms,
    fetch: overrides.fetch ?? ((input, init) => fetch(input, init)),
    pause: overrides.pause ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  };
}

let shared: AuthContext | undefined;

/** The process-wide context the mounted routes use (captured when createApp() builds them). */
export function authContext(): AuthContext {
  shared ??= createAuthContext();
  return shared;
}

/** Makes `ctx` the process-wide context (tests do this before createApp()); undefined starts afresh. */
export function setAuthContext(ctx: AuthContext | undefined): void {
  shared = ctx;
}
