// The embedded database in its own thread (src/server/db/embedded.ts) against PGlite on the event
// loop, the way it ran before, in one process on the same migrated schema: what a statement costs
// (a primary-key read, a one-row insert, a list of 24 families, one after another) and how long the
// event loop is held while statements run (a 1 ms timer's largest and p99 lateness, with 8 statements
// in flight at once for two seconds). The PGlite on the event loop is the reference.
//   npx node tests/bench/embedded-db.ts
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { desc, eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Db, MIGRATIONS_DIR, openDatabase } from '../../src/server/db/client.ts';
import { fontFamilies, keywords } from '../../src/server/db/schema/index.ts';
import { timeRounds } from './timings.ts';

const ROUNDS = 2000;

function figures(samples: number[]): { p50: number; p99: number; mean: number } {
  const sorted = [...samples].sort((x, y) => x - y);
  return {
    p50: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
  };
}

function time(run: (i: number) => Promise<unknown>): Promise<number[]> {
  return timeRounds(ROUNDS, run);
}

/**
 * Statements in flight for `ms`, eight at a time, while a 1 ms timer measures how late the event
 * loop lets it fire (the gaps between its firings, the last one up to the end included: a loop held
 * throughout never fires it at all).
 */
async function loopUnderLoad(db: Db, ms: number): Promise<{ max: number; p99: number; statements: number }> {
  const gaps: number[] = [];
  let last = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  const until = performance.now() + ms;
  let statements = 0;
  await Promise.all(
    Array.from({ length: 8 }, async (_, lane) => {
      for (let i = 0; performance.now() < until; i += 1) {
        await db
          .select({ id: fontFamilies.id, name: fontFamilies.nameZh })
          .from(fontFamilies)
          .orderBy(desc(fontFamilies.id))
          .limit(24);
        await db.insert(keywords).values({ word: `load-${lane}-${i}-${Math.random()}` });
        statements += 2;
      }
    }),
  );
  clearTimeout(timer);
  gaps.push(performance.now() - last);
  // A 1 ms timer's own period is not delay.
  const late = figures(gaps.map((gap) => Math.max(0, gap - 1)));
  return { max: Math.max(...gaps) - 1, p99: late.p99, statements: (statements * 1000) / ms };
}

async function measure(label: string, db: Db) {
  for (let i = 0; i < 50; i += 1) {
    await db
      .insert(fontFamilies)
      .values({
        gno: `bench-${label}-${i}`,
        nameZh: `基准字体 ${i}`,
        nameEn: `Bench ${i}`,
        category: 'sans',
        script: 'sc',
        license: 'OFL-1.1',
        licenseText: '',
      })
      .onConflictDoNothing();
  }
  const [first] = await db.select({ id: fontFamilies.id }).from(fontFamilies).limit(1);
  const id = first?.id ?? 0;
  const read = figures(await time(() => db.select().from(fontFamilies).where(eq(fontFamilies.id, id))));
  const insert = figures(await time((i) => db.insert(keywords).values({ word: `${label}-${i}` })));
  const list = figures(
    await time(() =>
      db
        .select({ id: fontFamilies.id, name: fontFamilies.nameZh })
        .from(fontFamilies)
        .orderBy(desc(fontFamilies.id))
        .limit(24),
    ),
  );
  const loop = await loopUnderLoad(db, 2000);
  await db.execute(sql`delete from keywords`);
  return { read, insert, list, loop };
}

const reference = new PGlite();
const referenceDb = drizzlePglite({ client: reference });
await migratePglite(referenceDb, { migrationsFolder: MIGRATIONS_DIR });
const threaded = await openDatabase({ dir: 'memory://' });

const runs = {
  'on the event loop (reference)': await measure('loop', referenceDb as unknown as Db),
  'in its own thread': await measure('thread', threaded.db),
};
await reference.close();
await threaded.close();

const ms = (value: number) => value.toFixed(3);
const [base, mine] = Object.values(runs);
console.log(`Embedded PGlite, ${ROUNDS} statements of each kind one after another, then 8 at a time for 2 s`);
for (const [label, run] of Object.entries(runs)) {
  console.log(`  ${label}:`);
  for (const kind of ['read', 'insert', 'list'] as const) {
    const figure = run[kind];
    const ratio = base ? figure.p50 / base[kind].p50 : 1;
    console.log(
      `    ${kind.padEnd(6)} p50 ${ms(figure.p50)} ms, p99 ${ms(figure.p99)} ms (${ratio.toFixed(2)}× the reference's p50)`,
    );
  }
  console.log(
    `    event loop under 8 at a time: largest delay ${run.loop.max.toFixed(1)} ms, p99 ${run.loop.p99.toFixed(1)} ms, ${Math.round(run.loop.statements)} statements/s`,
  );
}
if (base && mine) {
  console.log(
    `Largest event-loop delay, thread ÷ reference: ${(mine.loop.max / base.loop.max).toFixed(2)}×; statements per second ${(mine.loop.statements / base.loop.statements).toFixed(2)}×`,
  );
}
