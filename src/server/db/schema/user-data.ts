import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import type { FontGroupType } from '../../../contract/content.ts';
import type { NotificationType } from '../../../contract/messages.ts';
import { accounts } from './accounts.ts';
import { fontGroups } from './albums.ts';
import { articles } from './content.ts';
import { fontFamilies, fonts } from './fonts.ts';

/**
 * A message to one user (notify), unread until `readAt` is set. Announcements to everyone are
 * written as one row per account, so reading state and paging are the same for every type.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').$type<NotificationType>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    // A path on this site the message leads to (a submission, the contact board), or null.
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('notifications_type_check', sql`${t.type} in ('system', 'review', 'service', 'reply', 'announcement')`),
    index('notifications_account_type_created_idx').on(t.accountId, t.type, t.createdAt),
    index('notifications_unread_idx').on(t.accountId).where(sql`${t.readAt} is null`),
  ],
);

/** A user's named group of favourite fonts (collection/add, update, delete). */
export const favoriteGroups = pgTable(
  'favorite_groups',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('favorite_groups_account_id_idx').on(t.accountId)],
);

/** The families in a favourite group (collection/addFont, deleteFont). */
export const favoriteGroupFonts = pgTable(
  'favorite_group_fonts',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => favoriteGroups.id, { onDelete: 'cascade' }),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.familyId] }), index('favorite_group_fonts_family_id_idx').on(t.familyId)],
);

/** What a user may keep among favourites. */
export const FAVORITE_TARGETS = ['font', 'group', 'article'] as const;
/** One kind of favourite. */
export type FavoriteTarget = (typeof FAVORITE_TARGETS)[number];

/**
 * Everything a user keeps among favourites, one row each: a family (the star button), an album or
 * collection, or an article. Each kind has its own column with a real foreign key, so deleting what
 * a favourite points at deletes the favourite; a check keeps exactly the target's column set.
 */
export const favorites = pgTable(
  'favorites',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    target: text('target').$type<FavoriteTarget>().notNull(),
    familyId: integer('family_id').references(() => fontFamilies.id, { onDelete: 'cascade' }),
    groupKind: text('group_kind').$type<FontGroupType>(),
    groupId: integer('group_id'),
    articleId: integer('article_id').references(() => articles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'favorites_target_check',
      sql`(${t.target} = 'font' and ${t.familyId} is not null and ${t.groupId} is null and ${t.articleId} is null)
        or (${t.target} = 'group' and ${t.groupKind} is not null and ${t.groupId} is not null and ${t.familyId} is null and ${t.articleId} is null)
        or (${t.target} = 'article' and ${t.articleId} is not null and ${t.familyId} is null and ${t.groupId} is null)`,
    ),
    foreignKey({ columns: [t.groupKind, t.groupId], foreignColumns: [fontGroups.kind, fontGroups.id] }).onDelete(
      'cascade',
    ),
    unique('favorites_once')
      .on(t.accountId, t.target, t.familyId, t.groupKind, t.groupId, t.articleId)
      .nullsNotDistinct(),
    index('favorites_account_target_idx').on(t.accountId, t.target, t.createdAt),
    index('favorites_family_id_idx').on(t.familyId),
    index('favorites_article_id_idx').on(t.articleId),
  ],
);

/**
 * One download of a family or of one of its child fonts. Visitors' downloads are kept too
 * (no account) so that popularity counts and per-IP limits see them.
 */
export const downloadHistory = pgTable(
  'download_history',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    fontId: integer('font_id').references(() => fonts.id, { onDelete: 'set null' }),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
  },
  (t) => [
    index('download_history_account_created_idx').on(t.accountId, t.createdAt),
    index('download_history_family_id_idx').on(t.familyId),
  ],
);
