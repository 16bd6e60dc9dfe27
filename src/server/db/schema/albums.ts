import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import type { FontGroupType } from '../../../contract/content.ts';
import type { PublicationStatus } from './content.ts';
import { fontFamilies } from './fonts.ts';

/** Numbers new albums and collections: one series for both, above every number either had before. */
export const fontGroupIdSeq = pgSequence('font_group_id_seq');

/**
 * A curated group of families: an album (专辑, SPEC web-font-collection, downloadable as one zip) or
 * a collection (合集, heji). Both have one shape and one table, told apart by `kind`. An item is
 * named by its kind and number (/album/3 and /heji/3 are two items), as the site's addresses always
 * have been; new items take numbers from one sequence, so their numbers are unique across kinds.
 */
export const fontGroups = pgTable(
  'font_groups',
  {
    kind: text('kind').$type<FontGroupType>().notNull(),
    id: integer('id').notNull().default(sql`nextval('font_group_id_seq')`),
    // The file name of a seeded item (src/server/db/seed/content/<kind>/<slug>.md); null for editors' own.
    slug: text('slug'),
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
    primaryKey({ columns: [t.kind, t.id] }),
    check('font_groups_kind_check', sql`${t.kind} in ('album', 'heji')`),
    check('font_groups_status_check', sql`${t.status} in ('draft', 'published')`),
    index('font_groups_kind_status_sort_idx').on(t.kind, t.status, t.sort, t.publishedAt),
    unique('font_groups_kind_slug_unique').on(t.kind, t.slug),
  ],
);

/** The families in an album or collection, in display order. */
export const fontGroupFonts = pgTable(
  'font_group_fonts',
  {
    kind: text('kind').$type<FontGroupType>().notNull(),
    groupId: integer('group_id').notNull(),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.groupId, t.familyId] }),
    foreignKey({ columns: [t.kind, t.groupId], foreignColumns: [fontGroups.kind, fontGroups.id] }).onDelete('cascade'),
    index('font_group_fonts_family_id_idx').on(t.familyId),
  ],
);

/** A customer case (web-font-case): a client's work shown with the family it used. */
export const cases = pgTable(
  'cases',
  {
    id: serial('id').primaryKey(),
    // The file name of a seeded case (src/server/db/seed/content/case/<slug>.md); null for editors' own.
    slug: text('slug').unique(),
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
