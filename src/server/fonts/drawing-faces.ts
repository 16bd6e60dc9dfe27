import fsp from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { decodeFont } from '../engine/convert.ts';
import { sniffFontFormat } from '../engine/font-format.ts';
import { acquireFace, type DrawingFace, type FaceSource } from '../engine/text/font-registry.ts';
import { storage as configuredStorage, type Storage } from '../storage/index.ts';

// Stored fonts (library faces, uploads) handed to the font registry for drawing. A plain TrueType
// or OpenType file on local storage is registered from its own file, so Skia maps it instead of
// the process holding a copy; anything else (a bucket, a WOFF2 upload, one face of a collection) is
// read and decoded into bytes first.

/** A font in storage to draw with. */
export interface StoredFace {
  key: string;
  /** Which face of a collection (0 for any other file). */
  faceIndex: number;
  /** How large a WOFF or WOFF2 may expand. */
  maxSfntBytes: number;
  /** The SHA-256 of the stored file when the library knows it (saves hashing it again). */
  sha256?: string | undefined;
}

/** The stored file's bytes; throws when it is gone. */
export async function readStored(key: string, storage: Storage = configuredStorage()): Promise<Uint8Array> {
  const object = await storage.get(key);
  if (!object) throw new Error(`file is missing from storage: ${key}`);
  return object.bytes ?? new Uint8Array(await buffer(object.body));
}

/** The first bytes of a local file, enough to tell its format. */
async function headOf(file: string): Promise<Uint8Array | undefined> {
  const handle = await fsp.open(file, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const head = new Uint8Array(16);
    const { bytesRead } = await handle.read(head, 0, head.byteLength, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Where the registry reads a stored face from: its file when it can, else its decoded bytes. */
export async function storedFaceSource(ref: StoredFace, storage: Storage = configuredStorage()): Promise<FaceSource> {
  const file = storage.localFile(ref.key);
  if (file && ref.faceIndex === 0) {
    const head = await headOf(file);
    const format = head && sniffFontFormat(head);
    if (format === 'ttf' || format === 'otf') return { path: file, sha256: ref.sha256 };
  }
  const { sfnt } = await decodeFont(await readStored(ref.key, storage), {
    faceIndex: ref.faceIndex,
    maxSfntBytes: ref.maxSfntBytes,
  });
  return { bytes: sfnt };
}

/** Registers a stored face for drawing; `release()` it when done. */
export async function acquireStoredFace(ref: StoredFace): Promise<DrawingFace> {
  return acquireFace(await storedFaceSource(ref));
}
