import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { glyphSimilarity } from '../../src/server/engine/identify/features.ts';
import { charactersToSearch, FormShapes, variantForms } from '../../src/server/engine/identify/form-shapes.ts';
import { ReferenceFont } from '../../src/server/engine/identify/reference.ts';
import { INDEX_VERSION, ReferenceStore } from '../../src/server/engine/identify/reference-store.ts';
import { shareFontRegistry } from '../../src/server/engine/text/font-registry.ts';
import { fixtureFont } from '../helpers/identify.ts';

const REGULAR = fixtureFont('noto-sans-sc', 'NotoSansSC_400Regular.ttf');
const KUAILE = fixtureFont('zcool-kuaile', 'ZCOOLKuaiLe_400Regular.ttf');
const CHARACTERS = [...'永和九年岁在癸丑暮春之初'];
const FACE = 'a'.repeat(64);

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const made = fs.mkdtempSync(path.join(os.tmpdir(), 'identify-index-'));
  folders.push(made);
  return made;
}

function drawInWorkers(jobs: { path: string; characters: string[] }[]): Promise<(Float32Array | null)[][]> {
  shareFontRegistry();
  const start = new Int32Array(new SharedArrayBuffer(4));
  return Promise.all(
    jobs.map(
      (job) =>
        new Promise<(Float32Array | null)[]>((resolve, reject) => {
          const worker = new Worker(path.resolve('tests/unit/identify/draw-references-worker.ts'), {
            workerData: { ...job, rounds: 6, start },
          });
          worker.once('message', (descriptors) => {
            resolve(descriptors);
            void worker.terminate();
          });
          worker.once('error', reject);
        }),
    ),
  );
}

describe('references drawn in several threads at once', () => {
  test('each thread draws in its own face, as one thread alone draws it', async () => {
    const [regular, kuaile] = await drawInWorkers([
      { path: REGULAR, characters: CHARACTERS },
      { path: KUAILE, characters: CHARACTERS },
    ]);
    for (const [file, drawn] of [
      [REGULAR, regular],
      [KUAILE, kuaile],
    ] as const) {
      const fresh = new ReferenceFont({ path: file });
      CHARACTERS.forEach((character, i) => {
        const expected = fresh.describe(character);
        const got = drawn?.[i] ?? null;
        expect(got === null, `${file} ${character}`).toBe(expected === null);
        if (expected && got) expect(glyphSimilarity(got, expected), `${file} ${character}`).toBeGreaterThan(0.999);
      });
      fresh.close();
    }
    // The two faces really differ: a reference drawn in the other face would have been caught.
    const a = regular?.[0] as Float32Array;
    const b = kuaile?.[0] as Float32Array;
    expect(glyphSimilarity(a, b)).toBeLessThan(0.9);
  });
});

describe('ReferenceStore', () => {
  const font = new ReferenceFont({ path: REGULAR });
  const drawn = CHARACTERS.map((character) => [character, font.describe(character)] as const);

  test('reads back what it wrote after a restart, absent characters included, within the packing', () => {
    const directory = folder();
    const store = new ReferenceStore({ directory, common: ['永', '和'] });
    store.add(FACE, drawn);
    store.add(FACE, [['𠀀', null]]);
    store.close();
    const again = new ReferenceStore({ directory, common: ['永', '和'] });
    for (const [character, descriptor] of drawn) {
      expect(glyphSimilarity(again.get(FACE, character) as Float32Array, descriptor as Float32Array)).toBeGreaterThan(
        0.995,
      );
    }
    expect(again.get(FACE, '𠀀')).toBeNull();
    expect(again.get(FACE, '龘')).toBeUndefined();
    expect(again.count(FACE)).toBe(CHARACTERS.length + 1);
    expect(again.missing([FACE, 'b'.repeat(64)], ['永', '龘'])).toEqual(
      new Map([
        [FACE, ['龘']],
        ['b'.repeat(64), ['永', '龘']],
      ]),
    );
    again.close();
  });

  test('appends to a face’s file and never rewrites what is there', () => {
    const directory = folder();
    const store = new ReferenceStore({ directory });
    store.add(FACE, drawn.slice(0, 4));
    const file = path.join(directory, `${FACE}.idx`);
    const before = fs.readFileSync(file);
    const inode = fs.statSync(file).ino;
    store.add(FACE, drawn.slice(2));
    const after = fs.readFileSync(file);
    expect(fs.statSync(file).ino).toBe(inode);
    expect(after.byteLength).toBeGreaterThan(before.byteLength);
    expect(after.subarray(0, before.byteLength).equals(before)).toBe(true);
    // The two characters given again were not written twice.
    expect(store.count(FACE)).toBe(CHARACTERS.length);
    store.close();
  });

  test('rebuilds a file of another format version and cuts off a record left half-written', () => {
    const directory = folder();
    const store = new ReferenceStore({ directory });
    store.add(FACE, drawn.slice(0, 3));
    store.close();
    const file = path.join(directory, `${FACE}.idx`);
    const whole = fs.statSync(file).size;
    fs.appendFileSync(file, Buffer.from([0x38, 0x6c, 0, 0, 1, 0, 0, 0, 9, 9, 9]));
    const reopened = new ReferenceStore({ directory });
    expect(reopened.count(FACE)).toBe(3);
    expect(fs.statSync(file).size).toBe(whole);
    reopened.close();

    const old = fs.readFileSync(file);
    old.writeUInt32LE(INDEX_VERSION - 1, 4);
    fs.writeFileSync(file, old);
    const rebuilt = new ReferenceStore({ directory });
    expect(rebuilt.get(FACE, '永')).toBeUndefined();
    expect(fs.statSync(file).size).toBe(16);
    rebuilt.close();
  });

  test('lets one process write; another reads the files and keeps what it draws in memory', () => {
    const directory = folder();
    const writer = new ReferenceStore({ directory });
    writer.add(FACE, drawn.slice(0, 2));
    writer.close();
    // A living process (pid 1) holds the folder.
    fs.writeFileSync(path.join(directory, 'writer.lock'), '1');
    const reader = new ReferenceStore({ directory });
    expect(reader.writer).toBe(false);
    expect(reader.get(FACE, CHARACTERS[0] as string)).toBeInstanceOf(Float32Array);
    const file = path.join(directory, `${FACE}.idx`);
    const size = fs.statSync(file).size;
    reader.add(FACE, drawn.slice(2, 4));
    expect(reader.get(FACE, CHARACTERS[3] as string)).toBeInstanceOf(Float32Array);
    expect(fs.statSync(file).size).toBe(size);
    reader.close();
    expect(fs.readFileSync(path.join(directory, 'writer.lock'), 'utf8')).toBe('1');
  });

  test('forgets the faces that left the library and deletes their files', () => {
    const directory = folder();
    const store = new ReferenceStore({ directory });
    const other = 'c'.repeat(64);
    store.add(FACE, drawn.slice(0, 1));
    store.add(other, drawn.slice(0, 1));
    store.keepOnly(new Set([FACE]));
    expect(fs.existsSync(path.join(directory, `${other}.idx`))).toBe(false);
    expect(fs.existsSync(path.join(directory, `${FACE}.idx`))).toBe(true);
    store.close();
  });
});

describe('the forms the reader lacks, searched by shape', () => {
  test('the judging faces draw the Traditional and Japanese forms beyond 通用规范汉字表', () => {
    const forms = new Set(variantForms());
    for (const form of '階駅発歸國學') expect(forms.has(form)).toBe(true);
    // The table's own characters are prepared for every face already.
    for (const character of '阶驿发归国学') expect(forms.has(character)).toBe(false);
  });

  test('searches the characters of 通用规范汉字表 the reader knows and the other forms it does not', () => {
    const knows = new Set([...'阶驿图归隋默']);
    const searched = new Set(charactersToSearch((character) => knows.has(character)));
    for (const character of '阶驿图归隋默') expect(searched.has(character)).toBe(true);
    for (const form of '階駅図帰歸圖') expect(searched.has(form)).toBe(true);
    // A character of the table the reader cannot answer is no answer it could have misread.
    for (const character of '永和国') expect(searched.has(character)).toBe(false);
  });

  test('finds a glyph drawn in another face among packed drawings, each character once', () => {
    const regular = new ReferenceFont({ path: REGULAR });
    const kuaile = new ReferenceFont({ path: KUAILE });
    try {
      const shapes = new FormShapes();
      for (const font of [regular, kuaile]) {
        for (const character of CHARACTERS) shapes.add(character, font.describe(character) as Float32Array);
      }
      expect(shapes.size).toBe(2 * CHARACTERS.length);
      const query = new ReferenceFont({ path: fixtureFont('noto-sans-sc', 'NotoSansSC_700Bold.ttf') });
      try {
        for (const character of CHARACTERS) {
          const descriptor = query.describe(character) as Float32Array;
          const nearest = shapes.nearest(descriptor, 3);
          expect(nearest[0]?.character).toBe(character);
          expect(new Set(nearest.map((match) => match.character)).size).toBe(3);
          // The packing keeps the similarity to within a hundredth.
          const exact = Math.max(
            glyphSimilarity(descriptor, regular.describe(character) as Float32Array),
            glyphSimilarity(descriptor, kuaile.describe(character) as Float32Array),
          );
          expect(Math.abs((nearest[0]?.similarity ?? 0) - exact)).toBeLessThan(0.01);
        }
      } finally {
        query.close();
      }
    } finally {
      regular.close();
      kuaile.close();
    }
  });
});
