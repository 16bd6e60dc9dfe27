// The identification worker: the one thread of the process that reads pictures for font
// identification, holds the character reader's model and draws and writes the reference index.
// One thread, so the model (about 100 MB once loaded) and the index are held once per process
// and the index has one writer. Requests are run one at a time; the background preparation of the
// index runs between them, in batches of about 50 ms. Runs on Node 24 directly (types stripped).
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { FontInputError } from '../../engine/font-errors.ts';
import { env } from '../../env.ts';
import { storage } from '../../storage/index.ts';
import type { IdentifyReply, IdentifyRequest, IdentifyResults, IdentifyTask } from './host.ts';
import { LibraryReferences } from './references.ts';
import { matchGlyphsTask, readGlyphsTask, unidentifiedGlyphsTask } from './tasks.ts';

const port = parentPort;
if (!port) throw new Error('identify/worker.ts must run as a worker thread');
// Started below the server's own thread (host.ts: lowPriorityWorker): a person waits for its answers,
// but its background preparation may draw for an hour after a first start, and pages come first.

/** Requests waiting, and whether one is running: the background work waits for both to be empty. */
const waiting: IdentifyRequest[] = [];
let running = false;
let idle: (() => void)[] = [];

/** Resolves once no request is running or waiting (the background work's turn). */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    // A turn of the event loop first, so requests that arrived during a batch are seen.
    setImmediate(() => {
      if (!running && waiting.length === 0) resolve();
      else idle.push(resolve);
    });
  });
}

const references = new LibraryReferences(path.join(env().dataDir, 'cache', 'identify'), whenIdle);
// Indexes made before this format lived in storage, and were rewritten whole on every request.
if (references.store.writer)
  void storage()
    .deleteTree('private/identify')
    .catch(() => {});

async function run(task: IdentifyTask): Promise<IdentifyResults[IdentifyTask['kind']]> {
  switch (task.kind) {
    case 'glyphs':
      return unidentifiedGlyphsTask(task.picture, task.judges, task.faces, references);
    case 'characters':
      return readGlyphsTask(task.picture, task.boxes, task.judges, task.faces, references);
    case 'match':
      return matchGlyphsTask(task, references);
    case 'prepare':
      references.prepare(task.faces);
      return { started: true };
    case 'prepared':
      await references.prepared();
      return references.progress();
  }
}

async function pump(): Promise<void> {
  if (running) return;
  running = true;
  for (let request = waiting.shift(); request; request = waiting.shift()) {
    const send = (reply: IdentifyReply) => port?.postMessage(reply);
    const { id, task } = request;
    // Waiting for the background passes is not a request: it must not hold the others up.
    if (task.kind === 'prepared') {
      void run(task).then((result) => send({ id, type: 'done', result }));
      continue;
    }
    try {
      send({ id, type: 'done', result: await run(task) });
    } catch (error) {
      const userFacing = error instanceof FontInputError;
      const message = error instanceof Error ? error.message : String(error);
      const detail = userFacing ? error.detail : String((error as Error)?.stack ?? error);
      send({ id, type: 'failed', message, detail, userFacing });
    }
  }
  running = false;
  const waiters = idle;
  idle = [];
  for (const resolve of waiters) resolve();
}

port.on('message', (request: IdentifyRequest) => {
  waiting.push(request);
  void pump();
});
