import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_REPLAYED_HEADER,
  isIdempotentWrite,
} from '../../contract/idempotency.ts';
import { clientIp, sessionAccount } from '../auth/current-account.ts';
import { claimSiteRun } from '../cluster/site-task.ts';
import { database, db, inWorkTransaction } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { log } from '../log.ts';

// A write the browser marks with an Idempotency-Key (src/contract/idempotency.ts lists which) is
// done once, however often it is sent: its answer is kept a day per client, and the same key sent
// again is answered with it. On PostgreSQL the key's row is written in the write's own transaction
// (inWorkTransaction), so it exists exactly when the write was committed: a node killed before it
// answered leaves neither, and the browser's second sending, on another node, does the write; a node
// killed after its commit leaves both, and the second sending gets the first answer. A second sending
// that arrives while the first is still running waits for it (the row's unique key holds it).
// Only successful answers are kept: an error changes nothing, so sending again is safe.

/** How long an answer is kept for its key. */
const KEEP_MS = 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

interface Kept {
  fingerprint: string;
  status: number;
  contentType: string;
  body: string;
}

/** Whose keys these are: an account, or else the address (hashed, as the tools keep it). */
async function scopeOf(c: Context): Promise<string> {
  const account = await sessionAccount(c);
  if (account !== null) return `account:${account}`;
  return `ip:${createHash('sha256')
    .update(clientIp(c) ?? 'unknown')
    .digest('hex')
    .slice(0, 16)}`;
}

/** The request a key was made for: method, path and body, so that a key is not reused for another. */
async function fingerprintOf(c: Context): Promise<string> {
  const body = Buffer.from(await c.req.arrayBuffer());
  return createHash('sha256').update(`${c.req.method} ${c.req.path}\n`).update(body).digest('base64url');
}

function replay(c: Context, kept: Kept, fingerprint: string): Response {
  if (kept.fingerprint !== fingerprint) {
    return c.json({ code: '422', message: '这个请求编号已用于另一项操作，请刷新页面后重试', data: null }, 422, {
      'Cache-Control': 'no-store',
    });
  }
  return new Response(kept.body, {
    status: kept.status,
    headers: {
      'Content-Type': kept.contentType,
      'Cache-Control': 'private, no-store',
      [IDEMPOTENCY_REPLAYED_HEADER]: 'true',
    },
  });
}

async function keptAnswer(scope: string, key: string): Promise<Kept | undefined> {
  const [row] = await (await db())
    .select({
      fingerprint: idempotencyKeys.fingerprint,
      status: idempotencyKeys.status,
      contentType: idempotencyKeys.contentType,
      body: idempotencyKeys.body,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
  return row;
}

async function keep(c: Context, scope: string, key: string, fingerprint: string): Promise<void> {
  const answer = c.res.clone();
  const kept = {
    fingerprint,
    status: answer.status,
    contentType: answer.headers.get('Content-Type') ?? 'application/json; charset=UTF-8',
    body: await answer.text(),
    expiresAt: new Date(Date.now() + KEEP_MS),
  };
  await (await db())
    .insert(idempotencyKeys)
    .values({ scope, key, ...kept })
    .onConflictDoUpdate({ target: [idempotencyKeys.scope, idempotencyKeys.key], set: kept });
}

const succeeded = (status: number) => status >= 200 && status < 300;

// PGlite serves one process: a second sending of a key still running there waits for the first here.
const running = new Map<string, Promise<unknown>>();

/** The middleware: a listed write with a key is done once per key and client; everything else passes. */
export function idempotentWrites(): MiddlewareHandler {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !isIdempotentWrite(c.req.method, c.req.path)) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      return c.json({ code: '400', message: '请求编号格式不正确，请刷新页面后重试', data: null }, 400);
    }
    const scope = await scopeOf(c);
    const fingerprint = await fingerprintOf(c);

    if ((await database()).kind === 'postgres') {
      const kept = await inWorkTransaction(
        async () => {
          // Waits while another transaction holds the same key, then finds its row or writes this one.
          const claimed = await (await db())
            .insert(idempotencyKeys)
            .values({ scope, key, fingerprint, status: 0, contentType: '', body: '', expiresAt: new Date() })
            .onConflictDoNothing()
            .returning({ key: idempotencyKeys.key });
          if (claimed.length === 0) return { kept: await keptAnswer(scope, key) };
          await next();
          if (!succeeded(c.res.status)) return { failed: true };
          await keep(c, scope, key, fingerprint);
          return {};
        },
        (outcome) => !('failed' in outcome),
      );
      if ('kept' in kept && kept.kept) return replay(c, kept.kept, fingerprint);
      return;
    }

    const slot = `${scope}\n${key}`;
    while (running.has(slot)) await running.get(slot)?.catch(() => undefined);
    // Taken in the same turn as the check above, so that a sending arriving meanwhile waits for this one.
    const work = (async () => {
      const kept = await keptAnswer(scope, key);
      if (kept) return replay(c, kept, fingerprint);
      await next();
      if (succeeded(c.res.status)) await keep(c, scope, key, fingerprint);
      return undefined;
    })();
    running.set(slot, work);
    try {
      return await work;
    } finally {
      running.delete(slot);
    }
  };
}

/** Deletes the answers kept longer than a day; one node of the site does it each period. */
export async function sweepIdempotencyKeys(now = new Date()): Promise<number> {
  const removed = await (await db())
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return removed.length;
}

let timer: NodeJS.Timeout | undefined;

/** Sweeps every ten minutes on one node of the site; the timer never keeps a process alive. */
export function startIdempotencySweeper(): void {
  if (timer) return;
  timer = setInterval(
    () =>
      void claimSiteRun('idempotency-sweep', SWEEP_EVERY_MS)
        .then((mine) => (mine ? sweepIdempotencyKeys() : 0))
        .catch((error: unknown) => log().error({ err: error }, 'idempotency key sweep failed')),
    SWEEP_EVERY_MS,
  );
  timer.unref();
}
