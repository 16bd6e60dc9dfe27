// What one rate-limit hit costs now that counters are rows in the database: hits on one key and on
// many keys, on embedded PGlite (in memory and on disk) and, with TEST_DATABASE_URL set, PostgreSQL.
// Printed per engine: mean and p99 of a hit and of a check, in ms, against the in-process limiter.
//   npx node tests/bench/shared-limiter.ts
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSharedLimiter } from '../../src/server/auth/shared-limiter.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { createTestDatabaseTarget, TEST_DATABASE_URL } from '../helpers/database.ts';
import { timeRounds } from './timings.ts';

const ROUNDS = 3000;

function figures(samples: number[]): string {
  const sorted = [...samples].sort((x, y) => x - y);
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
  return `mean ${mean.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`;
}

function time(run: (i: number) => unknown): Promise<number[]> {
  return timeRounds(ROUNDS, run);
}

async function measure(label: string, hit: (key: string) => unknown, check: (key: string) => unknown) {
  await time((i) => hit(`warm:${i % 50}`));
  console.log(`${label}`);
  console.log(`  hit, one key:      ${figures(await time(() => hit('ip:203.0.113.1')))}`);
  console.log(`  hit, new keys:     ${figures(await time((i) => hit(`ip:198.51.${i >> 8}.${i & 255}`)))}`);
  console.log(`  check:             ${figures(await time((i) => check(`ip:198.51.${i >> 8}.${i & 255}`)))}`);
}

// The reference: a counter per key in this process's memory, as the limits were counted before.
const memory = new Map<string, { count: number; endsAt: number }>();
await measure(
  'in-process (reference)',
  (key) => {
    const window = memory.get(key);
    if (!window || window.endsAt <= Date.now()) memory.set(key, { count: 1, endsAt: Date.now() + 60_000 });
    else window.count += 1;
  },
  (key) => (memory.get(key)?.count ?? 0) < 1_000_000,
);

const engines: [string, { onDisk?: boolean }][] = TEST_DATABASE_URL
  ? [['PostgreSQL', {}]]
  : [
      ['PGlite in memory', {}],
      ['PGlite on disk', { onDisk: true }],
    ];
for (const [label, options] of engines) {
  const target = await createTestDatabaseTarget(options);
  const database = await openDatabase(target.options);
  const shared = createSharedLimiter({
    name: 'bench',
    limit: 1_000_000,
    windowMs: 60_000,
    clock: systemClock,
    database: async () => database.db,
  });
  await measure(
    label,
    (key) => shared.hit(key),
    (key) => shared.check(key),
  );
  await database.close();
  await target.drop();
}
