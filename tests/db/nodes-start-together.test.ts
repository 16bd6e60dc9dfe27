import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Cluster, startCluster } from '../helpers/cluster.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';

// `docker compose up` starts every node of a site at once over a new database. Three web nodes and a
// worker are started here at the same instant over an empty PostgreSQL database and bucket: the
// start-up work that writes shared state (migrations, the library, the site's content) runs once,
// and nothing is written twice. Runs in the PostgreSQL project only (TEST_DATABASE_URL).

/**
 * Rows of `table` that repeat another row in every column but those the database fills itself
 * (serial ids, `now()` times, random uids): what two seeders writing the same content leave.
 */
async function doubledRows(client: pg.Client, table: string): Promise<number> {
  const { rows: columns } = await client.query<{ column_name: string }>(
    `select column_name from information_schema.columns
      where table_schema = 'public' and table_name = $1
        and coalesce(column_default, '') !~ '(nextval|now\\(\\)|gen_random_uuid)'
      order by ordinal_position`,
    [table],
  );
  if (columns.length === 0) return 0;
  const list = columns.map((column) => `"${column.column_name}"`).join(', ');
  const { rows } = await client.query<{ doubled: string }>(
    `select coalesce(sum(n - 1), 0) as doubled from (select count(*) as n from "${table}" group by ${list}) groups`,
  );
  return Number(rows[0]?.doubled ?? 0);
}

// Runs on PostgreSQL only (TEST_DATABASE_URL, which .ci/run sets): several nodes share a server, which the
// embedded PGlite, one process's folder, cannot be.
describe.skipIf(!TEST_DATABASE_URL)('three web nodes and a worker started at the same instant', () => {
  let cluster: Cluster;
  let client: pg.Client;

  beforeAll(async () => {
    cluster = await startCluster({ webNodes: 3, together: true });
    client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
  }, 600_000);

  afterAll(async () => {
    await client?.end();
    await cluster?.close();
  }, 120_000);

  test('all three serve the same site', async () => {
    const totals = [];
    for (const node of cluster.web) {
      expect((await fetch(`${node.url}/`)).status, node.name).toBe(200);
      const list = await fetch(`${node.url}/web/api/web-wenzhang/selectPage?type=news&current=1&size=50`);
      const body = (await list.json()) as { data: { total: number } };
      totals.push(body.data.total);
    }
    expect(totals[0]).toBeGreaterThan(0);
    expect(new Set(totals).size).toBe(1);
  });

  test('no table holds a row twice', async () => {
    const { rows } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const doubled: Record<string, number> = {};
    for (const { table_name: table } of rows) {
      const count = await doubledRows(client, table);
      if (count > 0) doubled[table] = count;
    }
    expect(doubled).toEqual({});
    // Seeded content is there, once: every case and album of the content folder shows one time.
    const cases = await client.query<{ title: string }>('select title from cases');
    expect(cases.rows.length).toBeGreaterThan(0);
    expect(new Set(cases.rows.map((row) => row.title)).size).toBe(cases.rows.length);
  });

  test('the library and the content were seeded by one node; the others found them done', () => {
    const outputs = cluster.web.map((node) => node.output());
    const seededFonts = outputs.filter((text) => /Fonts: [1-9]\d* families added/.test(text));
    const seededContent = outputs.filter((text) => /Content: [^\n]*added/.test(text));
    expect(seededFonts).toHaveLength(1);
    expect(seededContent).toHaveLength(1);
    for (const text of outputs) expect(text).not.toMatch(/duplicate key|error/i);
  });
});
