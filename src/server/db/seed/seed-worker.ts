// A worker thread for seeding the font library: unpacks a family's package and reads each font's
// metadata, hashes and cmap off the event loop. On it, a 10 MB CJK face took 120 ms to describe (cmap
// coverage of three character sets) and a package's inflation ran in synchronous slices, and the
// background seeding of 28 families held the loop of a serving site for 0.6–2.7 s at a time. Runs
// on Node 24 directly (types are stripped), like the subset workers.
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import zlib from 'node:zlib';
import { FontFormatError, readFontMetadata } from '../../engine/metadata.ts';
import { readSfnt } from '../../engine/sfnt.ts';
import { cmapOf } from '../../engine/sfnt-info.ts';
import { extractFontFiles } from './font-sources.ts';
import type { SeedReply, SeedRequest } from './off-thread.ts';

const port = parentPort;
if (!port) throw new Error('seed-worker.ts must run as a worker thread');
// Started below the server's own thread (lowPriorityWorker): seeding happens behind a serving site.

port.on('message', async (request: SeedRequest) => {
  try {
    if (request.kind === 'extract') {
      const files = await extractFontFiles(request.tarball, request.destDir);
      port.postMessage({ id: request.id, files } satisfies SeedReply);
      return;
    }
    const bytes = await fsp.readFile(request.file);
    const font = new Uint8Array(bytes);
    const described = {
      meta: readFontMetadata(font),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      crc32: zlib.crc32(bytes),
      codePoints: Uint32Array.from(cmapOf(readSfnt(font)).keys()),
    };
    port.postMessage({ id: request.id, described } satisfies SeedReply, [described.codePoints.buffer]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    port.postMessage({
      id: request.id,
      error: message,
      formatError: error instanceof FontFormatError,
    } satisfies SeedReply);
  }
});
