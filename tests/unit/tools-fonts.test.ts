import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rankCharacters } from '../../src/server/engine/char-frequency.ts';
import { convertFont } from '../../src/server/engine/convert.ts';
import { encodeEot } from '../../src/server/engine/eot.ts';
import { FontInputError } from '../../src/server/engine/font-errors.ts';
import { sniffFontFormat } from '../../src/server/engine/font-format.ts';
import { loadSubsetFace } from '../../src/server/engine/hb-subset.ts';
import { readSfnt } from '../../src/server/engine/sfnt.ts';
import { parseUnicodeRange, unicodeRange } from '../../src/server/engine/slices.ts';
import { decodeWoff, encodeWoff } from '../../src/server/engine/woff.ts';
import { encodeWoff2 } from '../../src/server/engine/woff2.ts';
import { resetEnv } from '../../src/server/env.ts';
import { storage } from '../../src/server/storage/index.ts';
import { ToolsPool } from '../../src/server/tools/pool.ts';
import { planFontSlices } from '../../src/server/tools/tasks.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';

const NOTO = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'));
const OTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.otf'));

describe('sniffFontFormat', () => {
  test.each([
    ['ttf', NOTO],
    ['otf', OTF],
    ['woff', encodeWoff(NOTO)],
    ['eot', encodeEot(NOTO)],
    ['ttc', new Uint8Array([0x74, 0x74, 0x63, 0x66, 0, 1, 0, 0, 0, 0, 0, 1])],
  ])('tells %s from its first bytes', (format, bytes) => {
    expect(sniffFontFormat(bytes)).toBe(format);
  });

  test('knows a PNG is not a font', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expect(sniffFontFormat(png)).toBeUndefined();
  });
});

describe('decodeWoff', () => {
  test('gives back the font it wrapped, table for table', () => {
    // head.checkSumAdjustment covers the whole file, so it is the one field a new directory changes.
    const tables = (bytes: Uint8Array) =>
      Object.fromEntries(
        readSfnt(bytes).tables.map(({ tag, data }) => [
          tag,
          tag === 'head' ? [...data.subarray(0, 8), ...data.subarray(12)] : [...data],
        ]),
      );
    expect(tables(decodeWoff(encodeWoff(NOTO), 64 << 20))).toEqual(tables(NOTO));
  });

  test('refuses a WOFF whose tables would expand beyond the cap', () => {
    expect(() => decodeWoff(encodeWoff(NOTO), 50_000)).toThrow(FontInputError);
  });
});

describe('rankCharacters', () => {
  test('weights each character by the frequencies of the words it appears in, then the fallback order', () => {
    const rank = rankCharacters('的 100 uj\n我们 30 r\n们 5 n\nabc 999 eng\n', '天的地');
    expect([...rank.keys()].map((cp) => String.fromCodePoint(cp)).join('')).toBe('的们我天地');
  });
});

describe('unicodeRange', () => {
  test('merges runs and reads back to the same code points', () => {
    const codePoints = [0x20, 0x21, 0x22, 0x4e00, 0x4e8c, 0x4e8d];
    expect(unicodeRange(codePoints)).toBe('U+20-22, U+4E00, U+4E8C-4E8D');
    expect(parseUnicodeRange(unicodeRange(codePoints))).toEqual(codePoints);
  });
});

describe('planFontSlices', () => {
  test('covers the cmap exactly once, Latin first, frequent hanzi before rare ones, slices near the target', async () => {
    const target = 12_000;
    const plan = await planFontSlices(NOTO, target);
    const all = plan.slices.flat();
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort((a, b) => a - b)).toEqual(cmapByFontTools(NOTO));
    expect(plan.slices.length).toBeGreaterThan(2);
    expect(plan.slices[0]).toContain(0x41);
    const sliceOf = (ch: string) => plan.slices.findIndex((slice) => slice.includes(ch.codePointAt(0) ?? 0));
    expect(sliceOf('的')).toBeLessThanOrEqual(sliceOf('癸'));
    const face = loadSubsetFace(NOTO);
    try {
      const sizes = await Promise.all(
        plan.slices.slice(0, -1).map(async (slice) => (await encodeWoff2(face.subset(slice))).byteLength),
      );
      for (const size of sizes) {
        expect(size).toBeGreaterThan(target * 0.5);
        expect(size).toBeLessThan(target * 1.5);
      }
    } finally {
      face.destroy();
    }
  });
});

describe('ToolsPool', () => {
  let dataDir: string;
  let pool: ToolsPool;
  const saved = { ...process.env };

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-pool-'));
    process.env['DATA_DIR'] = dataDir;
    resetEnv();
    pool = new ToolsPool(1);
  });

  afterAll(async () => {
    await pool.close();
    process.env = saved;
    resetEnv();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('reports progress step by step and writes each output', async () => {
    await storage().put('in/font.ttf', NOTO);
    const seen: Array<[number, string]> = [];
    const result = await pool.run(
      {
        kind: 'convert',
        key: 'in/font.ttf',
        faceIndex: 0,
        targets: ['woff2', 'woff'],
        outPrefix: 'out/x',
        maxSfntBytes: 64 << 20,
      },
      { lane: 'job', onProgress: (progress, step) => seen.push([progress, step]) },
    );
    expect(seen.map(([, step]) => step)).toEqual(
      expect.arrayContaining(['正在读取字体', '正在生成 WOFF', '正在生成 WOFF2']),
    );
    const progress = seen.map(([value]) => value);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(result.files.map((file) => file.key)).toEqual(['out/x/0.woff', 'out/x/1.woff2']);
  });

  test('fails a task that runs past its time limit, and keeps working afterwards', async () => {
    await storage().put('in/font.ttf', NOTO);
    const slow = pool.run(
      {
        kind: 'convert',
        key: 'in/font.ttf',
        faceIndex: 0,
        targets: ['woff2', 'svg'],
        outPrefix: 'out/y',
        maxSfntBytes: 64 << 20,
      },
      { lane: 'job', timeoutMs: 5 },
    );
    await expect(slow).rejects.toThrow('处理时间过长');
    const next = await pool.run({ kind: 'describe', key: 'in/font.ttf', maxSfntBytes: 64 << 20 }, { lane: 'quick' });
    expect(next.glyphCount).toBe(725);
  });
});

describe('converting a font whose last glyph has no outline', () => {
  // Cut from DotGothic16: U+00A0's empty glyph comes last in glyf, where fontkit reads past the end.
  const DOT = new Uint8Array(fs.readFileSync('tests/fixtures/tools/DotGothic16-EmptyLastGlyph.ttf'));

  test('writes every offered format, each passing the checks browsers make', async () => {
    for (const target of ['ttf', 'woff', 'woff2', 'eot', 'svg'] as const) {
      const out = await convertFont(DOT, target);
      expect(out.byteLength).toBeGreaterThan(0);
      if (target === 'ttf' || target === 'woff' || target === 'woff2') expect(passesOts(out)).toBe(true);
    }
    const svg = new TextDecoder().decode(await convertFont(DOT, 'svg'));
    expect(svg).toContain('<glyph unicode="&#xa0;" horiz-adv-x="');
    expect(svg).toMatch(/<glyph unicode="&#x6c38;" horiz-adv-x="\d+" d="M/);
  });
});
