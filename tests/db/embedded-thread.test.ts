import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { startEmbedded } from '../../src/server/db/embedded.ts';
import { keywords } from '../../src/server/db/schema/index.ts';
import { queryRows, sqlStateOf } from '../helpers/database.ts';

// The embedded PGlite runs in a thread of its own behind node-postgres (src/server/db/embedded.ts).
// It opens a PGlite of its own, so it runs in every configuration.
describe('embedded database thread', () => {
  let database: Database;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await openDatabase({ dir: 'memory://' });
    pool = (database.db as unknown as { $client: pg.Pool }).$client;
  }, 60_000);
  afterAll(() => database?.close());

  test('runs a statement while the event loop goes on turning', async () => {
    let turns = 0;
    let counting = true;
    const turn = () => {
      turns += 1;
      if (counting) setTimeout(turn, 1);
    };
    setTimeout(turn, 1);
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from generate_series(1, 2000000)`,
    );
    counting = false;
    expect(row?.n).toBe(2_000_000);
    // On the event loop, PGlite would hold every timer until the count was done (a turn or two).
    expect(turns).toBeGreaterThan(20);
  });

  test('keeps an error’s SQLSTATE, and the session goes on after it', async () => {
    await database.db.insert(keywords).values({ word: '字体' });
    expect(await sqlStateOf(database.db.insert(keywords).values({ word: '字体' }))).toBe('23505');
    const rows = await database.db.select({ word: keywords.word }).from(keywords);
    expect(rows.map((row) => row.word)).toEqual(['字体']);
  });

  test('a connection dropped in the middle of a transaction leaves none of its writes', async () => {
    const client = await pool.connect();
    await client.query('begin');
    await client.query('insert into keywords (word) values ($1)', ['半途']);
    // What the pool does with a client whose query failed: it ends the connection, unfinished.
    client.release(new Error('dropped'));
    const rows = await database.db.select({ word: keywords.word }).from(keywords);
    expect(rows.map((row) => row.word)).not.toContain('半途');
    await database.db.insert(keywords).values({ word: '之后' });
    expect((await database.db.select({ word: keywords.word }).from(keywords)).map((row) => row.word)).toContain('之后');
  });

  test('answers many statements at once, each its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        queryRows<{ i: number; text: string }>(
          database.db,
          sql`select ${i}::int as i, repeat('字', ${i * 100}) as text`,
        ),
      ),
    );
    answers.forEach(([row], i) => {
      expect(row?.i).toBe(i);
      expect(row?.text).toBe('字'.repeat(i * 100));
    });
  });

  test('keeps nothing of the statements it answered: its heap stays level', async () => {
    // Through execProtocolRaw PGlite also parsed each answer into a list nothing emptied: about
    // 0.75 KB a statement, 45 MB over these. Young garbage moves the figure by a few MB either way.
    const embedded = await startEmbedded({ dir: 'memory://' });
    try {
      const run = async (count: number) => {
        for (let i = 0; i < count; i += 1)
          await embedded.pool.query('select $1::int as i, repeat($2, 200) as r', [i, 'x']);
      };
      await run(2_000);
      const before = (await embedded.heapStatistics()).used_heap_size;
      await run(60_000);
      const after = (await embedded.heapStatistics()).used_heap_size;
      expect(after - before).toBeLessThan(24 * 1024 * 1024);
    } finally {
      await embedded.close();
    }
  }, 120_000);
});
