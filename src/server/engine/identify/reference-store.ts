import fs from 'node:fs';
import path from 'node:path';
import { DENSITY_LENGTH, DESCRIPTOR_LENGTH, EDGE_LENGTH, similarityOfParts } from './features.ts';

// The reference index: each library face's descriptor of each character, drawn once and then only
// looked up, so a request costs a lookup per face and glyph, not a drawing of the library.
//
// On disk each face has one file, `<sha256 of the face>.idx`: a header (format version, descriptor
// length) and then records, only ever appended, one write per batch. A record is the code point and
// either nothing (the face lacks the character) or the descriptor packed in bytes (452 instead of
// 1 736). Only one thread of one process writes the files: it holds `writer.lock`; any other opens
// them read-only and keeps what it draws in memory. A file of another format version is deleted and
// made again, and a record cut short by a crash is cut off when the writer opens the file.
//
// In memory a face keeps only where each record lies (4 bytes per character of the common set, a
// map for the rest); descriptors are read from the file when asked for, so the index costs the
// page cache, not the process, however many faces and characters it holds.

/**
 * The format of the files: raise it whenever the descriptor, its packing or the drawing of the
 * references changes, and every index made before is rebuilt on the next start.
 */
export const INDEX_VERSION = 2;
const MAGIC = 0x58494146; // 'FAIX'
const HEADER_BYTES = 16;
const RECORD_HEAD = 8; // code point, presence
export const PAYLOAD_BYTES = 12 + EDGE_LENGTH + DENSITY_LENGTH; // edge scale, weight, aspect, edges, density
const ABSENT = -1;
const UNKNOWN = -2;

/** Packs a descriptor into the file's bytes: edges scaled to their largest value, density 0–1, as bytes. */
export function packDescriptor(descriptor: Float32Array, out: Uint8Array, offset = 0): void {
  const view = new DataView(out.buffer, out.byteOffset + offset, PAYLOAD_BYTES);
  let largest = 0;
  for (let i = 0; i < EDGE_LENGTH; i++) largest = Math.max(largest, descriptor[i] as number);
  view.setFloat32(0, largest, true);
  view.setFloat32(4, descriptor[EDGE_LENGTH + DENSITY_LENGTH] as number, true);
  view.setFloat32(8, descriptor[EDGE_LENGTH + DENSITY_LENGTH + 1] as number, true);
  const scale = largest > 0 ? 255 / largest : 0;
  for (let i = 0; i < EDGE_LENGTH; i++) {
    out[offset + 12 + i] = Math.round(Math.max(0, descriptor[i] as number) * scale);
  }
  for (let i = 0; i < DENSITY_LENGTH; i++) {
    const value = Math.min(1, Math.max(0, descriptor[EDGE_LENGTH + i] as number));
    out[offset + 12 + EDGE_LENGTH + i] = Math.round(value * 255);
  }
}

/** The descriptor packed by packDescriptor. */
export function unpackDescriptor(bytes: Uint8Array, offset = 0): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, PAYLOAD_BYTES);
  const descriptor = new Float32Array(DESCRIPTOR_LENGTH);
  const scale = view.getFloat32(0, true) / 255;
  for (let i = 0; i < EDGE_LENGTH; i++) descriptor[i] = (bytes[offset + 12 + i] as number) * scale;
  for (let i = 0; i < DENSITY_LENGTH; i++) {
    descriptor[EDGE_LENGTH + i] = (bytes[offset + 12 + EDGE_LENGTH + i] as number) / 255;
  }
  descriptor[EDGE_LENGTH + DENSITY_LENGTH] = view.getFloat32(4, true);
  descriptor[EDGE_LENGTH + DENSITY_LENGTH + 1] = view.getFloat32(8, true);
  return descriptor;
}

/**
 * glyphSimilarity (features.ts) of a descriptor and one packed by packDescriptor, read from the bytes
 * as they lie: a search over thousands of packed references (form-shapes.ts) unpacks none of them.
 */
export function similarityToPacked(descriptor: Float32Array, bytes: Uint8Array, offset = 0): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, 12);
  let edges = 0;
  const start = offset + 12;
  for (let i = 0; i < EDGE_LENGTH; i++) edges += (descriptor[i] as number) * (bytes[start + i] as number);
  edges *= view.getFloat32(0, true) / 255;
  let density = 0;
  const densities = start + EDGE_LENGTH;
  for (let i = 0; i < DENSITY_LENGTH; i++) {
    density += Math.abs((descriptor[EDGE_LENGTH + i] as number) - (bytes[densities + i] as number) / 255);
  }
  return similarityOfParts(
    edges,
    density,
    descriptor[EDGE_LENGTH + DENSITY_LENGTH] as number,
    view.getFloat32(4, true),
    Math.abs((descriptor[EDGE_LENGTH + DENSITY_LENGTH + 1] as number) - view.getFloat32(8, true)),
  );
}

/** Where a face's records are: by rank for the common characters, by code point for the rest. */
interface FaceRecords {
  fd: number | undefined;
  /** Bytes of the file written so far (the next record goes here). */
  size: number;
  common: Int32Array;
  others: Map<number, number>;
  /** Descriptors not in the file (a reader that is not the writer, or a store without a folder). */
  unsaved: Map<number, Float32Array | null>;
  count: number;
}

/** Options of a store: its folder (none: memory only) and the characters worth a compact slot. */
export interface ReferenceStoreOptions {
  directory?: string | undefined;
  /** Characters most asked for, in any order: their positions take 4 bytes a face. */
  common?: readonly string[];
}

/** Descriptors of characters per face; null records that a face lacks a character. */
export class ReferenceStore {
  readonly #directory: string | undefined;
  readonly #rank = new Map<number, number>();
  readonly #faces = new Map<string, FaceRecords>();
  readonly #writer: boolean;
  readonly #lock: string | undefined;
  readonly #buffer = new Uint8Array(PAYLOAD_BYTES);

  constructor(options: ReferenceStoreOptions = {}) {
    this.#directory = options.directory;
    for (const character of options.common ?? []) {
      const codePoint = character.codePointAt(0) ?? 0;
      if (!this.#rank.has(codePoint)) this.#rank.set(codePoint, this.#rank.size);
    }
    if (!this.#directory) {
      this.#writer = false;
      return;
    }
    fs.mkdirSync(this.#directory, { recursive: true });
    this.#lock = path.join(this.#directory, 'writer.lock');
    this.#writer = takeLock(this.#lock);
  }

  /** Whether this store writes the files (one store in one process does). */
  get writer(): boolean {
    return this.#writer;
  }

  #file(face: string): string {
    if (!/^[0-9a-f]{16,64}$/.test(face)) throw new Error(`Not a face hash: ${face}`);
    return path.join(this.#directory as string, `${face}.idx`);
  }

  #records(face: string): FaceRecords {
    let records = this.#faces.get(face);
    if (records) return records;
    records = {
      fd: undefined,
      size: HEADER_BYTES,
      common: new Int32Array(this.#rank.size).fill(UNKNOWN),
      others: new Map(),
      unsaved: new Map(),
      count: 0,
    };
    this.#faces.set(face, records);
    if (this.#directory) this.#open(face, records);
    return records;
  }

  /** Opens (or starts) a face's file and notes where each record lies. */
  #open(face: string, records: FaceRecords): void {
    const file = this.#file(face);
    let fd: number;
    try {
      fd = fs.openSync(file, this.#writer ? 'r+' : 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (!this.#writer) return;
      fd = this.#start(file);
    }
    const header = new Uint8Array(HEADER_BYTES);
    const read = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
    const view = new DataView(header.buffer);
    const current =
      read === HEADER_BYTES &&
      view.getUint32(0, true) === MAGIC &&
      view.getUint32(4, true) === INDEX_VERSION &&
      view.getUint32(8, true) === DESCRIPTOR_LENGTH;
    if (!current) {
      fs.closeSync(fd);
      if (!this.#writer) return;
      // Made by an older format (or never finished): made again from nothing.
      fs.rmSync(file, { force: true });
      fd = this.#start(file);
    }
    records.fd = fd;
    const end = this.#scan(fd, records);
    if (this.#writer && end < fs.fstatSync(fd).size) fs.ftruncateSync(fd, end);
    records.size = end;
  }

  #start(file: string): number {
    const fd = fs.openSync(file, 'w+');
    const header = new Uint8Array(HEADER_BYTES);
    const view = new DataView(header.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, INDEX_VERSION, true);
    view.setUint32(8, DESCRIPTOR_LENGTH, true);
    fs.writeSync(fd, header, 0, HEADER_BYTES, 0);
    return fd;
  }

  /** Reads the records' heads in large chunks; answers where the last whole record ends. */
  #scan(fd: number, records: FaceRecords): number {
    const chunk = new Uint8Array(1 << 20);
    const view = new DataView(chunk.buffer);
    let position = HEADER_BYTES;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, chunk.byteLength, position);
      let at = 0;
      while (at + RECORD_HEAD <= read) {
        const codePoint = view.getUint32(at, true);
        const present = view.getUint32(at + 4, true) === 1;
        const length = RECORD_HEAD + (present ? PAYLOAD_BYTES : 0);
        if (at + length > read) break;
        this.#note(records, codePoint, present ? position + at + RECORD_HEAD : ABSENT);
        at += length;
      }
      position += at;
      if (read < chunk.byteLength || at === 0) return position;
    }
  }

  #note(records: FaceRecords, codePoint: number, where: number): void {
    const rank = this.#rank.get(codePoint);
    const known = rank === undefined ? records.others.has(codePoint) : records.common[rank] !== UNKNOWN;
    if (!known) records.count++;
    if (rank === undefined) records.others.set(codePoint, where);
    else records.common[rank] = where;
  }

  #where(records: FaceRecords, codePoint: number): number {
    const rank = this.#rank.get(codePoint);
    if (rank === undefined) return records.others.get(codePoint) ?? UNKNOWN;
    return records.common[rank] as number;
  }

  /** The descriptor of a character in a face: null when the face lacks it, undefined when not indexed yet. */
  get(face: string, character: string): Float32Array | null | undefined {
    const codePoint = character.codePointAt(0) ?? 0;
    const records = this.#records(face);
    const unsaved = records.unsaved.get(codePoint);
    if (unsaved !== undefined) return unsaved;
    const where = this.#where(records, codePoint);
    if (where === UNKNOWN) return undefined;
    if (where === ABSENT || records.fd === undefined) return null;
    fs.readSync(records.fd, this.#buffer, 0, PAYLOAD_BYTES, where);
    return unpackDescriptor(this.#buffer);
  }

  /** Whether a face has a record of the character (drawn or known absent). */
  has(face: string, character: string): boolean {
    const codePoint = character.codePointAt(0) ?? 0;
    const records = this.#records(face);
    return records.unsaved.has(codePoint) || this.#where(records, codePoint) !== UNKNOWN;
  }

  /** The characters each face has no record of yet (faces with none are left out). */
  missing(faces: readonly string[], characters: readonly string[]): Map<string, string[]> {
    const wanted = new Map<string, string[]>();
    for (const face of faces) {
      const absent = characters.filter((character) => !this.has(face, character));
      if (absent.length) wanted.set(face, absent);
    }
    return wanted;
  }

  /** How many characters a face has records of. */
  count(face: string): number {
    const records = this.#records(face);
    return records.count + records.unsaved.size;
  }

  /**
   * Records a face's descriptors (null: the face lacks the character). The writer appends them to
   * the face's file in one write; characters already recorded are left as they are.
   */
  add(face: string, entries: readonly (readonly [string, Float32Array | null])[]): void {
    const records = this.#records(face);
    const fresh = entries.filter(([character]) => !this.has(face, character));
    if (fresh.length === 0) return;
    if (!this.#writer || records.fd === undefined) {
      for (const [character, descriptor] of fresh) records.unsaved.set(character.codePointAt(0) ?? 0, descriptor);
      return;
    }
    let bytes = 0;
    for (const [, descriptor] of fresh) bytes += RECORD_HEAD + (descriptor ? PAYLOAD_BYTES : 0);
    const out = new Uint8Array(bytes);
    const view = new DataView(out.buffer);
    const places: [number, number][] = [];
    let at = 0;
    for (const [character, descriptor] of fresh) {
      const codePoint = character.codePointAt(0) ?? 0;
      view.setUint32(at, codePoint, true);
      view.setUint32(at + 4, descriptor ? 1 : 0, true);
      if (descriptor) packDescriptor(descriptor, out, at + RECORD_HEAD);
      places.push([codePoint, descriptor ? records.size + at + RECORD_HEAD : ABSENT]);
      at += RECORD_HEAD + (descriptor ? PAYLOAD_BYTES : 0);
    }
    let written = 0;
    while (written < out.byteLength) {
      written += fs.writeSync(records.fd, out, written, out.byteLength - written, records.size + written);
    }
    records.size += out.byteLength;
    for (const [codePoint, where] of places) this.#note(records, codePoint, where);
  }

  /** Forgets the faces not in `keep` and, as the writer, deletes their files (faces that left the library). */
  keepOnly(keep: ReadonlySet<string>): void {
    for (const [face, records] of this.#faces) {
      if (keep.has(face)) continue;
      if (records.fd !== undefined) fs.closeSync(records.fd);
      this.#faces.delete(face);
    }
    if (!this.#directory || !this.#writer) return;
    for (const name of fs.readdirSync(this.#directory)) {
      const match = /^([0-9a-f]+)\.idx$/.exec(name);
      if (match && !keep.has(match[1] as string)) fs.rmSync(path.join(this.#directory, name), { force: true });
    }
  }

  /** Closes the files and gives up writing. */
  close(): void {
    for (const records of this.#faces.values()) if (records.fd !== undefined) fs.closeSync(records.fd);
    this.#faces.clear();
    if (this.#writer && this.#lock) fs.rmSync(this.#lock, { force: true });
  }
}

/**
 * Takes the folder's writer lock for this process (the pid in `writer.lock`), taking it over from a
 * process that has ended; answers false while another living process holds it.
 */
function takeLock(file: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      process.once('exit', () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file, { force: true });
        } catch {}
      });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(file, 'utf8'));
      // This process's writer was a thread that is gone (the identify worker is one per process, and a
      // new one starts only once the old one has been stopped): the new one takes over.
      if (holder === process.pid) return true;
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) return false;
      fs.rmSync(file, { force: true });
    }
  }
  return false;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
