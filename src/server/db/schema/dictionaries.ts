import { integer, pgTable, serial, text, unique } from 'drizzle-orm/pg-core';

/**
 * The font dictionary (SPEC §3): entries grouped by key (e.g. 'category', 'script', 'license'),
 * each with a dictNumber that clients compare as text, so it is stored as text.
 */
export const fontDicts = pgTable(
  'font_dicts',
  {
    id: serial('id').primaryKey(),
    dictKey: text('dict_key').notNull(),
    dictNumber: text('dict_number').notNull(),
    label: text('label').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [unique('font_dicts_key_number_unique').on(t.dictKey, t.dictNumber)],
);
