// Load on two nodes: two `npm start` web nodes and one worker over one PostgreSQL database and one
// bucket (tests/helpers/cluster.ts), and 200 connections for 60 s spread over both, as a load
// balancer spreads them: pages, list APIs, live previews, logins and writes (readers keeping
// articles as favourites). Halfway, one node is killed with SIGKILL; like a balancer's retry, a read
// whose connection fails goes to the other node, and like the browser's client (src/api/http.ts) a
// write that got no answer is sent once more to the other node with the same Idempotency-Key.
// Printed: requests, errors, p50/p99 per kind, the requests in flight on the node when it died (each
// is counted: answered by the other node, or an error), the writes the dead node had committed without
// answering (their second sending is answered with the first answer), and the acknowledged writes
// found in the database afterwards (none may be lost).
//   TEST_DATABASE_URL=postgres://… node tests/bench/load-nodes.ts   (after npm run build)
// BENCH_CONNECTIONS (default 200) and BENCH_SECONDS (default 60) change the run.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../src/contract/idempotency.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { closeDatabase, openDatabase } from '../../src/server/db/client.ts';
import { type CaptchaPost, solvePuzzle } from '../helpers/captcha-solver.ts';
import { type ClusterNode, startCluster } from '../helpers/cluster.ts';

const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 200);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 60);
const READERS = 400;
const PASSWORD = 'bench-nodes-Passw0rd';
if (!process.env['TEST_DATABASE_URL'])
  throw new Error('Set TEST_DATABASE_URL to a PostgreSQL server the bench may create a database on');

// Behind a balancer the nodes read the visitor's address from X-Forwarded-For; the logins below
// come from many visitors, as they would, rather than all from the bench's one address.
const cluster = await startCluster({ webNodes: 2, env: { TRUST_PROXY: 'true' } });
// Whatever goes wrong, the processes and the database of the cluster go with the bench.
process.on('unhandledRejection', (error) => {
  console.error(error);
  void cluster.close().finally(() => process.exit(1));
});
const nodes = cluster.web;
const alive = new Set<ClusterNode>(nodes);
process.on('exit', () => {
  for (const node of [...nodes, cluster.worker]) node.child.kill('SIGKILL');
});

// Readers with sessions, and what they can keep: written straight to the shared database.
const database = await openDatabase({ url: cluster.databaseUrl, dir: '' });
const articleIds = (
  (await database.db.execute(
    sql`select id from articles where status = 'published' order by id limit 200`,
  )) as unknown as {
    rows: Array<{ id: number }>;
  }
).rows.map((row) => row.id);
const tokens: string[] = [];
const accountOf = new Map<string, number>();
for (let i = 0; i < READERS; i += 1) {
  const inserted = (await database.db.execute(
    sql`insert into accounts (email) values (${`reader-${i}-${randomUUID().slice(0, 8)}@bench.example`}) returning id`,
  )) as unknown as { rows: Array<{ id: number }> };
  const id = inserted.rows[0]?.id ?? 0;
  const { token } = await createSession(database.db, id, { clock: Date.now, ttlSeconds: 86_400 });
  tokens.push(token);
  accountOf.set(token, id);
}
const loginAccount = `bench-login-${randomUUID().slice(0, 8)}@example.com`;
const { hashPassword } = await import('../../src/server/auth/passwords.ts');
await database.db.execute(
  sql`insert into accounts (email, password_hash) values (${loginAccount}, ${await hashPassword(PASSWORD)})`,
);

const [first] = nodes;
if (!first) throw new Error('no node');
const family = (
  (await (await fetch(`${first.url}/web/api/fontOverride/getFontList?current=1&size=1`)).json()) as {
    data: { records: Array<{ fontGNo: string; childFontResource: Array<{ fontGNo: string }> }> };
  }
).data.records[0];
const face = family?.childFontResource[0]?.fontGNo ?? family?.fontGNo ?? '';
const news = articleIds[0];
const common = [...fs.readFileSync('src/server/engine/data/tongyong-level1.txt', 'utf8').trim()].slice(0, 800);
const text = () => Array.from({ length: 12 }, () => common[Math.floor(Math.random() * common.length)]).join('');

interface Tally {
  ok: number;
  errors: number;
  retried: number;
  latencies: number[];
}
const tallies = new Map<string, Tally>();
const tally = (kind: string) => {
  const found = tallies.get(kind) ?? { ok: 0, errors: 0, retried: 0, latencies: [] };
  tallies.set(kind, found);
  return found;
};
const acknowledged: Array<{ token: string; articleId: number }> = [];
const firstErrors: string[] = [];
// Requests sent to each node and not yet answered, by kind; read once when a node is killed.
const inFlight = new Map<ClusterNode, Map<string, number>>();
const flying = (node: ClusterNode, kind: string, change: number) => {
  const kinds = inFlight.get(node) ?? new Map<string, number>();
  inFlight.set(node, kinds);
  kinds.set(kind, (kinds.get(kind) ?? 0) + change);
};
let inFlightAtKill = new Map<string, number>();
/** Writes the killed node had committed but not answered: their second sending got the kept answer. */
let committedUnanswered = 0;

let turn = 0;
function pick(): ClusterNode {
  const list = [...alive];
  turn += 1;
  return list[turn % list.length] ?? (nodes[0] as ClusterNode);
}

/** One request of `kind`, sent as a balancer does: a failed connection of a read goes to another node. */
async function send(
  kind: string,
  request: (base: string) => Promise<Response>,
  retry: boolean,
  fixed?: ClusterNode,
): Promise<Response | undefined> {
  const entry = tally(kind);
  const started = performance.now();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const node = fixed ?? pick();
    flying(node, kind, 1);
    try {
      const res = await request(node.url).finally(() => flying(node, kind, -1));
      await res.arrayBuffer();
      if (attempt > 0 && res.headers.get(IDEMPOTENCY_REPLAYED_HEADER) === 'true') committedUnanswered += 1;
      entry.latencies.push(performance.now() - started);
      if (res.status >= 500) {
        entry.errors += 1;
        if (firstErrors.length < 5) firstErrors.push(`${kind}: ${res.status}`);
      } else entry.ok += 1;
      return res;
    } catch (error) {
      if (!alive.has(node) && retry && attempt === 0) {
        entry.retried += 1;
        continue;
      }
      // Counted whatever the node: a request that got no answer is an error the browser shows.
      entry.errors += 1;
      if (firstErrors.length < 5) firstErrors.push(`${kind}: ${(error as Error).message}`);
      return undefined;
    }
  }
  return undefined;
}

/** A puzzle solved as a person does, for a login from `address`. */
function verification(base: string, address: string): Promise<string> {
  const post: CaptchaPost = (pathname, body) =>
    fetch(`${base}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    }).then((res) => res.json() as ReturnType<CaptchaPost>);
  return solvePuzzle(post, { account: loginAccount });
}

const MIX: Array<[string, number, (connection: number) => Promise<unknown>]> = [
  ['page /news/{id}', 30, () => send('page', (base) => fetch(`${base}/news/${news}`), true)],
  ['page /font', 10, () => send('page', (base) => fetch(`${base}/font`), true)],
  [
    'list API',
    30,
    () => send('list API', (base) => fetch(`${base}/web/api/fontOverride/getFontList?current=1&size=24`), true),
  ],
  [
    'preview',
    15,
    () =>
      send(
        'preview',
        (base) =>
          fetch(`${base}/webfont/http`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify([{ gno: face, text: text() }]),
          }),
        true,
      ),
  ],
  [
    'write',
    14,
    async (connection) => {
      const token = tokens[connection % tokens.length] ?? '';
      const articleId = articleIds[Math.floor(Math.random() * articleIds.length)] ?? 0;
      // One key per write, sent again with it when no answer came, as the browser's client does.
      const key = randomUUID();
      const res = await send(
        'write',
        (base) =>
          fetch(`${base}/web/api/favorite/addArt`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'alliance-authenticate': token, [IDEMPOTENCY_HEADER]: key },
            body: JSON.stringify({ id: articleId }),
          }),
        true,
      );
      if (res?.status === 200) acknowledged.push({ token, articleId });
      else if (res) {
        // An answer that is not a kept favourite is a failed write, whatever its status.
        const entry = tally('write');
        entry.ok -= 1;
        entry.errors += 1;
        if (firstErrors.length < 5) firstErrors.push(`write: ${res.status}`);
      }
    },
  ],
  [
    'login',
    1,
    async (connection) => {
      const address = `10.${(connection >> 8) & 255}.${connection & 255}.${Math.floor(Math.random() * 250) + 1}`;
      // The puzzle and the login go to one node, as a browser's session does; a node killed under
      // them sends the person to the other node, as the balancer would.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const node = pick();
        try {
          const captchaVerification = await verification(node.url, address);
          const res = await send(
            'login',
            () =>
              fetch(`${node.url}/web/api/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
                body: JSON.stringify({ account: loginAccount, password: PASSWORD, captchaVerification }),
              }),
            false,
            node,
          );
          if (res && res.status !== 200) {
            // A refused login (a puzzle not taken, a limit) counts against the run.
            const entry = tally('login');
            entry.ok -= 1;
            entry.errors += 1;
            if (firstErrors.length < 5) firstErrors.push(`login: ${res.status}`);
          }
          return;
        } catch (error) {
          if (alive.has(node)) {
            tally('login').errors += 1;
            if (firstErrors.length < 5) firstErrors.push(`login: ${(error as Error).message}`);
            return;
          }
          tally('login').retried += 1;
        }
      }
    },
  ],
];
const weights = MIX.reduce((sum, [, weight]) => sum + weight, 0);
function next(): (connection: number) => Promise<unknown> {
  let roll = Math.random() * weights;
  for (const [, weight, run] of MIX) {
    roll -= weight;
    if (roll <= 0) return run;
  }
  return MIX[0]?.[2] as (connection: number) => Promise<unknown>;
}

const deadline = Date.now() + SECONDS * 1000;
const killAt = Date.now() + (SECONDS * 1000) / 2;
let killedAcknowledgedBefore = 0;
const killer = setTimeout(() => {
  const victim = nodes[1];
  if (!victim) return;
  alive.delete(victim);
  killedAcknowledgedBefore = acknowledged.length;
  inFlightAtKill = new Map(inFlight.get(victim) ?? []);
  victim.child.kill('SIGKILL');
  console.log(`killed ${victim.name} (SIGKILL) after ${(SECONDS / 2).toFixed(0)} s`);
}, killAt - Date.now());

console.log(`${CONNECTIONS} connections for ${SECONDS} s over ${nodes.length} nodes (PostgreSQL, s3rver, one worker)`);
await Promise.all(
  Array.from({ length: CONNECTIONS }, async (_, connection) => {
    while (Date.now() < deadline) await next()(connection);
  }),
);
clearTimeout(killer);

const pct = (values: number[], p: number) =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? Number.NaN;
let total = 0;
let errors = 0;
for (const [kind, entry] of tallies) {
  total += entry.ok + entry.errors;
  errors += entry.errors;
  console.log(
    `  ${kind.padEnd(10)} ${String(entry.ok).padStart(7)} ok  ${entry.errors} errors  ${entry.retried} sent again  p50 ${pct(entry.latencies, 50).toFixed(0)} ms  p99 ${pct(entry.latencies, 99).toFixed(0)} ms`,
  );
}
const all = [...tallies.values()].flatMap((entry) => entry.latencies);
console.log(
  `  all        ${total} requests, ${(total / SECONDS).toFixed(0)}/s, ${errors} errors, p99 ${pct(all, 99).toFixed(0)} ms`,
);
if (firstErrors.length) console.log(`  first errors: ${firstErrors.join('; ')}`);

// Every acknowledged write must be in the database.
const kept = new Set(
  (
    (await database.db.execute(
      // The cluster's database is new: every favourite in it is the bench's.
      sql`select account_id, article_id from favorites`,
    )) as unknown as { rows: Array<{ account_id: number; article_id: number }> }
  ).rows.map((row) => `${row.account_id}:${row.article_id}`),
);
const lost = acknowledged.filter(({ token, articleId }) => !kept.has(`${accountOf.get(token)}:${articleId}`)).length;
const atKill = [...inFlightAtKill].filter(([, n]) => n > 0);
console.log(
  `  in flight on the killed node: ${atKill.reduce((sum, [, n]) => sum + n, 0)} (${atKill.map(([kind, n]) => `${kind} ${n}`).join(', ')}), each answered by the other node or counted as an error above`,
);
console.log(
  `  writes: ${acknowledged.length} acknowledged (${killedAcknowledgedBefore} before the kill), ${committedUnanswered} committed by the killed node without an answer and answered again from their key, ${lost} missing from the database`,
);
await closeDatabase().catch(() => undefined);
await database.close();
await cluster.close();
process.exit(0);
