import { defineConfig } from 'vitest/config';

// With TEST_DATABASE_URL set (CI starts a PostgreSQL server), the database suite runs twice: once
// on embedded PGlite like everything else, once on PostgreSQL, so both engines pass the same tests.
const postgres = process.env['TEST_DATABASE_URL'] || '';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'tests/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    // PGlite and the durability tests spawn processes and hold WASM heaps; forks isolate them.
    pool: 'forks',
    env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    projects: [
      { extends: true, test: { name: 'pglite', env: { TEST_DATABASE_URL: '' } } },
      ...(postgres
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: ['tests/db/**/*.test.ts'],
                // PGlite's own lock and crash safety; a PostgreSQL server provides both itself.
                exclude: ['tests/db/pglite-durability.test.ts'],
                env: { TEST_DATABASE_URL: postgres },
              },
            },
          ]
        : []),
    ],
  },
});
