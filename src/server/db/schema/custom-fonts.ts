import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type {
  CustomFontBudget,
  CustomFontCharset,
  CustomFontKind,
  CustomFontStage,
} from '../../../contract/custom-fonts.ts';
import { accounts } from './accounts.ts';

/**
 * A request for the font-creation service (字体定制): who asks, what they want made, and the stage
 * the editors have moved it to. `uid` is the public id pages and calls use.
 */
export const customFontRequests = pgTable(
  'custom_font_requests',
  {
    id: serial('id').primaryKey(),
    uid: text('uid').notNull().unique().default(sql`gen_random_uuid()::text`),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    organisation: text('organisation').notNull(),
    contactName: text('contact_name').notNull(),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    kind: text('kind').$type<CustomFontKind>().notNull(),
    charset: text('charset').$type<CustomFontCharset>().notNull(),
    customCount: integer('custom_count'),
    weights: integer('weights').notNull().default(1),
    // 'YYYY-MM-DD' or '' (no deadline).
    deadline: text('deadline').notNull().default(''),
    budget: text('budget').$type<CustomFontBudget>().notNull(),
    description: text('description').notNull().default(''),
    stage: text('stage').$type<CustomFontStage>().notNull().default('new'),
    // The latest quote an editor gave (an amount or range), '' before one.
    quote: text('quote').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'custom_font_requests_stage_check',
      sql`${t.stage} in ('new', 'contacted', 'quoted', 'in_progress', 'delivered', 'closed')`,
    ),
    check('custom_font_requests_kind_check', sql`${t.kind} in ('brand', 'handwriting', 'restoration', 'other')`),
    index('custom_font_requests_account_created_idx').on(t.accountId, t.createdAt),
    index('custom_font_requests_stage_updated_idx').on(t.stage, t.updatedAt),
  ],
);

/** One move of a request: who made it, when, the note and, for a quote, the amount. */
export const customFontRequestEvents = pgTable(
  'custom_font_request_events',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => customFontRequests.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    stage: text('stage').$type<CustomFontStage>().notNull(),
    note: text('note').notNull().default(''),
    quote: text('quote').notNull().default(''),
    actorAccountId: integer('actor_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('custom_font_request_events_request_idx').on(t.requestId, t.createdAt)],
);

/** An attachment of a request (brand guide, handwriting sheets, page scans, fonts), checked by its bytes. */
export const customFontRequestFiles = pgTable(
  'custom_font_request_files',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => customFontRequests.id, { onDelete: 'cascade' }),
    // Under private/custom-fonts/<uid>/, never served by /files.
    fileKey: text('file_key').notNull(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    // What the bytes are: 'image', 'pdf', 'zip' or 'font'.
    type: text('type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('custom_font_request_files_request_idx').on(t.requestId)],
);
