import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import type { ArticleKind } from '../../../contract/content.ts';
import { ARTICLE_KINDS } from '../../../contract/content.ts';

export { ARTICLE_KINDS, type ArticleKind };

/** Whether editorial content is visible on the site. */
export const PUBLICATION_STATUSES = ['draft', 'published'] as const;
/** Whether editorial content is visible on the site. */
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];

/** A tag, namespaced by kind (e.g. 'baike' groups encyclopedia entries, 'news' labels news). */
export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [unique('tags_kind_name_unique').on(t.kind, t.name)],
);

/** An article of any kind; `tagId` is the one grouping tag baike lists by. */
export const articles = pgTable(
  'articles',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<ArticleKind>().notNull(),
    slug: text('slug').unique(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    bodyHtml: text('body_html').notNull().default(''),
    coverKey: text('cover_key'),
    author: text('author'),
    source: text('source'),
    tagId: integer('tag_id').references(() => tags.id, { onDelete: 'set null' }),
    status: text('status').$type<PublicationStatus>().notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    views: integer('views').notNull().default(0),
    videoUrl: text('video_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('articles_kind_check', sql`${t.kind} in ('news', 'baike', 'zixun')`),
    check('articles_status_check', sql`${t.status} in ('draft', 'published')`),
    // Every public list is "published articles of one kind, newest first"; Postgres scans this
    // ascending index backwards for ORDER BY published_at DESC.
    index('articles_kind_status_published_idx').on(t.kind, t.status, t.publishedAt),
    index('articles_tag_id_idx').on(t.tagId),
  ],
);

/** Further tags on an article, beyond its grouping tag. */
export const articleTags = pgTable(
  'article_tags',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.tagId] }), index('article_tags_tag_id_idx').on(t.tagId)],
);
