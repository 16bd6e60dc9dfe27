// A family that a registry package ships only as web-font slices is rebuilt into whole fonts at
// seeding. Here a real font (the Noto Sans SC fixture) is cut into slices the way web-font packages
// cut them (hb-subset, WOFF2, a CSS listing them, one slice overlapping another), packed as an npm
// package, and rebuilt; fontTools, hb-shape and ots-sanitize judge the result against the original.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SlicedSource } from '../../src/server/db/seed/font-catalogue.ts';
import { rebuildSlicedFiles } from '../../src/server/db/seed/font-sources.ts';
import { loadSubsetFace } from '../../src/server/engine/hb-subset.ts';
import { mergeSlices } from '../../src/server/engine/slice-merge.ts';
import { encodeWoff2 } from '../../src/server/engine/woff2.ts';
import {
  cmapByFontTools,
  decomposedOutlinesByFontTools,
  featuresByFontTools,
  passesOts,
  shapedOutlines,
} from '../helpers/font-oracle.ts';

const ORIGINAL = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'));
const LICENSE = 'Copyright 2014-2021 Adobe (http://www.adobe.com/)\n\nSIL OPEN FONT LICENSE Version 1.1\n';
let dir: string;
let tarball: string;
let slices: Uint8Array[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-slices-'));
  const codePoints = cmapByFontTools(ORIGINAL);
  const latin = codePoints.filter((cp) => cp < 0x3000);
  const han = codePoints.filter((cp) => cp >= 0x3000);
  const third = Math.ceil(han.length / 3);
  // Three slices of the hanzi, the Latin in a fourth, and a fifth that repeats some of each.
  const parts = [
    latin,
    han.slice(0, third),
    han.slice(third, 2 * third),
    han.slice(2 * third),
    [...latin.slice(0, 10), ...han.slice(0, 20)],
  ];
  const face = loadSubsetFace(ORIGINAL);
  slices = parts.map((part) => face.subset(part, { keepAllNames: true }));
  face.destroy();
  const pkg = path.join(dir, 'package');
  fs.mkdirSync(path.join(pkg, 'files'), { recursive: true });
  let css = '';
  for (const [i, slice] of slices.entries()) {
    fs.writeFileSync(path.join(pkg, 'files', `test-sans-${i}.woff2`), await encodeWoff2(slice));
    css += `@font-face{font-family:'Test Sans';font-weight:400;src:url('./files/test-sans-${i}.woff2') format('woff2');}\n`;
  }
  // Another weight in the same CSS is not part of this face.
  css += "@font-face{font-family:'Test Sans';font-weight:700;src:url('./files/missing-bold.woff2') format('woff2');}\n";
  fs.writeFileSync(path.join(pkg, 'test-sans.css'), css);
  fs.writeFileSync(path.join(pkg, 'OFL.txt'), LICENSE);
  tarball = path.join(dir, 'test-sans-1.0.0.tgz');
  await tar.c({ gzip: true, file: tarball, cwd: dir }, ['package']);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const source = (faces: SlicedSource['faces']): SlicedSource => ({
  kind: 'sliced',
  scope: '',
  name: 'test-sans',
  version: '1.0.0',
  size: fs.statSync(tarball).size,
  integrity: 'sha512-unused',
  faces,
  licenseFile: 'OFL.txt',
});

describe('rebuilding a family from its web-font slices', () => {
  test('gives back the font: the same characters, outlines, features and shaping, OTS-clean, licence kept', async () => {
    const out = path.join(dir, 'rebuilt');
    const files = await rebuildSlicedFiles(
      tarball,
      out,
      source([{ css: 'test-sans.css', family: 'Test Sans', weight: 400, file: 'TestSans-Regular.ttf' }]),
    );
    expect(files.fonts.map((file) => path.basename(file))).toEqual(['TestSans-Regular.ttf']);
    expect(files.licenseText).toBe(LICENSE);
    const rebuilt = new Uint8Array(fs.readFileSync(files.fonts[0] ?? ''));

    expect(passesOts(rebuilt)).toBe(true);
    const codePoints = cmapByFontTools(ORIGINAL);
    expect(cmapByFontTools(rebuilt)).toEqual(codePoints);
    const chars = codePoints.map((cp) => String.fromCodePoint(cp));
    expect(decomposedOutlinesByFontTools(rebuilt, chars)).toEqual(decomposedOutlinesByFontTools(ORIGINAL, chars));
    expect(featuresByFontTools(rebuilt)).toEqual(featuresByFontTools(ORIGINAL));
    // Shaping within a slice is the original's: ligatures, kerning, localized forms.
    for (const [text, features] of [
      ['office AVATAR Type', ''],
      ['一丁七万丈三上下', ''],
      ['Wave office', 'kern=0'],
    ] as const) {
      expect(shapedOutlines(rebuilt, text, 'ltr', features), text).toEqual(
        shapedOutlines(ORIGINAL, text, 'ltr', features),
      );
    }
    const vertical = chars
      .filter((char) => (char.codePointAt(0) ?? 0) >= 0x4e00)
      .slice(0, 12)
      .join('');
    expect(shapedOutlines(rebuilt, vertical, 'ttb')).toEqual(shapedOutlines(ORIGINAL, vertical, 'ttb'));
  });

  test('a face whose CSS names no slices is refused, and so are slices that are not TrueType', async () => {
    await expect(
      rebuildSlicedFiles(
        tarball,
        path.join(dir, 'none'),
        source([{ css: 'test-sans.css', family: 'Other', file: 'X.ttf' }]),
      ),
    ).rejects.toThrow(/names no slices/);
    const notTrueType = (slices[1] ?? ORIGINAL).slice();
    notTrueType.set([0x4f, 0x54, 0x54, 0x4f], 0);
    expect(() => mergeSlices([slices[0] ?? ORIGINAL, notTrueType])).toThrow(/TrueType/);
  });
});
