import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import type { PublicationStatus } from './content.ts';

/** A promotion (web-promotion) with an optional landing link and a time window. */
export const promotions = pgTable(
  'promotions',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    bodyHtml: text('body_html').notNull().default(''),
    coverKey: text('cover_key'),
    linkUrl: text('link_url'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    status: text('status').$type<PublicationStatus>().notNull().default('draft'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    check('promotions_status_check', sql`${t.status} in ('draft', 'published')`),
    index('promotions_status_sort_idx').on(t.status, t.sort),
    // The key seeding finds a promotion of site.json by, so that nodes starting together add it once.
    unique('promotions_title_unique').on(t.title),
  ],
);

/** A friendly link in the footer; SPEC lists them by `sort` descending. */
export const friendLinks = pgTable(
  'friend_links',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    logoKey: text('logo_key'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('friend_links_sort_idx').on(t.sort), unique('friend_links_url_unique').on(t.url)],
);

/** A navigation column (web-column) of a given type, e.g. the header or footer menu. */
export const columns = pgTable(
  'columns',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    path: text('path').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('columns_type_sort_idx').on(t.type, t.sort), unique('columns_type_path_unique').on(t.type, t.path)],
);

/** A search keyword suggested to visitors, heavier first. */
export const keywords = pgTable('keywords', {
  id: serial('id').primaryKey(),
  word: text('word').notNull().unique(),
  weight: integer('weight').notNull().default(0),
});

/** An advertisement slot entry (fontOverride/adv) shown at a named position within a time window. */
export const ads = pgTable(
  'ads',
  {
    id: serial('id').primaryKey(),
    position: text('position').notNull(),
    title: text('title').notNull().default(''),
    imageKey: text('image_key'),
    linkUrl: text('link_url'),
    sort: integer('sort').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
  },
  (t) => [
    index('ads_position_sort_idx').on(t.position, t.sort),
    unique('ads_position_title_unique').on(t.position, t.title),
  ],
);

/** A message left on the contact form (messageBoard), by a visitor or a signed-in user. */
export const messageBoard = pgTable(
  'message_board',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    contact: text('contact').notNull(),
    content: text('content').notNull(),
    ip: text('ip'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
  },
  (t) => [
    index('message_board_created_at_idx').on(t.createdAt),
    index('message_board_account_created_idx').on(t.accountId, t.createdAt),
  ],
);

/** A reply of an editor to a contact-board message; the writer reads it under /user/contact. */
export const messageBoardReplies = pgTable(
  'message_board_replies',
  {
    id: serial('id').primaryKey(),
    messageId: integer('message_id')
      .notNull()
      .references(() => messageBoard.id, { onDelete: 'cascade' }),
    editorAccountId: integer('editor_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('message_board_replies_message_created_idx').on(t.messageId, t.createdAt)],
);

/** A template text for contributors (contributeTemplate/queryByType), e.g. the licence agreement. */
export const contributeTemplates = pgTable(
  'contribute_templates',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    contentHtml: text('content_html').notNull().default(''),
  },
  (t) => [
    index('contribute_templates_type_idx').on(t.type),
    unique('contribute_templates_type_title_unique').on(t.type, t.title),
  ],
);

/**
 * The editing area's log: who changed what, and when (an article saved or published, a reply, an
 * announcement, a review decision). Kept when the editor's account goes, with the account emptied.
 */
export const editorActions = pgTable(
  'editor_actions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    // What was done, e.g. 'article.publish', 'submission.accept', 'announcement'.
    action: text('action').notNull(),
    // What it was done to, e.g. 'article:12', 'submission:<uid>'; '' for the whole site.
    target: text('target').notNull().default(''),
    // A line a person reads: the title or name of the target.
    summary: text('summary').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('editor_actions_created_idx').on(t.createdAt)],
);
