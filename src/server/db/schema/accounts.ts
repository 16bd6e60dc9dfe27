import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** The roles an account can hold; visitors have no account at all. */
export const ACCOUNT_ROLES = ['user', 'editor', 'admin'] as const;
/** A role an account can hold. */
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Channels a one-time code is sent through. */
export const CODE_CHANNELS = ['sms', 'email'] as const;
/** A channel a one-time code is sent through. */
export type CodeChannel = (typeof CODE_CHANNELS)[number];

// What a one-time code may be used for; a code works only for the purpose it was sent for.
import type { CodePurpose } from '../../../contract/accounts.ts';

export { CODE_PURPOSES } from '../../../contract/accounts.ts';
export type { CodePurpose };

/** A registered user, reached by mobile number, e-mail or WeChat (at least one of them). */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    mobile: text('mobile').unique(),
    // Stored lower-case so that the unique constraint also catches case variants.
    email: text('email').unique(),
    passwordHash: text('password_hash'),
    nickname: text('nickname').notNull().default(''),
    avatarKey: text('avatar_key'),
    role: text('role').$type<AccountRole>().notNull().default('user'),
    // WeChat identifies a person by unionid when the app belongs to an Open Platform account and
    // by openid otherwise; an account is keyed on the first of the two that WeChat sends.
    wechatUnionid: text('wechat_unionid').unique(),
    wechatOpenid: text('wechat_openid').unique(),
    wechatNickname: text('wechat_nickname'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    // The user asked for a copy of each site message at their e-mail address.
    notifyByEmail: boolean('notify_by_email').notNull().default(false),
  },
  (t) => [
    check('accounts_role_check', sql`${t.role} in ('user', 'editor', 'admin')`),
    check('accounts_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

/** A login session; the id is the SHA-256 hex of the token, so a stolen table leaks no tokens. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_account_id_idx').on(t.accountId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

/** A code sent by SMS or e-mail for login, registration, password reset or binding; only its hash is kept. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: serial('id').primaryKey(),
    channel: text('channel').$type<CodeChannel>().notNull(),
    // The mobile number or lower-case e-mail the code was sent to.
    target: text('target').notNull(),
    purpose: text('purpose').$type<CodePurpose>().notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
  },
  (t) => [
    check('one_time_codes_channel_check', sql`${t.channel} in ('sms', 'email')`),
    check('one_time_codes_purpose_check', sql`${t.purpose} in ('login', 'register', 'reset', 'bind')`),
    // Verification looks up the newest code for a target and purpose; rate limits count by target.
    index('one_time_codes_target_idx').on(t.channel, t.target, t.purpose, t.createdAt),
    index('one_time_codes_ip_idx').on(t.ip, t.createdAt),
  ],
);

/** What a WeChat authorisation started for: signing in, or binding WeChat to a signed-in account. */
export const WECHAT_STATE_MODES = ['login', 'bind'] as const;
/** What a WeChat authorisation started for. */
export type WechatStateMode = (typeof WECHAT_STATE_MODES)[number];

/**
 * An OAuth `state` handed to WeChat, kept until the callback uses it once. The id is the SHA-256
 * hex of the state; the browser holds the state itself in a short-lived cookie.
 */
export const wechatStates = pgTable(
  'wechat_states',
  {
    id: text('id').primaryKey(),
    mode: text('mode').$type<WechatStateMode>().notNull(),
    // The account that asked to bind WeChat (mode 'bind' only).
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    // The page to return to afterwards: a path on this site.
    redirect: text('redirect').notNull().default('/'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('wechat_states_mode_check', sql`${t.mode} in ('login', 'bind')`),
    index('wechat_states_expires_at_idx').on(t.expiresAt),
  ],
);
