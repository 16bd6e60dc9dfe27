import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { PixelProjectData } from '../../../contract/tools.ts';
import { accounts } from './accounts.ts';

/**
 * A saved pixel-font project (像素字体项目): the source font, the drawing options, the characters,
 * names and every hand-edited glyph, so a signed-in user can reopen it and make the font again.
 */
export const pixelProjects = pgTable(
  'pixel_projects',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    data: jsonb('data').$type<PixelProjectData>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pixel_projects_account_updated_idx').on(t.accountId, t.updatedAt)],
);
