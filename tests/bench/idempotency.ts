// What keeping a write by its Idempotency-Key costs (src/server/http/idempotency.ts): the same write
// (a reader keeps an article as a favourite) through the API app, with a key and without one, in
// alternating rounds of the same run, on PostgreSQL (TEST_DATABASE_URL) and on embedded PGlite.
// Printed per engine: writes per second and p50/p99 at 1 and at 16 writes at a time, and the ratio
// keyed / unkeyed (the reference).
//   TEST_DATABASE_URL=postgres://… npx node tests/bench/idempotency.ts
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { IDEMPOTENCY_HEADER } from '../../src/contract/idempotency.ts';
import { createApp } from '../../src/server/app.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { closeDatabase, useDatabase as installDatabase, openDatabase } from '../../src/server/db/client.ts';
import { accounts, articles } from '../../src/server/db/schema/index.ts';
import { resetEnv } from '../../src/server/env.ts';
import { createTestDatabaseTarget, TEST_DATABASE_URL } from '../helpers/database.ts';

const WRITES = 1500;
process.env['LOG_LEVEL'] = 'silent';
process.env['TOOLS_RUN_JOBS'] = 'false';

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

async function run(app: Hono, tokens: string[], articleIds: number[], keyed: boolean, parallel: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < WRITES) {
        const i = next++;
        const began = performance.now();
        const res = await app.request('/web/api/favorite/addArt', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'alliance-authenticate': tokens[i % tokens.length] ?? '',
            ...(keyed ? { [IDEMPOTENCY_HEADER]: randomUUID() } : {}),
          },
          body: JSON.stringify({ id: articleIds[i % articleIds.length] }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`write answered ${res.status}`);
        latencies.push(performance.now() - began);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((x, y) => x - y);
  return {
    perSecond: WRITES / seconds,
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
  } satisfies Figures;
}

async function engine(label: string, onPostgres: boolean) {
  resetEnv();
  const target = onPostgres
    ? await createTestDatabaseTarget()
    : { options: { dir: 'memory://' }, drop: async () => undefined };
  const database = await openDatabase(target.options);
  installDatabase(database);
  try {
    const db = database.db;
    const tokens: string[] = [];
    for (let i = 0; i < 200; i++) {
      const [account] = await db
        .insert(accounts)
        .values({ email: `bench-${i}@example.com` })
        .returning();
      tokens.push((await createSession(db, account?.id ?? 0, { clock: systemClock, ttlSeconds: 3600 })).token);
    }
    const made = await db
      .insert(articles)
      .values(
        Array.from({ length: 300 }, (_, i) => ({
          kind: 'news' as const,
          title: `文章 ${i}`,
          status: 'published' as const,
        })),
      )
      .returning({ id: articles.id });
    const articleIds = made.map((row) => row.id);
    const app = createApp();
    const clear = async () => {
      await db.execute(sql`delete from favorites`);
      await db.execute(sql`delete from idempotency_keys`);
    };
    await run(app, tokens, articleIds, true, 4);
    console.log(label);
    for (const parallel of [1, 16]) {
      const rounds: Record<'keyed' | 'plain', Figures[]> = { keyed: [], plain: [] };
      // Alternating rounds, each on an empty favourites table, so that both see the same load.
      for (let round = 0; round < 3; round++) {
        for (const keyed of [false, true]) {
          await clear();
          rounds[keyed ? 'keyed' : 'plain'].push(await run(app, tokens, articleIds, keyed, parallel));
        }
      }
      const median = (list: Figures[], key: keyof Figures) =>
        [...list.map((figures) => figures[key])].sort((x, y) => x - y)[1] ?? 0;
      const line = (name: 'keyed' | 'plain') =>
        `${median(rounds[name], 'perSecond').toFixed(0)}/s, p50 ${median(rounds[name], 'p50').toFixed(1)} ms, p99 ${median(rounds[name], 'p99').toFixed(1)} ms`;
      console.log(`  ${parallel} at a time: without a key ${line('plain')}; with a key ${line('keyed')}`);
      console.log(
        `    with / without: ${(median(rounds.plain, 'perSecond') / median(rounds.keyed, 'perSecond')).toFixed(2)}× the time per write`,
      );
    }
  } finally {
    await closeDatabase();
    await target.drop();
  }
}

if (TEST_DATABASE_URL) await engine('PostgreSQL (a transaction per keyed write)', true);
await engine('PGlite (the answer kept after the write)', false);
process.exit(0);
