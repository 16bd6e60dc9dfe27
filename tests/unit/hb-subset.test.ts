import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadSubsetFace, loadSubsetFaceFromFile, SubsetError } from '../../src/server/engine/hb-subset.ts';

const FONT_FILE = 'tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf';
const FONT = new Uint8Array(fs.readFileSync(FONT_FILE));
const TEXT = [...'永和九年，岁在癸丑'].map((ch) => ch.codePointAt(0) ?? 0);

describe('a subset face', () => {
  test('subsets from the plain face at first, and the same bytes once preprocessed', () => {
    const face = loadSubsetFace(FONT);
    try {
      expect(face.preprocessed).toBe(false);
      // The font and the instance's own memory, which the face cache's budget counts.
      expect(face.size).toBeGreaterThan(FONT.byteLength);
      const plain = face.subset(TEXT);
      expect(face.uses).toBe(1);
      face.preprocess();
      expect(face.preprocessed).toBe(true);
      expect(face.size).toBeGreaterThan(FONT.byteLength * 4);
      const preprocessed = face.subset(TEXT);
      expect(face.uses).toBe(2);
      expect(Buffer.from(preprocessed).equals(Buffer.from(plain))).toBe(true);
      expect(plain.byteLength).toBeLessThan(FONT.byteLength / 4);
    } finally {
      face.destroy();
    }
  });

  test('cannot be used once destroyed, and preprocessing it then does nothing', () => {
    const face = loadSubsetFace(FONT);
    face.destroy();
    face.preprocess();
    expect(face.preprocessed).toBe(false);
    expect(() => face.subset(TEXT)).toThrow(SubsetError);
  });

  test('refuses bytes that are not a font', () => {
    expect(() => loadSubsetFace(new TextEncoder().encode('not a font at all'))).toThrow(SubsetError);
  });

  test('read from its file in place, subsets to the same bytes as from a copy of the file', () => {
    const fromBytes = loadSubsetFace(FONT);
    const fromFile = loadSubsetFaceFromFile(FONT_FILE);
    try {
      expect(fromFile.size).toBe(fromBytes.size);
      expect(Buffer.from(fromFile.subset(TEXT)).equals(Buffer.from(fromBytes.subset(TEXT)))).toBe(true);
    } finally {
      fromBytes.destroy();
      fromFile.destroy();
    }
  });

  test('refuses a file that is not a font', () => {
    expect(() => loadSubsetFaceFromFile('package.json')).toThrow(SubsetError);
  });
});
