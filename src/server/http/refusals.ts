import type http from 'node:http';
import { isApiTarget } from './direct-api.ts';

// Answers the server gives before any handler runs (a method it does not take, too many bodies at
// once, a body that arrives too slowly). Each is written once and ends the connection: what the
// client still sends is not read, so the connection cannot carry another request.

/**
 * Writes a refusal and closes the connection after it: the API's `{ code, message, data }` envelope
 * for API paths, plain text for pages. Does nothing when an answer was already begun.
 */
export function refuse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const api = isApiTarget(req.url ?? '/');
  const body = api ? JSON.stringify({ code: String(status), message, data: null }) : message;
  res.writeHead(status, {
    ...headers,
    'Content-Type': api ? 'application/json; charset=UTF-8' : 'text/plain; charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
