import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Bus, LocalBus, PostgresBus } from '../../src/server/cluster/bus.ts';
import {
  type PurgeMessage,
  type PurgeTargets,
  purgeEverywhere,
  relayPurges,
} from '../../src/server/content/changes.ts';
import { AnswerCache } from '../../src/server/http/answer-cache.ts';
import { compressBody } from '../../src/server/http/compressed.ts';
import { PageCache } from '../../src/server/isr/page-cache.ts';
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../helpers/database.ts';

// Two nodes, each with its own page cache (its own DATA_DIR) and answer cache: a change on node A
// purges node B's copies of the same pages and answers. On PostgreSQL the purge travels by
// LISTEN/NOTIFY between two connections; on PGlite there is one process and one in-memory bus.

let database: TestDatabase;
let root: string;
const buses: Bus[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'purge-relay-'));
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  await database?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The buses of two nodes over the test database. */
function twoBuses(): [Bus, Bus] {
  const url = database.target.options.url;
  if (!url) {
    const shared = new LocalBus();
    buses.push(shared);
    return [shared, shared];
  }
  const pair: [Bus, Bus] = [new PostgresBus(url), new PostgresBus(url)];
  buses.push(...pair);
  return pair;
}

/** A node's caches holding a news page, a font page and their API answers. */
async function warmNode(name: string): Promise<PurgeTargets> {
  const targets = { pages: new PageCache(path.join(root, name, 'cache', 'pages')), answers: new AnswerCache() };
  for (const pathname of ['/news/7', '/font/noto-sans-sc']) {
    const body = Buffer.from(`<p>${pathname}</p>`);
    await targets.pages.put(targets.pages.ticket(pathname), { key: pathname, contentType: 'text/html', body });
  }
  for (const [key, tag] of [
    ['/web/api/news/7', 'news'],
    ['/web/api/font/1', 'font'],
  ] as const) {
    targets.answers.store(targets.answers.ticket([tag]), {
      ...(await compressBody(Buffer.from('{"code":"200"}'))),
      key,
      tags: [tag],
      contentType: 'application/json',
      cacheControl: 'public, max-age=0',
      storedAt: Date.now(),
      maxAgeMs: 60_000,
      onHit: undefined,
    });
  }
  return targets;
}

describe(`purges between nodes (${TEST_DATABASE_URL ? 'PostgreSQL LISTEN/NOTIFY' : 'one process'})`, () => {
  test('a change on node A purges the same pages and answers on node B, and no others', async () => {
    const [busA, busB] = twoBuses();
    const nodeA = await warmNode('a');
    const nodeB = await warmNode('b');
    let heard!: (message: PurgeMessage) => void;
    const arrived = new Promise<PurgeMessage>((resolve) => {
      heard = resolve;
    });
    const stop = await relayPurges(busB, 'node-b', nodeB, heard);
    // Node A hears its own message too, and skips it: its caches were purged before it was sent.
    const stopA = await relayPurges(busA, 'node-a', nodeA);

    await purgeEverywhere({ section: 'news' }, { bus: busA, node: 'node-a', targets: nodeA });
    expect(await nodeA.pages.get('/news/7', '/news/7')).toBeUndefined();

    expect(await arrived).toEqual({ from: 'node-a', section: 'news' });
    expect(await nodeB.pages.get('/news/7', '/news/7')).toBeUndefined();
    expect(fs.existsSync(path.join(root, 'b', 'cache', 'pages', encodeURIComponent('/news/7')))).toBe(false);
    expect(nodeB.answers.lookup('/web/api/news/7')).toBeUndefined();
    expect(await nodeB.pages.get('/font/noto-sans-sc', '/font/noto-sans-sc')).toBeDefined();
    expect(nodeB.answers.lookup('/web/api/font/1')).toBeDefined();
    await stop();
    await stopA();
  });

  test('a message that is not a purge changes nothing', async () => {
    const [busA, busB] = twoBuses();
    const nodeB = await warmNode('c');
    let heard!: (message: PurgeMessage) => void;
    const arrived = new Promise<PurgeMessage>((resolve) => {
      heard = resolve;
    });
    const stop = await relayPurges(busB, 'node-b', nodeB, heard);
    await busA.notify('site_purge', '{"from":"x","section":"../../etc"}');
    await busA.notify('site_purge', 'not json');
    // Messages arrive in the order sent: once this one is applied, the two before were passed over.
    await purgeEverywhere({ answersTag: 'font' }, { bus: busA, node: 'node-a', targets: await warmNode('d') });
    expect(await arrived).toEqual({ from: 'node-a', answersTag: 'font' });
    expect(await nodeB.pages.get('/news/7', '/news/7')).toBeDefined();
    expect(nodeB.answers.lookup('/web/api/news/7')).toBeDefined();
    expect(nodeB.answers.lookup('/web/api/font/1')).toBeUndefined();
    await stop();
  });
});
