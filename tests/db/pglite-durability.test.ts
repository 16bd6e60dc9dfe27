import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { keywords } from '../../src/server/db/schema/index.ts';

// Node 24 from node_modules: it strips the TypeScript types of the modules the child imports.
const NODE = path.resolve('node_modules/.bin/node');
const CLIENT_URL = pathToFileURL(path.resolve('src/server/db/client.ts')).href;
const SCHEMA_URL = pathToFileURL(path.resolve('src/server/db/schema/index.ts')).href;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs an ES module script in a second Node process, from the repository root like the server. */
function runScript(source: string): { child: ChildProcess; finished: Promise<Finished> } {
  const child = spawn(NODE, ['--input-type=module', '--eval', source], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const finished = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, finished };
}

// PGlite is embedded in one process, so the lock and durability are ours to provide; against a
// PostgreSQL server the server itself does both. These checks open PGlite folders of their own, so
// they run in every configuration.
describe('PGlite data folder', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  function tempDir(): string {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-durability-'));
    return path.join(root, 'db');
  }

  test('makes a second process fail instead of waiting, with a message naming the holder', async () => {
    const dir = tempDir();
    const holder = await openDatabase({ dir });
    try {
      const { finished } = runScript(`
        import { openDatabase } from ${JSON.stringify(CLIENT_URL)};
        await openDatabase({ dir: ${JSON.stringify(dir)} });
        console.log('opened');
      `);
      const result = await finished;

      expect(result.code).not.toBe(0);
      expect(result.stdout).not.toContain('opened');
      expect(result.stderr).toContain('DatabaseLockedError');
      expect(result.stderr).toContain(`is in use by process ${process.pid}`);
      // The holder is unharmed.
      await expect(holder.ping()).resolves.toBeUndefined();
    } finally {
      await holder.close();
    }
  }, 60_000);

  test('keeps every acknowledged row after the writer is killed with SIGKILL', async () => {
    const dir = tempDir();
    const { child, finished } = runScript(`
      import { openDatabase } from ${JSON.stringify(CLIENT_URL)};
      import { keywords } from ${JSON.stringify(SCHEMA_URL)};
      const database = await openDatabase({ dir: ${JSON.stringify(dir)} });
      for (let i = 0; i < 100000; i++) {
        const [row] = await database.db.insert(keywords).values({ word: 'w' + i }).returning({ id: keywords.id });
        // Writes to a pipe are synchronous on Linux, so a printed id was committed before.
        process.stdout.write(row.id + '\\n');
      }
      console.log('done');
    `);

    const acknowledged: number[] = [];
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      const onData = (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) if (/^\d+$/.test(line)) acknowledged.push(Number(line));
        if (acknowledged.length >= 40) {
          child.stdout?.off('data', onData);
          // Kill at an arbitrary moment, most likely in the middle of the next insert.
          setTimeout(
            () => {
              child.kill('SIGKILL');
              resolve();
            },
            Math.floor(Math.random() * 15),
          );
        }
      };
      child.stdout?.on('data', onData);
      finished.then((result) => reject(new Error(`writer exited before it was killed:\n${result.stderr}`)), reject);
    });
    const result = await finished;
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).not.toContain('done');

    // The dead writer's lock file is still there; opening must take it over.
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
    const reopened = await openDatabase({ dir });
    try {
      const rows = await reopened.db.select({ id: keywords.id }).from(keywords);
      const stored = new Set(rows.map((row) => row.id));
      expect(acknowledged.length).toBeGreaterThanOrEqual(40);
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      await reopened.close();
    }
  }, 60_000);

  test('lets a script that never closes the database exit once its last answer is in, not before', async () => {
    // PGlite answers from a thread of its own: it must keep the process alive while a statement is
    // out, and must not hold it open afterwards.
    const { finished } = runScript(`
      import { openDatabase } from ${JSON.stringify(CLIENT_URL)};
      const database = await openDatabase({ dir: ${JSON.stringify(tempDir())} });
      const result = await database.db.execute('select count(*)::int as n from generate_series(1, 300000)');
      console.log('counted ' + result.rows[0].n);
    `);
    const result = await finished;
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('counted 300000');
    expect(result.code).toBe(0);

    // And one that closes it sees the close through (the checkpoint runs after the last answer).
    const closing = runScript(`
      import { openDatabase } from ${JSON.stringify(CLIENT_URL)};
      const database = await openDatabase({ dir: ${JSON.stringify(path.join(root ?? '', 'closed'))} });
      await database.db.execute('select 1');
      await database.close();
      console.log('closed');
    `);
    const closed = await closing.finished;
    expect(closed.stderr).toBe('');
    expect(closed.stdout).toContain('closed');
    expect(closed.code).toBe(0);
  }, 60_000);
});
