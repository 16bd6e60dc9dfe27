import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { PublicationStatus } from './content.ts';
import { fontFamilies } from './fonts.ts';

/** A curated font album (SPEC web-font-collection), downloadable as one zip. */
export const albums = pgTable(
  'albums',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    descriptionHtml: text('description_html').notNull().default(''),
    coverKey: text('cover_key'),
    status: text('status').$type<PublicationStatus>().notNull().default('draft'),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    check('albums_status_check', sql`${t.status} in ('draft', 'published')`),
    index('albums_status_sort_idx').on(t.status, t.sort, t.publishedAt),
  ],
);

/** The families in an album, in display order. */
export const albumFonts = pgTable(
  'album_fonts',
  {
    albumId: integer('album_id')
      .notNull()
      .references(() => albums.id, { onDelete: 'cascade' }),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.albumId, t.familyId] }), index('album_fonts_family_id_idx').on(t.familyId)],
);

/** A themed font collection (heji, "compilation"), shaped like an album. */
export const collections = pgTable(
  'collections',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    descriptionHtml: text('description_html').notNull().default(''),
    coverKey: text('cover_key'),
    status: text('status').$type<PublicationStatus>().notNull().default('draft'),
    sort: integer('sort').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    check('collections_status_check', sql`${t.status} in ('draft', 'published')`),
    index('collections_status_sort_idx').on(t.status, t.sort, t.publishedAt),
  ],
);

/** The families in a collection, in display order. */
export const collectionFonts = pgTable(
  'collection_fonts',
  {
    collectionId: integer('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.familyId] }),
    index('collection_fonts_family_id_idx').on(t.familyId),
  ],
);

/** A customer case (web-font-case): a client's work shown with the family it used. */
export const cases = pgTable(
  'cases',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    client: text('client'),
    summary: text('summary').notNull().default(''),
    bodyHtml: text('body_html').notNull().default(''),
    coverKey: text('cover_key'),
    familyId: integer('family_id').references(() => fontFamilies.id, { onDelete: 'set null' }),
    status: text('status').$type<PublicationStatus>().notNull().default('draft'),
    sort: integer('sort').notNull().default(0),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    check('cases_status_check', sql`${t.status} in ('draft', 'published')`),
    index('cases_status_sort_idx').on(t.status, t.sort, t.publishedAt),
    index('cases_family_id_idx').on(t.familyId),
  ],
);
