import { buffer } from 'node:stream/consumers';
import { claimSiteRun } from '../cluster/site-task.ts';
import { log } from '../log.ts';
import { INCOMING_PREFIX, storage } from '../storage/index.ts';
import { OUTPUTS_PREFIX, settleJobs } from './jobs.ts';
import { toolsTtlMs } from './runtime.ts';
import { UPLOADS_PREFIX } from './uploads.ts';

// Removes expired uploads and job outputs. Each folder names its expiry in meta.json (uploads) or
// manifest.json (outputs); a folder without one (an upload cut off, a job still running or killed
// with the process) is judged by its newest file plus the time to live and a grace period.

const GRACE_MS = 15 * 60_000;

async function expiryOf(folder: string, keys: string[]): Promise<number> {
  const described = keys.find((key) => key === `${folder}/meta.json` || key === `${folder}/manifest.json`);
  if (described) {
    const object = await storage().get(described);
    if (object) {
      try {
        const { expiresAt } = JSON.parse((await buffer(object.body)).toString('utf8')) as { expiresAt?: string };
        const time = Date.parse(expiresAt ?? '');
        if (Number.isFinite(time)) return time;
      } catch {
        // an unreadable description: fall back to the files' age
      }
    }
  }
  let newest = 0;
  for (const key of keys) newest = Math.max(newest, (await storage().stat(key))?.mtime.getTime() ?? 0);
  return newest + toolsTtlMs() + GRACE_MS;
}

/** How long an upload may take before its partial file counts as left behind. */
export const UPLOAD_TIMEOUT_MS = 30 * 60_000;

/**
 * Deletes every expired upload and output folder, and the partial files and empty folders a killed
 * process left (older than the upload timeout); answers how many went.
 */
export async function sweepToolFiles(now = Date.now()): Promise<number> {
  await settleJobs(new Date(now));
  let removed = await storage().sweepLeftovers(new Date(now - UPLOAD_TIMEOUT_MS), 'tools');
  // Presigned uploads (tools/incoming/<id>/<name>) are moved out when a submission takes them;
  // what is still there after the time to live was never used.
  for (const prefix of [UPLOADS_PREFIX, OUTPUTS_PREFIX, INCOMING_PREFIX]) {
    const folders = new Map<string, string[]>();
    for (const key of await storage().list(prefix)) {
      const folder = key.split('/').slice(0, 3).join('/');
      folders.set(folder, [...(folders.get(folder) ?? []), key]);
    }
    for (const [folder, keys] of folders) {
      if ((await expiryOf(folder, keys)) > now) continue;
      await storage().deleteTree(folder);
      removed++;
    }
  }
  return removed;
}

let timer: NodeJS.Timeout | undefined;

/**
 * Sweeps now and then every few minutes (a quarter of the time to live, 1–10 minutes). The timer
 * is unref'd so it never keeps a process alive; calling this again does nothing.
 */
export function startToolsSweeper(): void {
  if (timer) return;
  const every = Math.min(10 * 60_000, Math.max(60_000, toolsTtlMs() / 4));
  // One node of the site sweeps each time (cluster/site-task.ts); the others skip.
  const sweep = () =>
    void claimSiteRun('tools-sweep', every)
      .then((mine) => (mine ? sweepToolFiles() : 0))
      .then(
        (removed) => removed > 0 && log().info({ removed }, 'expired tool files removed'),
        (error: unknown) => log().error({ err: error }, 'tool files sweep failed'),
      );
  timer = setInterval(sweep, every);
  timer.unref();
  sweep();
}

/** Stops the sweeper (tests). */
export function stopToolsSweeper(): void {
  clearInterval(timer);
  timer = undefined;
}
