// Runs the API alone, without the pages, for API-only nodes behind a load balancer.
import fs from 'node:fs';
import { serve } from '@hono/node-server';
import { apiApp } from '../src/server/app.ts';
import { closeDatabase, database } from '../src/server/db/client.ts';
import { env } from '../src/server/env.ts';

if (fs.existsSync('.env')) process.loadEnvFile('.env');

const config = env();
await database();
const server = serve({ fetch: apiApp().fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  console.log(`API is ready at http://${config.HOST}:${info.port}`);
});
const stop = () => {
  server.close();
  void closeDatabase().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
