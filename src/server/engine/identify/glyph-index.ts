import { DESCRIPTOR_LENGTH } from './features.ts';

// The reference index: each face's descriptor of each character, made once (a face is drawn only
// for characters it has not been asked for before) and then only looked up, so a request costs a
// lookup per face and glyph, not a drawing of the library. A face's part of the index can be
// written out and read back, so a restart does not draw everything again.

/** Descriptors of characters per face; null records that a face lacks a character. */
export class GlyphIndex {
  private readonly faces = new Map<string, Map<number, Float32Array | null>>();

  /** The descriptor of a character in a face: null when the face lacks it, undefined when not indexed yet. */
  get(faceId: string, character: string): Float32Array | null | undefined {
    return this.faces.get(faceId)?.get(character.codePointAt(0) ?? 0);
  }

  /** Records a face's descriptor of a character (null: the face lacks it). */
  set(faceId: string, character: string, descriptor: Float32Array | null): void {
    let face = this.faces.get(faceId);
    if (!face) {
      face = new Map();
      this.faces.set(faceId, face);
    }
    face.set(character.codePointAt(0) ?? 0, descriptor);
  }

  /** The characters each face has not been indexed for yet (faces with none are left out). */
  missing(faceIds: readonly string[], characters: readonly string[]): Map<string, string[]> {
    const wanted = new Map<string, string[]>();
    for (const faceId of faceIds) {
      const absent = characters.filter((character) => this.get(faceId, character) === undefined);
      if (absent.length) wanted.set(faceId, absent);
    }
    return wanted;
  }

  /** How many characters a face has been indexed for. */
  size(faceId: string): number {
    return this.faces.get(faceId)?.size ?? 0;
  }

  /** A face's part of the index as bytes: per entry, the code point, a presence byte and the descriptor. */
  export(faceId: string): Uint8Array {
    const face = this.faces.get(faceId) ?? new Map<number, Float32Array | null>();
    const recordBytes = 4 + 4 + DESCRIPTOR_LENGTH * 4;
    const out = new Uint8Array(4 + face.size * recordBytes);
    const view = new DataView(out.buffer);
    view.setUint32(0, DESCRIPTOR_LENGTH, true);
    let offset = 4;
    for (const [codePoint, descriptor] of face) {
      view.setUint32(offset, codePoint, true);
      view.setUint32(offset + 4, descriptor ? 1 : 0, true);
      if (descriptor)
        out.set(new Uint8Array(descriptor.buffer, descriptor.byteOffset, descriptor.byteLength), offset + 8);
      offset += recordBytes;
    }
    return out;
  }

  /** Reads back a face's part written by export(); bytes of another descriptor layout are ignored. */
  import(faceId: string, bytes: Uint8Array): void {
    if (bytes.byteLength < 4) return;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== DESCRIPTOR_LENGTH) return;
    const recordBytes = 4 + 4 + DESCRIPTOR_LENGTH * 4;
    for (let offset = 4; offset + recordBytes <= bytes.byteLength; offset += recordBytes) {
      const codePoint = view.getUint32(offset, true);
      const present = view.getUint32(offset + 4, true) === 1;
      const descriptor = present ? new Float32Array(bytes.slice(offset + 8, offset + recordBytes).buffer) : null;
      this.set(faceId, String.fromCodePoint(codePoint), descriptor);
    }
  }
}
