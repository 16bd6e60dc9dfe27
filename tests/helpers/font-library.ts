import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { expect } from 'vitest';
import { closeDatabase, type Db, useDatabase as installDatabase } from '../../src/server/db/client.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import { resetEnv } from '../../src/server/env.ts';
import { ApiError } from '../../src/server/http/envelope.ts';
import { openTestDatabase } from './database.ts';

/** A fixture-seeded library for one API suite: its own data folder and database. */
export interface LibraryFixture {
  db: Db;
  dataDir: string;
  close(): Promise<void>;
}

/** Seeds the fixture fonts into a fresh database and data folder; `close()` removes both. */
export async function openFixtureLibrary(prefix: string): Promise<LibraryFixture> {
  const savedEnv = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `font-alliance-${prefix}-`));
  process.env['DATA_DIR'] = dataDir;
  process.env['LOG_LEVEL'] = 'silent';
  process.env['SUBSET_WORKERS'] = '1';
  delete process.env['DOWNLOAD_URL_SECRET'];
  resetEnv();
  const database = await openTestDatabase();
  installDatabase(database);
  expect((await seedFonts({ source: 'fixtures' })).failed).toEqual([]);
  return {
    db: database.db,
    dataDir,
    close: async () => {
      await closeDatabase();
      process.env = savedEnv;
      resetEnv();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An envelope answer with its HTTP status. */
export interface Answer<T> {
  status: number;
  code: string;
  message: string;
  data: T;
}

/** Calls the app and reads the JSON envelope. */
export async function call<T>(app: Hono, url: string, init?: RequestInit): Promise<Answer<T>> {
  const res = await app.request(url, init);
  const body = (await res.json()) as Omit<Answer<T>, 'status'>;
  return { status: res.status, ...body };
}

/** A JSON request body for `call`. */
export function json(method: string, body: unknown): RequestInit {
  return { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Adds an account with only an e-mail (raw SQL, so that it works whatever columns accounts gained). */
export async function insertAccount(db: Db, email: string): Promise<number> {
  const result = (await db.execute(sql`insert into accounts (email) values (${email}) returning id`)) as unknown as {
    rows: Array<{ id: number }>;
  };
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('no account inserted');
  return Number(id);
}

/**
 * An app with only the given routes and the real app's error answers (ApiError → its status and the
 * envelope), for suites that inject a clock or a logged-in account into routes that createApp()
 * mounts with the defaults.
 */
export function routesApp(mount: (app: Hono) => void): Hono {
  const app = new Hono();
  mount(app);
  app.onError((error, c) => {
    if (error instanceof ApiError)
      return c.json({ code: error.code, message: error.message, data: null }, error.status, error.headers);
    if (error instanceof HTTPException)
      return c.json({ code: String(error.status), message: error.message, data: null }, error.status);
    throw error;
  });
  return app;
}

/**
 * Tests log in by naming the account in a header; sessions themselves are tested with the accounts.
 * `headerAccount` is the resolver routes take, `as` adds the header to a request.
 */
export const headerAccount = async (c: { req: { header(name: string): string | undefined } }) => {
  const id = c.req.header('x-test-account');
  return id ? Number(id) : null;
};

/** A request made as `account` (see headerAccount). */
export const as = (account: number, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), 'x-test-account': String(account) },
});
