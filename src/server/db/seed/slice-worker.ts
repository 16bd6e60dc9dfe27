import fs from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { checkMerged, mergeSlices } from '../../engine/slice-merge.ts';
import { decodeWoff2 } from '../../engine/woff2.ts';

// Rebuilds one face from its slices off the main thread: decoding a hundred WOFF2 files and
// merging 30,000 glyphs takes a second or two, which would stall every request meanwhile.

/** A face to rebuild: its slices (WOFF2 files) and where the TTF goes. */
export interface SliceJob {
  slices: string[];
  out: string;
}

/** The answer: the glyph and character counts, or why it failed. */
export type SliceReply = { glyphs: number; characters: number; error?: undefined } | { error: string };

const MAX_SLICE_BYTES = 64 << 20;
const port = parentPort;
if (!port) throw new Error('slice-worker.ts runs in a worker thread');
// Started below the server's own thread (lowPriorityWorker): seeding happens behind a serving site.

port.on('message', async (job: SliceJob) => {
  try {
    const slices: Uint8Array[] = [];
    // One at a time: the WOFF2 decoder's module is not reentrant.
    for (const file of job.slices)
      slices.push(await decodeWoff2(new Uint8Array(await fs.readFile(file)), MAX_SLICE_BYTES));
    const merged = mergeSlices(slices);
    checkMerged(slices, merged.font);
    await fs.writeFile(job.out, merged.font);
    port.postMessage({ glyphs: merged.glyphCount, characters: merged.cmap.size } satisfies SliceReply);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies SliceReply);
  }
});
