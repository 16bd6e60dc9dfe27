/**
 * A deliberately small cmap reader, independent of fontkit, so that tests can count a font's
 * code points another way: reads the best Unicode subtable (format 12, else format 4) of a TTF.
 */
export function readCmapCodePoints(bytes: Uint8Array): Set<number> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const numTables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < numTables; i++) {
    const record = 12 + i * 16;
    const tag = String.fromCharCode(...bytes.subarray(record, record + 4));
    if (tag === 'cmap') cmap = view.getUint32(record + 8);
  }
  if (cmap < 0) throw new Error('No cmap table');

  const subtables = new Map<string, number>();
  const count = view.getUint16(cmap + 2);
  for (let i = 0; i < count; i++) {
    const record = cmap + 4 + i * 8;
    subtables.set(`${view.getUint16(record)}/${view.getUint16(record + 2)}`, cmap + view.getUint32(record + 4));
  }
  const full = subtables.get('3/10') ?? subtables.get('0/4') ?? subtables.get('0/6');
  if (full !== undefined && view.getUint16(full) === 12) return readFormat12(view, full);
  const bmp = subtables.get('3/1') ?? subtables.get('0/3');
  if (bmp !== undefined && view.getUint16(bmp) === 4) return readFormat4(view, bmp);
  throw new Error('No Unicode cmap subtable of format 4 or 12');
}

function readFormat12(view: DataView, offset: number): Set<number> {
  const codePoints = new Set<number>();
  const groups = view.getUint32(offset + 12);
  for (let i = 0; i < groups; i++) {
    const group = offset + 16 + i * 12;
    const start = view.getUint32(group);
    const end = view.getUint32(group + 4);
    const glyph = view.getUint32(group + 8);
    for (let cp = start; cp <= end; cp++) if (glyph + (cp - start) !== 0) codePoints.add(cp);
  }
  return codePoints;
}

function readFormat4(view: DataView, offset: number): Set<number> {
  const codePoints = new Set<number>();
  const segments = view.getUint16(offset + 6) / 2;
  const ends = offset + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s++) {
    const start = view.getUint16(starts + s * 2);
    const end = view.getUint16(ends + s * 2);
    const delta = view.getInt16(deltas + s * 2);
    const rangeOffset = view.getUint16(rangeOffsets + s * 2);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      let glyph: number;
      if (rangeOffset === 0) {
        glyph = (cp + delta) & 0xffff;
      } else {
        const at = rangeOffsets + s * 2 + rangeOffset + (cp - start) * 2;
        const raw = view.getUint16(at);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) codePoints.add(cp);
    }
  }
  return codePoints;
}
