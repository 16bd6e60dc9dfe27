import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimSiteRun } from '../../src/server/cluster/site-task.ts';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/database.ts';

// A sweep that every node's timer starts is done by one node per period (cluster/site-task.ts):
// here four "nodes" (four connection pools on PostgreSQL) ask at once, again and again.

let first: TestDatabase;
const nodes: Database[] = [];

beforeAll(async () => {
  first = await openTestDatabase();
  nodes.push(first);
  // PGlite belongs to one process: its "nodes" share one handle.
  for (let i = 0; i < 3; i++) nodes.push(first.kind === 'postgres' ? await openDatabase(first.target.options) : first);
});

afterAll(async () => {
  for (const node of nodes.slice(1)) if (node !== first) await node.close();
  await first?.close();
});

describe('claimSiteRun', () => {
  test('gives each period to exactly one of the nodes asking at once', async () => {
    const ask = () => Promise.all(nodes.map((node) => claimSiteRun('sweep-a', 60_000, async () => node.db)));
    const answers = await ask();
    expect(answers.filter(Boolean)).toHaveLength(1);
    // Still the same period: nobody else gets it.
    expect((await ask()).filter(Boolean)).toHaveLength(0);
    // Another task has periods of its own.
    expect(
      (await Promise.all(nodes.map((node) => claimSiteRun('sweep-b', 60_000, async () => node.db)))).filter(Boolean),
    ).toHaveLength(1);
  });
});
