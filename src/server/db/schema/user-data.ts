import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { albums } from './albums.ts';
import { articles } from './content.ts';
import { fontFamilies, fonts } from './fonts.ts';

/** A message to one user (notify), unread until `readAt` is set. */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_account_type_created_idx').on(t.accountId, t.type, t.createdAt)],
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

/** A family starred by a user (the star button), outside any group. */
export const favoriteFonts = pgTable(
  'favorite_fonts',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.familyId] }), index('favorite_fonts_family_id_idx').on(t.familyId)],
);

/** An album a user keeps among favourites (SPEC favoriteCollects: addColl, deleteColl). */
export const favoriteAlbums = pgTable(
  'favorite_albums',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    albumId: integer('album_id')
      .notNull()
      .references(() => albums.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.albumId] }), index('favorite_albums_album_id_idx').on(t.albumId)],
);

/** An article a user keeps among favourites (SPEC favoriteArticles: addArt, deleteArt). */
export const favoriteArticles = pgTable(
  'favorite_articles',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.articleId] }),
    index('favorite_articles_article_id_idx').on(t.articleId),
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
