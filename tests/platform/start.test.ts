import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SECURITY_HEADERS } from '../../src/server/http/security-headers.ts';

// These tests run `npm start`'s script as a user would, on a fresh data folder with the fixture fonts.
// `npm test` builds first, so the server starts from the existing build.

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(extraEnv: Record<string, string>): Started {
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      FONT_SEED: 'fixtures',
      DATABASE_URL: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

async function waitFor(started: Started, pattern: RegExp, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(started.output())) {
    if (started.child.exitCode !== null) throw new Error(`server exited early:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-start-'));
const running: Started[] = [];
afterAll(() => {
  for (const started of running) started.child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  test('stops at once with a message naming a bad variable', async () => {
    const started = startServer({ PORT: 'eighty', DATA_DIR: dataDir });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/Invalid configuration:\n {2}PORT: /);
  });

  test('migrates, seeds and serves, refuses a second process, and closes cleanly on SIGTERM', async () => {
    const port = await freePort();
    const first = startServer({ PORT: String(port), DATA_DIR: dataDir });
    running.push(first);
    await waitFor(first, new RegExp(`造字联盟官网 is ready at http://localhost:${port}\\n`));

    const home = await fetch(`http://localhost:${port}/`);
    expect(home.status).toBe(200);
    // Every kind of answer carries the security headers: a page, an API read, an asset, a 404.
    const asset = /\/_astro\/[^"]+\.css/.exec(await home.text())?.[0] ?? '/favicon.svg';
    for (const answerPath of ['/', '/web/api/fontOverride/getFontList', asset, '/no/such/page', '/healthz']) {
      const answer = await fetch(`http://localhost:${port}${answerPath}`);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(answer.headers.get(name), `${name} on ${answerPath}`).toBe(value);
      }
      expect(answer.headers.get('content-security-policy'), answerPath).toContain("object-src 'none'");
    }
    // Stored files are sandboxed: nothing in one runs, even opened as a document, nor is framed.
    const file = await fetch(`http://localhost:${port}/files/no-such-file.svg`);
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(file.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Pages are read, never written to; TRACE is answered nowhere. Both are refused before any code runs.
    for (const [method, target, allow] of [
      ['POST', '/help', 'GET, HEAD'],
      ['PUT', '/font', 'GET, HEAD'],
      ['DELETE', '/', 'GET, HEAD'],
      ['TRACE', '/', 'GET, HEAD'],
      ['TRACE', '/web/api/fontOverride/getFontList', 'GET, HEAD, POST, PUT, PATCH, DELETE'],
    ] as const) {
      const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.request({ host: 'localhost', port, path: target, method }, resolve).on('error', reject).end(),
      );
      answer.resume();
      expect([method, target, answer.statusCode, answer.headers['allow']]).toEqual([method, target, 405, allow]);
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
    const list = (await (await fetch(`http://localhost:${port}/web/api/fontOverride/getFontList`)).json()) as {
      data: { total: number };
    };
    expect(list.data.total).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(true);

    const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir });
    running.push(second);
    // Refused, not queued behind the lock: a second process that waited would hang to the test's timeout.
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by process ${first.child.pid}`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'db.lock'))).toBe(false);

    // The data survives: a restart on the same folder finds the seeded fonts without seeding again.
    const third = startServer({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    running.push(third);
    await waitFor(third, /is ready at/);
    // Once ready, the server asks for a puzzle itself: the backgrounds every puzzle is cut from are
    // drawn then, not while the first visitor to log in waits.
    await waitFor(third, /"method":"POST","path":"\/captcha\/get","status":200/);
    const again = (await (await fetch(`http://localhost:${port}/web/api/fontOverride/getFontList`)).json()) as {
      data: { total: number };
    };
    expect(again.data.total).toBe(list.data.total);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 300_000);

  test('the built server runs from another working directory', async () => {
    // The folder seeded above; the server is the adapter's own entry, started from the temp folder.
    const port = await freePort();
    const child = spawn(process.execPath, [path.resolve('dist/server/entry.mjs')], {
      cwd: os.tmpdir(),
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const server: Started = { child, output: () => text, exited };
    running.push(server);
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const answer = await fetch(`${base}/healthz`).catch(() => undefined);
      if (answer?.ok) break;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`built server did not start:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A page, the database, the seed content folder and a worker thread (the live preview subset).
    expect((await fetch(`${base}/font/noto-sans-sc`)).status).toBe(200);
    expect((await fetch(`${base}/news`)).status).toBe(200);
    const preview = await fetch(`${base}/webfont/http`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ gno: 'noto-sans-sc-400', text: '永和九年' }]),
    });
    const [item] = ((await preview.json()) as { data: Array<{ woffPath: string }> }).data;
    expect((await fetch(`${base}${item?.woffPath}`)).status).toBe(200);

    // An API client without a browser uploads with a plain multipart POST (no Origin header)…
    const form = new FormData();
    const ttf = fs.readFileSync(path.resolve('tests/fixtures/tools/NotoSansSC-Features.ttf'));
    form.append('file', new Blob([ttf]), 'font.ttf');
    const upload = await fetch(`${base}/tools/api/upload`, { method: 'POST', body: form });
    expect(upload.status).toBe(200);
    // A tool worker thread, started as the built server starts it: below its thread, from the source tree.
    const { fileId } = ((await upload.json()) as { data: { fileId: string } }).data;
    const pixel = await fetch(`${base}/tools/api/pixel/preview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: { fileId }, options: { grid: 16 }, text: '永' }),
    });
    expect(pixel.status, await pixel.clone().text()).toBe(200);
    // …while a write that leans on the login cookie from another site is refused, API or page.
    const crossSite = { origin: 'https://evil.example', cookie: `token=${'a'.repeat(64)}` };
    const api = await fetch(`${base}/web/api/collection/add`, {
      method: 'POST',
      headers: { ...crossSite, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '收藏夹' }),
    });
    expect(api.status).toBe(403);
    const page = await fetch(`${base}/editor/news/new`, {
      method: 'POST',
      headers: { ...crossSite, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=x',
      redirect: 'manual',
    });
    expect(page.status).toBe(403);
    child.kill('SIGTERM');
    await exited;
  }, 120_000);
});
