import { Hono } from 'hono';
import { database } from '../db/client.ts';
import { ok } from '../http/envelope.ts';
import { liveness } from './health.ts';

/** `/healthz` answers while the process runs; `/readyz` only when the database answers a query. */
export function healthRoutes(): Hono {
  const routes = new Hono();
  routes.get('/healthz', (c) => c.json(liveness(), 200, { 'Cache-Control': 'no-store' }));
  routes.get('/readyz', async (c) => {
    try {
      const open = await database();
      await open.ping();
      return c.json(ok({ status: 'ready', database: open.kind }));
    } catch {
      return c.json({ code: '503', message: '数据库暂不可用', data: { status: 'unavailable' } }, 503);
    }
  });
  return routes;
}
