import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { convertFont, describeFont, type TargetFormat } from '../../src/server/engine/convert.ts';
import { checkFont } from '../../src/server/engine/font-check.ts';
import { FontInputError } from '../../src/server/engine/font-errors.ts';
import { passesOts } from '../helpers/font-oracle.ts';

const TTF = new Uint8Array(fs.readFileSync(path.resolve('tests/fixtures/tools/NotoSansSC-Features.ttf')));
const OTF = new Uint8Array(fs.readFileSync(path.resolve('tests/fixtures/tools/NotoSansSC-Features.otf')));

function record(bytes: Uint8Array, tag: string): { at: number; offset: number; length: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) === tag) {
      return { at, offset: view.getUint32(at + 8), length: view.getUint32(at + 12) };
    }
  }
  throw new Error(`no ${tag}`);
}

/** A copy of `source` changed by `edit`, which gets a view of the copy and the table finder. */
function broken(source: Uint8Array, edit: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const bytes = source.slice();
  edit(new DataView(bytes.buffer), bytes);
  return bytes;
}

const table = (bytes: Uint8Array, tag: string) => record(bytes, tag).offset;

// Headers browsers refuse although every offset in them is sound: versions they do not read, a font
// box inside out, strings said to start past the end of the name table. Their outputs fail OTS too.
const HEADER_CASES: Array<[string, Uint8Array]> = [
  ['post version 5.0', broken(TTF, (v, b) => v.setUint32(table(b, 'post'), 0x00050000))],
  ['post version 2.5', broken(OTF, (v, b) => v.setUint32(table(b, 'post'), 0x00025000))],
  ['hhea majorVersion 2', broken(TTF, (v, b) => v.setUint16(table(b, 'hhea'), 2))],
  ['head majorVersion 2', broken(TTF, (v, b) => v.setUint16(table(b, 'head'), 2))],
  ['a name stringOffset past the table', broken(TTF, (v, b) => v.setUint16(table(b, 'name') + 4, 0xfff0))],
  ['a name stringOffset inside its records', broken(OTF, (v, b) => v.setUint16(table(b, 'name') + 4, 2))],
  ['name format 2', broken(TTF, (v, b) => v.setUint16(table(b, 'name'), 2))],
  [
    'a head box with xMin > xMax',
    broken(TTF, (v, b) => {
      v.setInt16(table(b, 'head') + 36, 500);
      v.setInt16(table(b, 'head') + 40, -500);
    }),
  ],
  [
    'a head box with yMin > yMax',
    broken(OTF, (v, b) => {
      v.setInt16(table(b, 'head') + 38, 900);
      v.setInt16(table(b, 'head') + 42, -100);
    }),
  ],
  ['glyphDataFormat 1', broken(TTF, (v, b) => v.setInt16(table(b, 'head') + 52, 1))],
];

// Twelve ways a font file is found broken in the wild; each is refused by OTS, the sanitizer of
// Chromium and Firefox, and must be refused here with a reason a person can read.
const CASES: Array<[string, Uint8Array]> = [
  ['cut in half', TTF.slice(0, TTF.byteLength >> 1)],
  ['a wrong head magic number', broken(TTF, (v, b) => v.setUint32(table(b, 'head') + 12, 0x12345678))],
  ['unitsPerEm 0', broken(TTF, (v, b) => v.setUint16(table(b, 'head') + 18, 0))],
  ['an unknown loca format', broken(TTF, (v, b) => v.setInt16(table(b, 'head') + 50, 2))],
  [
    'a loca offset past the end of glyf',
    broken(TTF, (v, b) => {
      const loca = record(b, 'loca');
      const long = v.getInt16(table(b, 'head') + 50) === 1;
      if (long) v.setUint32(loca.offset + loca.length - 4, 0x7fffffff);
      else v.setUint16(loca.offset + loca.length - 2, 0xffff);
    }),
  ],
  [
    'loca offsets that go backwards',
    broken(TTF, (v, b) => {
      const loca = record(b, 'loca');
      const long = v.getInt16(table(b, 'head') + 50) === 1;
      if (long) v.setUint32(loca.offset + 8, v.getUint32(loca.offset + 12) + 4096);
      else v.setUint16(loca.offset + 4, v.getUint16(loca.offset + 6) + 2048);
    }),
  ],
  ['no glyphs in maxp', broken(TTF, (v, b) => v.setUint16(table(b, 'maxp') + 4, 0))],
  ['more horizontal metrics than glyphs', broken(TTF, (v, b) => v.setUint16(table(b, 'hhea') + 34, 0xffff))],
  ['a cmap subtable outside the table', broken(TTF, (v, b) => v.setUint32(table(b, 'cmap') + 8, 0x00ffffff))],
  [
    'a table that runs past the end of the file',
    broken(TTF, (v, b) => v.setUint32(record(b, 'name').at + 12, 0x00ffffff)),
  ],
  ['two tables at the same place', broken(TTF, (v, b) => v.setUint32(record(b, 'post').at + 8, table(b, 'name')))],
  ['a broken CFF name index', broken(OTF, (v, b) => v.setUint8(table(b, 'CFF ') + 6, 9))],
  ...HEADER_CASES,
];

describe('checkFont', () => {
  test('passes the fixture fonts, as OTS does', () => {
    for (const bytes of [TTF, OTF]) {
      expect(() => checkFont(bytes)).not.toThrow();
      expect(passesOts(bytes)).toBe(true);
    }
  });

  test.each(CASES)('refuses a font with %s, with a Chinese reason, as OTS does', (_label, bytes) => {
    expect(passesOts(bytes)).toBe(false);
    let error: unknown;
    try {
      checkFont(bytes);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FontInputError);
    expect((error as FontInputError).message).toMatch(/^字体文件已损坏：.*\p{Script=Han}/u);
  });
});

describe('what the converter makes of a checked font', () => {
  test.each(HEADER_CASES)('refuses a face with %s before any output is written', async (_label, bytes) => {
    await expect(describeFont(bytes)).rejects.toBeInstanceOf(FontInputError);
    const sfnt = bytes[0] === 0x4f ? 'otf' : 'ttf';
    for (const format of [sfnt, 'woff', 'woff2'] as TargetFormat[]) {
      await expect(convertFont(bytes, format)).rejects.toBeInstanceOf(FontInputError);
    }
  });

  test('writes TTF or OTF, WOFF and WOFF2 that pass OTS from the fonts it accepts', async () => {
    for (const [bytes, sfnt] of [
      [TTF, 'ttf'],
      [OTF, 'otf'],
    ] as const) {
      for (const format of [sfnt, 'woff', 'woff2'] as TargetFormat[]) {
        expect(passesOts(await convertFont(bytes, format)), format).toBe(true);
      }
    }
  });
});
