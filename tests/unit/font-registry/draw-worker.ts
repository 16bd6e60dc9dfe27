// A worker thread that takes a face and gives it back again and again, as a drawer in another
// thread does (a pixel preview's cache turning over), while the test's own thread draws with the
// same face.
import { parentPort, workerData } from 'node:worker_threads';
import { acquireFace } from '../../../src/server/engine/text/font-registry.ts';

const { path, rounds } = workerData as { path: string; rounds: number };
for (let round = 0; round < rounds; round++) acquireFace({ path }).release();
parentPort?.postMessage('done');
