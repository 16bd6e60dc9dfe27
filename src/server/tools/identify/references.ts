import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { characterRanking } from '../../engine/char-frequency.ts';
import { tongyongTable } from '../../engine/charsets.ts';
import { charactersToSearch, FormShapes, variantForms } from '../../engine/identify/form-shapes.ts';
import { ReferenceFont } from '../../engine/identify/reference.ts';
import { ReferenceStore } from '../../engine/identify/reference-store.ts';
import type { GlyphDrawer } from '../../engine/identify/rerank.ts';
import { env } from '../../env.ts';
import { log } from '../../log.ts';
import { s3Config, storage } from '../../storage/index.ts';

// The library's references inside the identification worker, the one thread of the process that
// draws them and writes the index (DATA_DIR/cache/identify, engine/identify/reference-store.ts).
//
// Characters are made ready two ways. In the background, after a start and whenever the library
// changes, every face draws the 8 105 characters of 通用规范汉字表 in passes of growing size (the
// most used thousand first, then the rest of level 1, then levels 2 and 3), a face held only for its
// pass; a request waits for at most one small batch of that work. A character the index still
// lacks when a comparison asks for it (outside the table, or before the passes are through) is
// drawn then, in the faces that have it.

/** A library face as the worker needs it. */
export interface FaceFile {
  id: string;
  key: string;
  sha256: string;
  /**
   * Whether the face judges which form of a character a glyph shows (script-faces.ts): it draws the
   * other forms of 通用规范汉字表's characters too, which the reader's glyphs are searched among.
   */
  judge?: boolean;
}

/** Characters drawn between two looks at waiting requests: about 50 ms of work. */
const BATCH = 16;
/**
 * How long a face stays held after it last drew: taking a face again reads its character map anew
 * once the registry's cache of them has turned over (256 faces a thread), which for the whole library
 * costs seconds; a held face costs Skia little, since it reads the font file as it needs glyphs.
 */
const HOLD_MS = 2 * 60_000;
/** Most faces held at once; the one used longest ago is given back first. */
const MOST_HELD = 48;

/** The characters prepared ahead, most used first, in passes: [first thousand, rest of level 1, levels 2–3]. */
function preparationPasses(): string[][] {
  const table = tongyongTable();
  const ranking = characterRanking();
  const rank = (character: string) => ranking.get(character.codePointAt(0) ?? 0) ?? Number.MAX_SAFE_INTEGER;
  const level1 = table.slice(0, 3500).sort((a, b) => rank(a) - rank(b));
  const rest = table.slice(3500).sort((a, b) => rank(a) - rank(b));
  return [level1.slice(0, 1000), level1.slice(1000), rest];
}

/** Where the worker keeps copies of faces that live in a bucket, for Skia to read from a file. */
const faceCopies = () => path.join(env().dataDir, 'cache', 'identify', 'faces');

/** A local file of the face: the stored file itself on local storage, else a copy made once. */
async function faceFile(face: FaceFile): Promise<string> {
  if (!s3Config()) return path.join(env().dataDir, 'storage', ...face.key.split('/'));
  const copy = path.join(faceCopies(), `${face.sha256}.font`);
  if (!fs.existsSync(copy)) {
    const object = await storage().get(face.key);
    if (!object) throw new Error(`font file is missing from storage: ${face.key}`);
    fs.mkdirSync(faceCopies(), { recursive: true });
    const partial = `${copy}.${process.pid}.partial`;
    fs.writeFileSync(partial, await buffer(object.body));
    fs.renameSync(partial, copy);
  }
  return copy;
}

/** Reference descriptors of the library's faces, drawn once and kept in the index. */
export class LibraryReferences {
  readonly store: ReferenceStore;
  /** The faces of the last library the worker was told of, for the background passes. */
  #library: FaceFile[] = [];
  #preparing: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  readonly #yieldToRequests: () => Promise<void>;
  readonly #held = new Map<string, { font: ReferenceFont; timer: NodeJS.Timeout }>();
  /** The judging faces' drawings of the characters searched by shape, kept once all are recorded. */
  #shapes: { judges: string; shapes: FormShapes; pending: (readonly [string, string])[] } | undefined;

  /** `yieldToRequests` resolves when no request is waiting: the background work runs between requests. */
  constructor(directory: string | undefined, yieldToRequests: () => Promise<void>) {
    this.store = new ReferenceStore({ directory, common: tongyongTable() });
    this.#yieldToRequests = yieldToRequests;
  }

  /** Makes sure every face has a record (a descriptor or an absence) of every character. */
  async ensure(faces: readonly FaceFile[], characters: readonly string[]): Promise<void> {
    const missing = this.store.missing(
      faces.map((face) => face.sha256),
      characters,
    );
    for (const face of faces) {
      const absent = missing.get(face.sha256);
      if (absent) await this.#draw(face, absent);
    }
  }

  /**
   * Draws characters in the given faces for the second look at a comparison's best candidates
   * (engine/identify/rerank.ts), the faces keyed by their SHA-256; a face that cannot be read draws nothing.
   */
  async drawer(faces: readonly FaceFile[]): Promise<GlyphDrawer> {
    const fonts = new Map<string, ReferenceFont>();
    for (const face of faces) {
      try {
        fonts.set(face.sha256, await this.#font(face));
      } catch (error) {
        log().warn({ err: error, key: face.key }, 'identification: a face could not be drawn');
      }
    }
    return (sha256, character) => fonts.get(sha256)?.draw(character) ?? null;
  }

  /**
   * The judging faces' descriptors of the characters searched by shape for the reader (`readerKnows`,
   * engine/identify/form-shapes.ts): read from the index, never drawn here, so a request made before
   * the background passes reach them searches those recorded.
   */
  formShapes(judges: readonly FaceFile[], readerKnows: (character: string) => boolean): FormShapes {
    const key = judges.map((face) => face.sha256).join(' ');
    if (this.#shapes?.judges !== key) {
      const pending = charactersToSearch(readerKnows).flatMap((character) =>
        judges.map((face) => [face.sha256, character] as const),
      );
      this.#shapes = { judges: key, shapes: new FormShapes(pending.length), pending };
    }
    const held = this.#shapes;
    // Each call takes in what the background passes have recorded since the last.
    if (held.pending.length) {
      held.pending = held.pending.filter(([face, character]) => {
        const descriptor = this.store.get(face, character);
        if (descriptor) held.shapes.add(character, descriptor, !readerKnows(character));
        return descriptor === undefined;
      });
    }
    return held.shapes;
  }

  /** The face held for drawing, taken now or still held from a recent drawing. */
  async #font(face: FaceFile): Promise<ReferenceFont> {
    const held = this.#held.get(face.sha256);
    if (held) {
      held.timer.refresh();
      this.#held.delete(face.sha256);
      this.#held.set(face.sha256, held);
      return held.font;
    }
    if (this.#held.size >= MOST_HELD) this.#release(this.#held.keys().next().value as string);
    const font = new ReferenceFont({ path: await faceFile(face), sha256: face.sha256 });
    const timer = setTimeout(() => this.#release(face.sha256), HOLD_MS);
    timer.unref();
    this.#held.set(face.sha256, { font, timer });
    return font;
  }

  #release(sha256: string): void {
    const held = this.#held.get(sha256);
    if (!held) return;
    clearTimeout(held.timer);
    held.font.close();
    this.#held.delete(sha256);
  }

  /** Draws characters in one face and records them; `between` runs between batches. */
  async #draw(face: FaceFile, characters: readonly string[], between?: () => Promise<void>): Promise<void> {
    const font = await this.#font(face);
    for (let start = 0; start < characters.length; start += BATCH) {
      if (between) await between();
      if (this.#stopped) return;
      const batch = characters.slice(start, start + BATCH);
      this.store.add(
        face.sha256,
        batch.map((character) => [character, font.describe(character)] as const),
      );
    }
  }

  /**
   * Takes the library's faces and (re)starts the background passes over them; faces that left the
   * library lose their index.
   */
  prepare(faces: readonly FaceFile[]): void {
    this.#library = [...faces];
    this.store.keepOnly(new Set(faces.map((face) => face.sha256)));
    if (this.#preparing) {
      this.#again = true;
      return;
    }
    this.#preparing = this.#prepareAll().finally(() => {
      this.#preparing = undefined;
    });
  }

  /** Settles when the background passes are through (tests and benchmarks wait for it). */
  async prepared(): Promise<void> {
    while (this.#preparing) await this.#preparing;
  }

  async #prepareAll(): Promise<void> {
    const started = performance.now();
    do {
      this.#again = false;
      const passes = preparationPasses();
      // After the most used thousand, the judging faces draw the forms beyond the table, which
      // the reader's glyphs are searched among (formShapes).
      passes.splice(1, 0, variantForms());
      for (const [index, pass] of passes.entries()) {
        for (const face of this.#library) {
          if (this.#stopped || this.#again) break;
          if (index === 1 && !face.judge) continue;
          await this.#yieldToRequests();
          const absent = pass.filter((character) => !this.store.has(face.sha256, character));
          if (absent.length === 0) continue;
          try {
            await this.#draw(face, absent, this.#yieldToRequests);
          } catch (error) {
            // A face that cannot be read is drawn on demand later (and fails there, to the log).
            log().warn({ err: error, key: face.key }, 'identification: a face could not be prepared');
          }
        }
      }
    } while (this.#again && !this.#stopped);
    if (this.#stopped) return;
    const { recorded, wanted } = this.progress();
    log().info(
      { faces: this.#library.length, recorded, wanted },
      `identification: references of ${this.#library.length} faces ready in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }

  /** How far the background passes are: characters recorded and wanted over all faces. */
  progress(): { recorded: number; wanted: number } {
    const table = tongyongTable();
    let recorded = 0;
    for (const face of this.#library) {
      for (const character of table) if (this.store.has(face.sha256, character)) recorded++;
    }
    return { recorded, wanted: table.length * this.#library.length };
  }

  /** Stops the background work, gives the faces back and closes the index. */
  close(): void {
    this.#stopped = true;
    for (const sha256 of [...this.#held.keys()]) this.#release(sha256);
    this.store.close();
  }
}
