import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../src/contract/idempotency.ts';
import { systemClock } from '../../src/server/auth/clock.ts';
import { createSession } from '../../src/server/auth/sessions.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { accounts } from '../../src/server/db/schema/index.ts';
import { installBrowserFakes } from '../helpers/browser-fakes.ts';
import { type CaptchaPost, solvePuzzle } from '../helpers/captcha-solver.ts';
import { type Cluster, type ClusterNode, startCluster, until } from '../helpers/cluster.ts';
import { TEST_DATABASE_URL } from '../helpers/database.ts';

// docker-compose.yml's arrangement without Docker: Debian's nginx, configured from deploy/nginx.conf with
// ports of this machine, in front of two `npm start` nodes and a worker over one PostgreSQL database and
// one S3 bucket (s3rver). Through nginx: pages, lists, a login and a conversion; then readers and
// writers at once while one node is killed with SIGKILL: no read is answered 5xx (nginx sends it to the
// other node), and every write is either acknowledged and in the database once, or answered with an
// error the browser shows, after the browser client (src/api/http.ts) sent it a second time with the
// same Idempotency-Key. Runs in the PostgreSQL project (`npm test` with TEST_DATABASE_URL; CI installs
// nginx, .ci/run); without TEST_DATABASE_URL there is no server for the nodes to share, and it is skipped.

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((file) => fs.existsSync(file)) ?? 'nginx';
const TTF = fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf');
const ACCOUNT = 'through-nginx@example.com';
const PASSWORD = 'ink and paper 2026';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Renders deploy/nginx.conf as the nginx image does (envsubst of the named variables only). */
function renderTemplate(values: Record<string, string>): string {
  const template = fs.readFileSync('deploy/nginx.conf', 'utf8');
  return template.replace(/\$\{([A-Z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

interface Nginx {
  origin: string;
  log: () => string[];
  stop(): Promise<void>;
}

/** Debian's nginx with the site's configuration in a folder of its own, in front of `nodes`. */
async function startNginx(nodes: ClusterNode[]): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-nginx-'));
  const port = await freePort();
  const hostOf = (node: ClusterNode) => new URL(node.url).port;
  fs.writeFileSync(
    path.join(dir, 'site.conf'),
    renderTemplate({
      SITE_LISTEN: `127.0.0.1:${port}`,
      SITE_NODE_A: `127.0.0.1:${hostOf(nodes[0] as ClusterNode)}`,
      SITE_NODE_B: `127.0.0.1:${hostOf(nodes[1] as ClusterNode)}`,
      SITE_RESOLVER: '127.0.0.1',
      // Debian 12's nginx (1.22) looks names up once; the addresses here need no looking up.
      SITE_RESOLVE: '',
    }),
  );
  // The main file the image has, with this folder for everything nginx writes.
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format site '$request_method $uri $status "$upstream_addr" "$upstream_status" $http_idempotency_key';
  access_log ${dir}/access.log site;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  execFileSync(NGINX, ['-t', '-q', '-p', dir, '-c', path.join(dir, 'nginx.conf')]);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'inherit' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${origin}/healthz`).catch(() => undefined))?.ok, 120_000, 'nginx');
  return {
    origin,
    log: () => fs.readFileSync(path.join(dir, 'access.log'), 'utf8').trim().split('\n'),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Runs on PostgreSQL only (TEST_DATABASE_URL, which .ci/run sets): several nodes share a server, which the
// embedded PGlite, one process's folder, cannot be.
describe.skipIf(!TEST_DATABASE_URL)('the compose arrangement behind Debian’s nginx, one node killed', () => {
  let cluster: Cluster;
  let nginx: Nginx;
  let db: pg.Client;
  let token = '';

  beforeAll(async () => {
    cluster = await startCluster({ webNodes: 2, together: true, env: { TRUST_PROXY: 'true' } });
    nginx = await startNginx(cluster.web);
    db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
  }, 600_000);

  afterAll(async () => {
    await db?.end();
    await nginx?.stop();
    await cluster?.close();
  }, 120_000);

  const get = (pathname: string) => fetch(`${nginx.origin}${pathname}`);
  async function post<T>(pathname: string, body: unknown): Promise<{ status: number; data: T }> {
    const res = await fetch(`${nginx.origin}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'alliance-authenticate': token } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, data: ((await res.json()) as { data: T }).data };
  }

  test('serves pages and lists through nginx from both nodes', async () => {
    for (const pathname of ['/', '/font', '/news', '/album']) expect((await get(pathname)).status, pathname).toBe(200);
    const list = await get('/web/api/fontOverride/getFontList?size=24');
    expect(((await list.json()) as { data: { total: number } }).data.total).toBeGreaterThan(0);
    // Both nodes took requests.
    for (const _ of Array.from({ length: 6 }))
      await get('/web/api/web-wenzhang/selectPage?type=news&current=1&size=10');
    const nodesSeen = new Set(nginx.log().map((line) => /"[^"]*:(\d+)"/.exec(line)?.[1]));
    for (const node of cluster.web) expect(nodesSeen).toContain(new URL(node.url).port);
  });

  test('signs a reader up and in through nginx', async () => {
    const captcha = (account?: string) =>
      solvePuzzle(
        ((pathname, body) =>
          fetch(`${nginx.origin}${pathname}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }).then((res) => res.json())) as CaptchaPost,
        account ? { account } : {},
        6,
      );
    const sent = await post('/web/api/account/sendCode', {
      account: ACCOUNT,
      purpose: 'register',
      captchaVerification: await captcha(),
    });
    expect(sent.status).toBe(200);
    // The code is in the outbox of whichever node sent it.
    const code = await until(
      async () => {
        for (const node of cluster.web) {
          const dir = path.join(node.dataDir, 'outbox');
          for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
            const mail = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Record<string, string>;
            if (mail['recipient'] === ACCOUNT && mail['code']) return mail['code'];
          }
        }
        return undefined;
      },
      20_000,
      'the code',
    );
    expect((await post('/web/api/account/register/email', { email: ACCOUNT, code, password: PASSWORD })).status).toBe(
      200,
    );
    const login = await post<{ token: string }>('/web/api/login', {
      account: ACCOUNT,
      password: PASSWORD,
      captchaVerification: await captcha(ACCOUNT),
    });
    expect(login.status).toBe(200);
    token = login.data.token;
    expect(token).toBeTruthy();
  }, 120_000);

  async function upload(): Promise<string | undefined> {
    const form = new FormData();
    form.append('file', new Blob([TTF]), 'font.ttf');
    const res = await fetch(`${nginx.origin}/tools/api/upload`, { method: 'POST', body: form }).catch(() => undefined);
    if (res?.status !== 200) return undefined;
    return ((await res.json()) as { data: { fileId: string } }).data.fileId;
  }

  test('converts a font through nginx: a node takes the job, the worker does it, either node serves it', async () => {
    const fileId = await upload();
    const started = await post<{ jobId: string }>('/tools/api/convert', { source: { fileId }, formats: ['woff2'] });
    expect(started.status).toBe(200);
    type Job = { state: string; result?: { files: Array<{ url: string }> } };
    const job = await until(
      async () => {
        const res = await get(`/tools/api/jobs/${started.data.jobId}`);
        const data = ((await res.json()) as { data: Job }).data;
        return ['done', 'failed'].includes(data.state) && data;
      },
      120_000,
      'the conversion',
    );
    expect(job.state).toBe('done');
    const woff2 = await get(job.result?.files[0]?.url ?? '/');
    expect(
      Buffer.from(await woff2.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOF2');
  }, 180_000);

  test('a node killed amid reads and writes: no read answered 5xx, no acknowledged write lost or doubled', async () => {
    // Writers are readers of their own, signed in (an account keeps at most 50 favourites folders).
    const WRITERS = 6;
    const site = await openDatabase({ url: cluster.databaseUrl, dir: '' });
    const writerTokens: string[] = [];
    try {
      for (let n = 0; n < WRITERS; n++) {
        const [account] = await site.db
          .insert(accounts)
          .values({ email: `writer-${n}@example.com` })
          .returning();
        writerTokens.push(
          (await createSession(site.db, account?.id ?? 0, { clock: systemClock, ttlSeconds: 3600 })).token,
        );
      }
    } finally {
      await site.close();
    }
    // The browser's own client: a key per write, sent once more when no answer came.
    const fakes = installBrowserFakes('/');
    const { createHttpClient } = await import('../../src/api/http.ts');
    const client = createHttpClient({ baseURL: nginx.origin });

    const reads = { sent: 0, answered5xx: 0, failed: 0, inFlightAtKill: 0 };
    const writes = {
      sent: 0,
      acknowledged: [] as string[],
      refused: [] as Array<{ name: string; key: string; writer: number }>,
      inFlightAtKill: 0,
    };
    const jobs = { acknowledged: [] as string[], refused: [] as string[] };
    let inFlightReads = 0;
    let inFlightWrites = 0;
    let stop = false;
    const READS = [
      '/',
      '/font',
      '/news',
      '/web/api/fontOverride/getFontList?size=24',
      '/web/api/web-wenzhang/selectPage?type=news&current=1&size=10',
    ];

    const reader = async (n: number) => {
      for (let i = 0; !stop; i++) {
        reads.sent++;
        inFlightReads++;
        try {
          const res = await get(READS[(n + i) % READS.length] ?? '/');
          await res.arrayBuffer();
          if (res.status >= 500) reads.answered5xx++;
        } catch {
          reads.failed++;
        } finally {
          inFlightReads--;
        }
      }
    };
    const writer = async (n: number) => {
      for (let i = 0; !stop && i < 48; i++) {
        const name = `节点${n}-${i}`;
        // The key the client would make, made here so that a refused write can be sent again with it.
        const key = crypto.randomUUID();
        const headers = { 'alliance-authenticate': writerTokens[n] ?? '', [IDEMPOTENCY_HEADER]: key };
        writes.sent++;
        inFlightWrites++;
        try {
          await client('/web/api/collection/add', { method: 'POST', body: { name }, headers, quiet: true });
          writes.acknowledged.push(name);
        } catch {
          writes.refused.push({ name, key, writer: n });
        } finally {
          inFlightWrites--;
        }
      }
    };
    const converter = async () => {
      while (!stop) {
        const fileId = await upload();
        if (!fileId) continue;
        try {
          const started = await client<{ jobId: string }>('/tools/api/convert', {
            method: 'POST',
            body: { source: { fileId }, formats: ['woff2'] },
            quiet: true,
          });
          jobs.acknowledged.push(started.jobId);
        } catch (error) {
          jobs.refused.push((error as Error).message);
        }
      }
    };
    const running = [
      ...Array.from({ length: 6 }, (_, n) => reader(n)),
      ...Array.from({ length: WRITERS }, (_, n) => writer(n)),
      converter(),
    ];
    // Mid-stream: once both kinds are flowing, node A dies with whatever it was doing.
    await until(async () => writes.acknowledged.length >= 40 && reads.sent >= 200, 120_000, 'traffic');
    const victim = cluster.web[0] as ClusterNode;
    reads.inFlightAtKill = inFlightReads;
    writes.inFlightAtKill = inFlightWrites;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const killedAt = writes.sent;
    await until(async () => writes.sent >= Math.min(killedAt + 80, WRITERS * 48), 120_000, 'traffic after the kill');
    stop = true;
    await Promise.all(running);
    // What the reader does with a write the page said had failed: send it again. It is done once.
    for (const { name, key, writer } of writes.refused) {
      const headers = { 'alliance-authenticate': writerTokens[writer] ?? '', [IDEMPOTENCY_HEADER]: key };
      await client('/web/api/collection/add', { method: 'POST', body: { name }, headers, quiet: true });
    }
    fakes.restore();

    const folders = await db.query<{ name: string; n: string }>(
      `select g.name, count(*) as n from favorite_groups g join accounts a on a.id = g.account_id
        where a.email like 'writer-%' group by g.name`,
    );
    const stored = new Map(folders.rows.map((row) => [row.name, Number(row.n)]));
    const lost = [...writes.acknowledged, ...writes.refused.map((write) => write.name)].filter(
      (name) => !stored.has(name),
    );
    const doubled = [...stored].filter(([, n]) => n > 1).map(([name]) => name);
    const jobRows = await db.query<{ id: string }>('select id from jobs where id = any($1::uuid[])', [
      jobs.acknowledged,
    ]);
    // nginx's own second tries (a read sent on to the other node) and the browser's (the same key twice).
    const log = nginx.log();
    const nginxRetries = log.filter((line) => /"[^"]*, [^"]*"/.test(line)).length;
    const keys = log.map((line) => line.split(' ').at(-1) ?? '-').filter((key) => key !== '-');
    const browserRetries = keys.length - new Set(keys).size;
    console.log(
      [
        `through nginx, node A killed with ${reads.inFlightAtKill} reads and ${writes.inFlightAtKill} writes in flight:`,
        `  reads  ${reads.sent}, answered 5xx ${reads.answered5xx}, no answer ${reads.failed}`,
        `  writes ${writes.sent}, acknowledged ${writes.acknowledged.length}, error shown ${writes.refused.length}, lost ${lost.length}, doubled ${doubled.length}`,
        `  jobs   ${jobs.acknowledged.length} acknowledged, ${jobRows.rowCount} in the database, ${jobs.refused.length} refused (${[...new Set(jobs.refused)].join('; ')})`,
        `  retries: nginx ${nginxRetries}, browser ${browserRetries}`,
      ].join('\n'),
    );
    expect(reads.answered5xx).toBe(0);
    expect(reads.failed).toBe(0);
    expect(lost).toEqual([]);
    expect(doubled).toEqual([]);
    expect(jobRows.rowCount).toBe(jobs.acknowledged.length);
    // Node B goes on serving.
    expect((await get('/')).status).toBe(200);
  }, 300_000);
});
