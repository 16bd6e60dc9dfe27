import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDatabase, useDatabase } from '../../src/server/db/client.ts';
import { seedContent } from '../../src/server/db/seed/content-seed.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import { resetEnv } from '../../src/server/env.ts';
import { openTestDatabase, type TestDatabase } from './database.ts';

/** The Markdown files and site.json the content tests seed from. */
export const CONTENT_FIXTURES = path.resolve('tests/fixtures/content');

/** A suite's own data folder and database, seeded with the fixture fonts and content. */
export interface ContentSuite {
  dataDir: string;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * Points DATA_DIR at a temporary folder, opens a fresh database as the process database, seeds the
 * fixture fonts and (unless `content: false`) the fixture content. `close()` undoes all of it.
 */
export async function openContentSuite(options: { content?: boolean } = {}): Promise<ContentSuite> {
  const savedEnv = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-content-'));
  process.env['DATA_DIR'] = dataDir;
  process.env['LOG_LEVEL'] = 'silent';
  resetEnv();
  const database = await openTestDatabase();
  // biome-ignore lint/correctness/useHookAtTopLevel: useDatabase is not a React hook.
  useDatabase(database);
  const fonts = await seedFonts({ source: 'fixtures' });
  if (fonts.failed.length > 0) throw new Error(`fixture fonts not seeded: ${JSON.stringify(fonts.failed)}`);
  if (options.content !== false) await seedContent({ dir: CONTENT_FIXTURES });
  return {
    dataDir,
    database,
    close: async () => {
      await closeDatabase();
      process.env = savedEnv;
      resetEnv();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
