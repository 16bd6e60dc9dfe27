import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import type { PublicationStatus } from './content.ts';

/**
 * A video of the site (视频): its file, poster and Chinese captions are stored objects under
 * content-addressed keys; duration, picture size and type come from checking the file itself.
 * `slug` names the seeded videos, so seeding adds each once.
 */
export const videos = pgTable(
  'videos',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').unique(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    fileKey: text('file_key').notNull(),
    posterKey: text('poster_key').notNull(),
    captionsKey: text('captions_key'),
    durationMs: integer('duration_ms').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    status: text('status').$type<PublicationStatus>().notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('videos_status_check', sql`${t.status} in ('draft', 'published')`),
    check('videos_mime_check', sql`${t.mime} in ('video/mp4', 'video/webm')`),
    check('videos_duration_check', sql`${t.durationMs} > 0`),
    index('videos_status_published_idx').on(t.status, t.publishedAt),
  ],
);
