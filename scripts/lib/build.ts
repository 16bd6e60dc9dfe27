import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireDirLock } from '../../src/server/db/lock.ts';

/** Everything the client and server bundles are made from. */
const BUILD_INPUTS = ['src', 'public', 'astro.config.ts', 'package-lock.json', 'tsconfig.json'];
const STAMP = 'dist/.build-stamp';

function* filesUnder(entry: string): Generator<string> {
  if (!fs.existsSync(entry)) return;
  if (!fs.statSync(entry).isDirectory()) {
    yield entry;
    return;
  }
  for (const name of fs.readdirSync(entry).sort()) yield* filesUnder(path.join(entry, name));
}

/** A hash of the build inputs' contents (not mtimes: a fresh clone has new mtimes everywhere). */
export function buildFingerprint(): string {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) {
    for (const file of filesUnder(input)) {
      hash.update(file).update('\0').update(fs.readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

function isBuilt(fingerprint: string): boolean {
  return (
    fs.existsSync('dist/server/entry.mjs') && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === fingerprint
  );
}

/**
 * Holds the build lock of this checkout: several `npm start` processes started at once in one folder
 * (nodes of one site on one machine) would otherwise build into the same dist/ at the same time.
 */
async function holdBuildLock(): Promise<() => void> {
  const dir = path.resolve('node_modules/.cache/font-alliance-build');
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (let waited = false; ; waited = true) {
    try {
      return acquireDirLock(dir);
    } catch (error) {
      if ((error as Error).name !== 'DatabaseLockedError') throw error;
      if (!waited) console.log('Waiting for another process that builds the site…');
      await sleep(500);
    }
  }
}

/**
 * Runs `astro build` unless dist/ was built from exactly the current sources; answers the build's
 * fingerprint, which also identifies the build (the page cache keeps only pages of this build).
 */
export async function ensureBuilt(): Promise<string> {
  const fingerprint = buildFingerprint();
  if (isBuilt(fingerprint)) return fingerprint;
  const release = await holdBuildLock();
  try {
    // Another process may have built it while this one waited.
    if (isBuilt(fingerprint)) return fingerprint;
    console.log('Building the site (first start or changed sources)…');
    const started = Date.now();
    const astro = path.resolve('node_modules/.bin/astro');
    // A child process, waited for without blocking: `npm start` opens and seeds the database meanwhile.
    const child = spawn(process.execPath, [astro, 'build'], { stdio: 'inherit' });
    const status = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (status !== 0) throw new Error(`astro build failed with exit code ${status}; run "npm run build" to see why.`);
    fs.writeFileSync(STAMP, fingerprint);
    console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return fingerprint;
  } finally {
    release();
  }
}
