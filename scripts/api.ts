// Runs the API alone, without the pages, for API-only nodes behind a load balancer.
import fs from 'node:fs';
import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { apiApp } from '../src/server/app.ts';
import { database } from '../src/server/db/client.ts';
import { env } from '../src/server/env.ts';
import { withAnswerCache } from '../src/server/http/answer-cache.ts';
import { guardServer, withRequestGuards } from '../src/server/http/request-guards.ts';
import { withSecurityHeaders } from '../src/server/http/security-headers.ts';
import { prepareIdentification } from '../src/server/tools/identify/service.ts';
import { onStopSignal } from './lib/shutdown.ts';
import { buildTablesBeforeServing } from './lib/warm.ts';

if (fs.existsSync('.env')) process.loadEnvFile('.env');

const config = env();
await database();
buildTablesBeforeServing();
// Held to the same rules and headers as scripts/start.ts; cached public reads are answered before
// the app routes them.
const server = guardServer(
  http.createServer(withSecurityHeaders(withRequestGuards(withAnswerCache(getRequestListener(apiApp().fetch))))),
);
server.listen(config.PORT, config.HOST, () => {
  console.log(`API is ready at http://${config.HOST}:${config.PORT}`);
  // Font identification draws every library face's references ahead, between its requests.
  prepareIdentification().catch((error: unknown) => console.error('identification could not prepare', error));
});
onStopSignal(() => void server.close());
