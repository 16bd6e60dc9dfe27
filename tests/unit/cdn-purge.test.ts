import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LocalBus } from '../../src/server/cluster/bus.ts';
import { type Purge, purgeEverywhere } from '../../src/server/content/changes.ts';
import { resetEnv } from '../../src/server/env.ts';
import { AnswerCache } from '../../src/server/http/answer-cache.ts';
import { PageCache } from '../../src/server/isr/page-cache.ts';

// CDN_PURGE_URL hears every content change with the cache keys the CDN must purge; a local server
// stands for the adapter in front of the CDN's purge API.

let server: http.Server;
let root: string;
const bodies: Array<(body: unknown) => void> = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdn-purge-'));
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.end('ok');
      bodies.shift()?.({
        method: req.method,
        type: req.headers['content-type'],
        body: JSON.parse(String(Buffer.concat(chunks))),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env['CDN_PURGE_URL'] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/purge`;
  resetEnv();
});
afterAll(async () => {
  delete process.env['CDN_PURGE_URL'];
  resetEnv();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

/** Purges on a node of its own and answers what the CDN adapter was sent. */
async function purgeAndHear(purge: Purge): Promise<unknown> {
  const heard = new Promise((resolve) => bodies.push(resolve));
  const targets = { pages: new PageCache(path.join(root, 'pages')), answers: new AnswerCache() };
  await purgeEverywhere(purge, { bus: new LocalBus(), node: 'node-a', targets });
  return heard;
}

describe('CDN purge hook', () => {
  test('a change of one section purges its key and the answers that show every section', async () => {
    expect(await purgeAndHear({ section: 'news' })).toEqual({
      method: 'POST',
      type: 'application/json',
      body: { keys: ['news', 'api-every-section'] },
    });
  });

  test('a change of everything purges every page and answer', async () => {
    expect(await purgeAndHear({ section: 'all' })).toMatchObject({ body: { keys: ['pages', 'api'] } });
  });
});
