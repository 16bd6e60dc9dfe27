// A worker thread that draws reference descriptors of characters in one face, taking the face and
// giving it back between rounds, as the identification worker and a benchmark in another thread
// would; it answers the descriptors of the last round for comparison with a drawing in one thread.
import { parentPort, workerData } from 'node:worker_threads';
import { ReferenceFont } from '../../../src/server/engine/identify/reference.ts';

const { path, characters, rounds, start } = workerData as {
  path: string;
  characters: string[];
  rounds: number;
  start: Int32Array;
};
// Both workers start drawing at the same moment.
Atomics.add(start, 0, 1);
while (Atomics.load(start, 0) < 2) Atomics.wait(start, 0, 1, 5);
let last: (Float32Array | null)[] = [];
for (let round = 0; round < rounds; round++) {
  const font = new ReferenceFont({ path });
  last = characters.map((character) => font.describe(character));
  font.close();
}
parentPort?.postMessage(last);
