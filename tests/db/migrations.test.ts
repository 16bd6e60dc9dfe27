import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, test } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import {
  createTestDatabaseTarget,
  queryRows,
  TEST_DATABASE_URL,
  type TestDatabaseTarget,
} from '../helpers/database.ts';

const schemaTables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table).name)
  .sort();

const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

/** A folder holding the migrations as they stood before the one tagged `tag`; removed by the caller. */
function migrationsBefore(tag: string): string {
  const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-before-'));
  const entries = (journal.entries as Array<{ tag: string }>).filter((entry) => entry.tag < tag);
  fs.mkdirSync(path.join(before, 'meta'));
  fs.writeFileSync(path.join(before, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries)
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(before, `${entry.tag}.sql`));
  return before;
}

describe('openDatabase migrations', () => {
  let target: TestDatabaseTarget | undefined;
  afterEach(async () => {
    await target?.drop();
    target = undefined;
  });

  test('creates every table the schema declares', async () => {
    target = await createTestDatabaseTarget();
    const database = await openDatabase(target.options);
    try {
      const rows = await queryRows<{ table_name: string }>(
        database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      expect(schemaTables.length).toBeGreaterThan(25);
      expect(rows.map((row) => row.table_name).sort()).toEqual(schemaTables);
    } finally {
      await database.close();
    }
  });

  test('applies each migration once and keeps the data when the database is opened again', async () => {
    target = await createTestDatabaseTarget({ onDisk: true });
    const first = await openDatabase(target.options);
    try {
      await first.db.insert(schema.keywords).values({ word: '楷书', weight: 3 });
    } finally {
      await first.close();
    }

    const second = await openDatabase(target.options);
    try {
      const keywords = await second.db.select().from(schema.keywords);
      expect(keywords.map((row) => row.word)).toEqual(['楷书']);
      const applied = await queryRows<{ count: string | number }>(
        second.db,
        sql`select count(*) as count from drizzle.__drizzle_migrations`,
      );
      expect(Number(applied[0]?.count)).toBe(journal.entries.length);
    } finally {
      await second.close();
    }
  });

  test('moves albums, collections and every favourite into the shared tables, keeping their numbers', async () => {
    target = await createTestDatabaseTarget({ onDisk: true });
    // The migrations as they stood before albums and collections shared one table.
    const before = migrationsBefore('0002');

    const old = await openDatabase({ ...target.options, migrationsFolder: before });
    try {
      await old.db.execute(sql`insert into accounts (id, email) values (1, 'a@example.com')`);
      await old.db.execute(sql`insert into font_families (id, gno, name_zh, name_en, category, script, license, license_text)
        values (1, 'noto-sans-sc', '思源黑体', 'Noto Sans SC', '黑体', '简体', 'OFL-1.1', 'OFL')`);
      await old.db.execute(sql`insert into articles (id, kind, title) values (5, 'news', '新闻')`);
      await old.db.execute(
        sql`insert into albums (id, title, status) values (1, '黑体专辑', 'published'), (2, '草稿', 'draft')`,
      );
      await old.db.execute(sql`insert into collections (id, title, status) values (1, '书法合集', 'published')`);
      await old.db.execute(sql`insert into album_fonts (album_id, family_id, sort) values (1, 1, 0)`);
      await old.db.execute(sql`insert into collection_fonts (collection_id, family_id, sort) values (1, 1, 3)`);
      await old.db.execute(sql`insert into favorite_fonts (account_id, family_id) values (1, 1)`);
      await old.db.execute(sql`insert into favorite_albums (account_id, album_id) values (1, 1)`);
      await old.db.execute(sql`insert into favorite_articles (account_id, article_id) values (1, 5)`);
    } finally {
      await old.close();
      fs.rmSync(before, { recursive: true, force: true });
    }

    const migrated = await openDatabase(target.options);
    try {
      const groups = await migrated.db
        .select()
        .from(schema.fontGroups)
        .orderBy(schema.fontGroups.kind, schema.fontGroups.id);
      expect(groups.map((row) => [row.kind, row.id, row.title, row.status])).toEqual([
        ['album', 1, '黑体专辑', 'published'],
        ['album', 2, '草稿', 'draft'],
        ['heji', 1, '书法合集', 'published'],
      ]);
      const members = await migrated.db.select().from(schema.fontGroupFonts).orderBy(schema.fontGroupFonts.kind);
      expect(members.map((row) => [row.kind, row.groupId, row.familyId, row.sort])).toEqual([
        ['album', 1, 1, 0],
        ['heji', 1, 1, 3],
      ]);
      const kept = await migrated.db.select().from(schema.favorites).orderBy(schema.favorites.target);
      expect(kept.map((row) => [row.target, row.familyId, row.groupKind, row.groupId, row.articleId])).toEqual([
        ['article', null, null, null, 5],
        ['font', 1, null, null, null],
        ['group', null, 'album', 1, null],
      ]);
      // New items are numbered past every number either kind had.
      const [next] = await migrated.db.insert(schema.fontGroups).values({ kind: 'heji', title: '新合集' }).returning();
      expect(next?.id).toBe(3);
      const tables = await queryRows<{ table_name: string }>(
        migrated.db,
        sql`select table_name from information_schema.tables where table_name in ('albums', 'collections', 'favorite_fonts')`,
      );
      expect(tables).toEqual([]);
    } finally {
      await migrated.close();
    }
  });

  test('keeps one of each item that nodes starting together seeded twice, and readers keep their favourites', async () => {
    target = await createTestDatabaseTarget({ onDisk: true });
    // The migrations as they stood before seeded items had keys of their own.
    const before = migrationsBefore('0014');
    const old = await openDatabase({ ...target.options, migrationsFolder: before });
    try {
      await old.db.execute(sql`insert into accounts (id, email) values (1, 'a@example.com'), (2, 'b@example.com')`);
      // Two nodes seeded the album 'reading' and the case 'museum'; an editor made album 7 and case 9.
      await old.db.execute(sql`insert into font_groups (kind, id, title, cover_key) values
        ('album', 1, '正文', 'covers/album/reading-0123456789ab.webp'),
        ('album', 2, '正文', 'covers/album/reading-0123456789ab.webp'),
        ('heji', 3, '正文', 'covers/heji/reading-0123456789ab.webp'),
        ('album', 7, '编辑的专辑', 'covers/album/item-7-0123456789ab.webp')`);
      await old.db.execute(sql`insert into cases (id, title, cover_key) values
        (1, '博物馆', 'covers/case/museum-0123456789ab.webp'), (2, '博物馆', 'covers/case/museum-0123456789ab.webp'),
        (9, '编辑的案例', 'covers/case/item-9-0123456789ab.webp')`);
      // Reader 1 kept both copies of the album, reader 2 only the second.
      await old.db.execute(sql`insert into favorites (id, account_id, target, group_kind, group_id) values
        (1, 1, 'group', 'album', 2), (2, 1, 'group', 'album', 1), (3, 2, 'group', 'album', 2)`);
      for (const table of ['friend_links', 'promotions', 'ads', 'columns', 'contribute_templates']) {
        const row = {
          friend_links: sql`insert into friend_links (name, url) values ('字库', 'https://example.com')`,
          promotions: sql`insert into promotions (title) values ('开学季')`,
          ads: sql`insert into ads (position, title) values ('home', '横幅')`,
          columns: sql`insert into columns (type, name, path) values ('header', '字体', '/font')`,
          contribute_templates: sql`insert into contribute_templates (type, title) values ('1', '协议')`,
        }[table];
        if (row) for (let copy = 0; copy < 3; copy++) await old.db.execute(row);
      }
    } finally {
      await old.close();
      fs.rmSync(before, { recursive: true, force: true });
    }

    const migrated = await openDatabase(target.options);
    try {
      const groups = await migrated.db
        .select()
        .from(schema.fontGroups)
        .orderBy(schema.fontGroups.kind, schema.fontGroups.id);
      expect(groups.map((row) => [row.kind, row.id, row.slug])).toEqual([
        ['album', 1, 'reading'],
        ['album', 7, null],
        ['heji', 3, 'reading'],
      ]);
      const cases = await migrated.db.select().from(schema.cases).orderBy(schema.cases.id);
      expect(cases.map((row) => [row.id, row.slug])).toEqual([
        [1, 'museum'],
        [9, null],
      ]);
      const favorites = await migrated.db.select().from(schema.favorites).orderBy(schema.favorites.accountId);
      expect(favorites.map((row) => [row.accountId, row.groupKind, row.groupId])).toEqual([
        [1, 'album', 1],
        [2, 'album', 1],
      ]);
      for (const table of ['friend_links', 'promotions', 'ads', 'columns', 'contribute_templates']) {
        const rows = await queryRows<{ n: string | number }>(
          migrated.db,
          sql`select count(*) as n from ${sql.identifier(table)}`,
        );
        expect(Number(rows[0]?.n), table).toBe(1);
      }
      // The keys now hold: a second copy of a seeded item is refused.
      await expect(migrated.db.insert(schema.cases).values({ title: '博物馆', slug: 'museum' })).rejects.toThrow();
    } finally {
      await migrated.close();
    }
  });

  // Skipped without PostgreSQL (TEST_DATABASE_URL, which .ci/run sets): several servers must share one
  // database. PGlite needs no such test: its folder belongs to one process, which its lock file enforces.
  test.skipIf(!TEST_DATABASE_URL)(
    'several servers starting at once over one new database migrate it once',
    async () => {
      const shared = await createTestDatabaseTarget();
      target = shared;
      const nodes = await Promise.all([1, 2, 3].map(() => openDatabase(shared.options)));
      try {
        for (const node of nodes) {
          const applied = await queryRows<{ count: string | number }>(
            node.db,
            sql`select count(*) as count from drizzle.__drizzle_migrations`,
          );
          expect(Number(applied[0]?.count)).toBe(journal.entries.length);
        }
      } finally {
        await Promise.all(nodes.map((node) => node.close()));
      }
    },
  );

  test('answers ping once open', async () => {
    target = await createTestDatabaseTarget();
    const database = await openDatabase(target.options);
    try {
      await expect(database.ping()).resolves.toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
