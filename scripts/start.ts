// Serves the whole site from one process: checks the configuration, builds what is missing,
// migrates the database and seeds what needs no download, then listens and seeds the font library
// in the background (the families the articles use first, each followed by the articles that waited
// for it). `npm start` runs this on the pinned Node 24.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLOUD_SAMPLE_WIDTHS } from '../src/contract/word-cloud.ts';
import { closeDatabase, database } from '../src/server/db/client.ts';
import { seedLibraryInBackground } from '../src/server/db/seed/background.ts';
import { seedBeforeServing } from '../src/server/db/seed/index.ts';
import { EnvError, env } from '../src/server/env.ts';
import { withAnswerCache } from '../src/server/http/answer-cache.ts';
import { withDirectApi } from '../src/server/http/direct-api.ts';
import { guardServer, withRequestGuards } from '../src/server/http/request-guards.ts';
import { withSecurityHeaders } from '../src/server/http/security-headers.ts';
import { withCompressedAssets } from '../src/server/http/static-assets.ts';
import { withPageCache } from '../src/server/isr/isr-node.ts';
import { pageCache } from '../src/server/isr/page-cache.ts';
import { DIST_DIR, PROJECT_ROOT } from '../src/server/paths.ts';
import { withLivenessProbe } from '../src/server/site/health.ts';
import { prepareIdentification } from '../src/server/tools/identify/service.ts';
import { keptSubsetAnswers } from '../src/server/webfont/answers.ts';
import { ensureBuilt } from './lib/build.ts';
import { createProgress } from './lib/progress.ts';
import { onStopSignal } from './lib/shutdown.ts';
import { buildTablesBeforeServing, warmCaptcha, warmFontLibrary, warmWordCloudSample } from './lib/warm.ts';

const dotenv = path.join(PROJECT_ROOT, '.env');
if (fs.existsSync(dotenv)) process.loadEnvFile(dotenv);

async function main(): Promise<void> {
  const config = env();

  // The build (a child process, on a fresh clone) and the database's creation and first seeding
  // (this process) run side by side: on two cores each takes one.
  const building = ensureBuilt();
  building.catch(() => undefined);
  const opened = await database();
  console.log(
    opened.kind === 'pglite'
      ? `Database: embedded PGlite in ${path.relative(process.cwd(), path.join(config.dataDir, 'db'))}`
      : 'Database: PostgreSQL from DATABASE_URL',
  );
  await seedBeforeServing({ progress: createProgress(), database: opened });
  const buildId = await building;
  await pageCache().keepOnlyBuild(buildId);

  // The adapter's entry would start its own server on import; this process owns the server.
  process.env['ASTRO_NODE_AUTOSTART'] = 'disabled';
  const entry = pathToFileURL(path.join(DIST_DIR, 'server', 'entry.mjs')).href;
  const { handler } = (await import(entry)) as { handler: http.RequestListener };
  // Methods and request bodies are held to the server's rules first (http/request-guards.ts);
  // fingerprinted assets go out compressed, and cached API answers and fresh cached pages straight
  // to the socket; other API calls go to the API app, everything else to Astro.
  const server = guardServer(
    http.createServer(
      withSecurityHeaders(
        withRequestGuards(
          withLivenessProbe(
            withCompressedAssets(
              withAnswerCache(withDirectApi(withPageCache(handler), [keptSubsetAnswers])),
              path.join(DIST_DIR, 'client'),
            ),
          ),
        ),
      ),
    ),
  );
  server.keepAliveTimeout = 65_000;
  buildTablesBeforeServing();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  // Requests are served from here on; "ready" is announced once the library's fonts are loaded.
  const selfHost = { '0.0.0.0': '127.0.0.1', '::': '::1' }[config.HOST] ?? config.HOST;
  const self = `http://${selfHost.includes(':') ? `[${selfHost}]` : selfHost}:${config.PORT}`;
  // The first API call through the pages builds the API app; later ones go to it directly.
  await fetch(`${self}/readyz`).then((answer) => answer.arrayBuffer());
  await warmFontLibrary(self);
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  console.log(`${config.SITE_TITLE} is ready at http://${shownHost}:${config.PORT}`);
  void warmWordCloudSample(self, CLOUD_SAMPLE_WIDTHS);
  void warmCaptcha(self);
  // The library arrives while the site is served (by one node of several); pages show each family at once.
  const library = seedLibraryInBackground();
  // Font identification draws every library face's references ahead, between its requests.
  const identification = () =>
    prepareIdentification().catch((error: unknown) => console.error('identification could not prepare', error));
  void identification();
  void library.done.then(identification);

  onStopSignal(async (signal) => {
    console.log(`Received ${signal}, closing…`);
    server.close();
    server.closeIdleConnections();
    // Requests still running get a few seconds; the database is checkpointed and closed either way.
    const force = setTimeout(() => server.closeAllConnections(), 5_000);
    force.unref();
    // A family being indexed is taken back before the database closes; it is seeded on the next start.
    await library.stop();
  });
}

main().catch(async (error: unknown) => {
  if (error instanceof EnvError || (error instanceof Error && error.name === 'DatabaseLockedError')) {
    console.error(error.message);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${env().PORT} is already in use. Stop the other server or set PORT to a free port.`);
  } else {
    console.error(error);
  }
  await closeDatabase().catch(() => {});
  process.exit(1);
});
