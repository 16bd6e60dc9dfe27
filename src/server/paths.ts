import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Every file the server reads from the project (migrations, seed content, data lists, worker
// sources) is resolved here from one root. The root is found by walking up from this module to
// the package.json that names the project, so the code runs the same from `src/` (npm start,
// tests) and bundled into `dist/server/` (node dist/server/entry.mjs), from any working directory.

const PACKAGE_NAME = 'font-alliance';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === PACKAGE_NAME) return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`The ${PACKAGE_NAME} project folder was not found above ${start}`);
  }
}

/** The project folder: package.json, node_modules, src/ and dist/. */
export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

const SERVER_SRC = path.join(PROJECT_ROOT, 'src', 'server');

/** A path inside the server's source tree (data files and worker entry points live there). */
export function serverSource(...parts: string[]): string {
  return path.join(SERVER_SRC, ...parts);
}

/** The committed SQL migrations. */
export const MIGRATIONS_DIR = serverSource('db', 'migrations');

/** The seed articles, albums and site data (news/, baike/, … and site.json). */
export const CONTENT_SEED_DIR = serverSource('db', 'seed', 'content');

/** The build: dist/server (the adapter's entry) and dist/client (assets and prerendered pages). */
export const DIST_DIR = path.join(PROJECT_ROOT, 'dist');

/** The project's package.json, for resolving native add-ons from its node_modules. */
export const PROJECT_MANIFEST = path.join(PROJECT_ROOT, 'package.json');

/** Reads a data file shipped beside the server code, e.g. `dataFile('engine', 'ofl-1.1.txt')`. */
export function readDataFile(domain: 'engine' | 'auth', name: string): string {
  return fs.readFileSync(serverSource(domain, 'data', name), 'utf8');
}
