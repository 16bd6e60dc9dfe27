import type http from 'node:http';
import type { Envelope } from '../http/envelope.ts';

/** What `/healthz` answers: the process runs, for how many seconds. */
export function liveness(): Envelope<{ status: 'ok'; uptime: number }> {
  return { code: '200', message: '操作成功', data: { status: 'ok', uptime: Math.round(process.uptime()) } };
}

/**
 * Answers `/healthz` in front of every other handler: a load balancer asks it several times a
 * second per node, and the answer needs nothing but the process, so it skips all routing.
 */
export function withLivenessProbe(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (req.url !== '/healthz' || (req.method !== 'GET' && req.method !== 'HEAD')) return handler(req, res);
    const body = JSON.stringify(liveness());
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=UTF-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
