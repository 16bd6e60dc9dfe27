import fs from 'node:fs';
import { readSfnt, type Sfnt, tagAt, viewOf } from './sfnt.ts';

/**
 * Some tables of a font file, read by position: a library face of 20 MB is not read whole to
 * learn its cmap (about 100 KB) or its names. Tables not asked for are left out of the answer.
 */
export function readSfntFile(file: string, tags: readonly string[]): Sfnt {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(12);
    fs.readSync(fd, head, 0, 12, 0);
    const count = head.readUInt16BE(4);
    const records = Buffer.alloc(count * 16);
    if (count === 0 || fs.readSync(fd, records, 0, records.byteLength, 12) < records.byteLength) {
      // Not a plain font file (or a cut one): read it whole and let readSfnt say what is wrong.
      return readSfnt(new Uint8Array(fs.readFileSync(file)));
    }
    const tables: Sfnt['tables'] = [];
    for (let i = 0; i < count; i++) {
      const tag = tagAt(records, i * 16);
      if (!tags.includes(tag)) continue;
      const view = viewOf(records);
      const data = new Uint8Array(view.getUint32(i * 16 + 12));
      fs.readSync(fd, data, 0, data.byteLength, view.getUint32(i * 16 + 8));
      tables.push({ tag, data });
    }
    return { flavor: head.readUInt32BE(0), tables };
  } finally {
    fs.closeSync(fd);
  }
}
