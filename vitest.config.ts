import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// With TEST_DATABASE_URL set (CI starts a PostgreSQL server), the database suite runs twice: once
// on embedded PGlite like everything else, once on PostgreSQL, so both engines pass the same tests.
const postgres = process.env['TEST_DATABASE_URL'] || '';

// Time limits here only stop a test that hangs: no test is judged by how long it takes (timings are
// benchmarks, in tests/bench/). On a 2-core machine shared with other work, a database set-up or a
// font job that takes a second alone can take a minute, and must still pass.
const shared = {
  testTimeout: 300_000,
  hookTimeout: 300_000,
  // expect.poll waits for a state to hold; its default of one second is a wall-clock bound that a
  // busy machine misses (a connection not yet accepted). It returns as soon as the state holds.
  expect: { poll: { timeout: 120_000 } },
  // PGlite and the durability tests spawn processes and hold WASM heaps; forks isolate them.
  pool: 'forks',
} as const;
const env = { LOG_LEVEL: 'silent', NODE_ENV: 'test' };

/**
 * Files that start whole servers (tests/platform: `npm start` itself; tests/db: nodes, PostgreSQL,
 * nginx) first, of every project, then Vitest's own order. They spend most of their time waiting on
 * the processes they start, so they overlap well with the rest; run last (Vitest runs one project's
 * files after the other's, and a fresh clone has no record of durations) they left one of them
 * running alone for a minute.
 */
class ServersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const startsServers = (file: TestSpecification) => /[/\\]tests[/\\](platform|db)[/\\]/.test(file.moduleId);
    return (await super.sort(files)).sort((a, b) => Number(startsServers(b)) - Number(startsServers(a)));
  }
}

export default defineConfig({
  test: {
    // Two files at once even on two cores (Vitest's default there is one): half of a file's time is
    // loading the server's modules, and much of the rest waits for workers, child processes and
    // sockets. Each file has its own database, data folder and ports. A third took as much from the
    // browser journeys beside it as it gave.
    maxWorkers: 2,
    sequence: { sequencer: ServersFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'pglite',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', 'tests/bench/**', 'node_modules/**'],
          env: { ...env, TEST_DATABASE_URL: '' },
        },
      },
      ...(postgres
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                include: ['tests/db/**/*.test.ts'],
                // PGlite's own lock and crash safety; a PostgreSQL server provides both itself.
                exclude: ['tests/db/pglite-durability.test.ts'],
                env: { ...env, TEST_DATABASE_URL: postgres },
              },
            },
          ]
        : []),
    ],
  },
});
