import fs from 'node:fs';
import { type Browser, chromium, type Page } from '@playwright/test';
import sharp from 'sharp';

// Pictures of text for the identification benchmark, drawn by Chromium (another renderer than the
// matcher's Skia) in a face given by its file, then degraded as photographs and screenshots are:
// turned, blurred, grained and saved as JPEG. Each picture has one condition:
//   standard     24–96 px, dark on light, ±3°, JPEG q55–65 (the set the matcher was tuned on)
//   small        16–24 px, dark on light, JPEG q28–35
//   dark         light text on a dark ground, 24–64 px, JPEG q28–35
//   gradient     text on a dark or light gradient, 24–64 px, JPEG q28–35
//   perspective  the text tilted away (rotateX/rotateY up to 10°), 24–64 px, JPEG q28–35

export type Condition = 'standard' | 'small' | 'dark' | 'gradient' | 'perspective';
export const HARDER: readonly Condition[] = ['small', 'dark', 'gradient', 'perspective'];

/** A face to draw with: its file, and what the answer should say. */
export interface BenchFace {
  /** 'family/file', or 'absent/<file>' for faces the library lacks. */
  id: string;
  family: string;
  file: string;
  weight: number;
  codePoints: ReadonlySet<number>;
}

export interface Picture {
  face: BenchFace;
  condition: Condition;
  text: string;
  size: number;
  jpeg: Buffer;
}

/** A seeded random source, so every run measures the same pictures. */
export function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const DARK_GROUNDS = ['#14213d', '#1b1b1b', '#2b0f0f', '#0f2b1d'];
const LIGHT_TEXT = ['#f8f8f8', '#ffe8a3', '#e6f0ff'];
const GRADIENTS = [
  ['linear-gradient(90deg, #0b1d4a, #2f6fd6)', '#ffffff'],
  ['linear-gradient(120deg, #3a0d2e, #c2185b)', '#fff6e0'],
  ['linear-gradient(90deg, #ffffff, #c9d6e8)', '#1a1a1a'],
  ['linear-gradient(160deg, #fdf6e3, #d9c9a3)', '#3b2a1a'],
] as const;

/** Draws pictures in Chromium; `close()` when done. */
export class PictureMaker {
  #browser: Browser | undefined;
  #page: Page | undefined;
  #faces: BenchFace[] = [];
  #drawnOnPage = 0;
  readonly #random: () => number;

  constructor(random: () => number) {
    this.#random = random;
  }

  async #ready(): Promise<Page> {
    // A fresh page every 40 pictures: Chromium keeps every face it loaded, a gigabyte for the library.
    if (this.#page && this.#drawnOnPage < 40) return this.#page;
    await this.#page?.close();
    this.#browser ??= await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const page = await this.#browser.newPage({ deviceScaleFactor: 1 });
    await page.route('http://bench.test/**', async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/') {
        return route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><style>body{margin:0;background:#fff}#w{display:inline-block;padding:28px 36px}#s{display:inline-block;white-space:nowrap}</style><div id="w"><span id="s"></span></div>',
        });
      }
      const face = this.#faces[Number(url.pathname.split('/')[2])];
      if (!face) return route.abort();
      return route.fulfill({ contentType: 'font/ttf', body: fs.readFileSync(face.file) });
    });
    await page.goto('http://bench.test/');
    this.#page = page;
    this.#drawnOnPage = 0;
    return page;
  }

  /** Characters for a picture: 2–8 (or `length`) drawn from `pool` among those the face has. */
  pickText(face: BenchFace, pool: readonly string[], length?: number): string {
    const usable = pool.filter((character) => face.codePoints.has(character.codePointAt(0) ?? 0));
    const count = length ?? 2 + Math.floor(this.#random() * 7);
    const picked: string[] = [];
    while (picked.length < count && usable.length > 0) {
      picked.push(usable[Math.floor(this.#random() * usable.length)] as string);
    }
    return picked.join('');
  }

  async draw(face: BenchFace, text: string, condition: Condition): Promise<Picture> {
    const page = await this.#ready();
    this.#drawnOnPage++;
    let index = this.#faces.indexOf(face);
    if (index < 0) index = this.#faces.push(face) - 1;
    const random = this.#random;
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const size =
      condition === 'standard'
        ? 24 + Math.floor(random() * 73)
        : condition === 'small'
          ? 16 + Math.floor(random() * 9)
          : 24 + Math.floor(random() * 41);
    let ground = '#ffffff';
    let ink = '#111111';
    if (condition === 'dark') {
      ground = pick(DARK_GROUNDS);
      ink = pick(LIGHT_TEXT);
    } else if (condition === 'gradient') {
      [ground, ink] = pick(GRADIENTS);
    }
    const angle = (random() * 2 - 1) * 3;
    const tilt =
      condition === 'perspective'
        ? `perspective(${size * 12}px) rotateY(${((random() * 2 - 1) * 10).toFixed(1)}deg) rotateX(${((random() * 2 - 1) * 8).toFixed(1)}deg) `
        : '';
    const spacing = Math.round(size * (0.02 + random() * 0.12));
    await page.evaluate(
      ({ family, index }) => {
        if ([...document.fonts].some((font) => font.family === family)) return undefined;
        const font = new FontFace(family, `url(/font/${index})`);
        document.fonts.add(font);
        return font.load().then(() => undefined);
      },
      { family: `f${index}`, index },
    );
    await page.evaluate(
      ({ text, family, size, transform, spacing, ground, ink }) => {
        const wrap = document.getElementById('w') as HTMLElement;
        const el = document.getElementById('s') as HTMLElement;
        wrap.style.background = ground;
        el.textContent = text;
        el.style.fontFamily = family;
        el.style.fontSize = `${size}px`;
        el.style.color = ink;
        el.style.letterSpacing = `${spacing}px`;
        el.style.transform = transform;
        el.style.margin = `${Math.round(size * 0.3)}px`;
      },
      { text, family: `f${index}`, size, transform: `${tilt}rotate(${angle}deg)`, spacing, ground, ink },
    );
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const shot = await page.locator('#w').screenshot({ type: 'png', animations: 'disabled' });
    const sigma = 0.3 + random() * Math.max(0.3, size / 40);
    const { data, info } = await sharp(shot).removeAlpha().blur(sigma).raw().toBuffer({ resolveWithObject: true });
    const noise = 4 + random() * 10;
    for (let i = 0; i < data.length; i++) {
      const gauss = Math.sqrt(-2 * Math.log(random() + 1e-9)) * Math.cos(2 * Math.PI * random());
      data[i] = Math.max(0, Math.min(255, Math.round((data[i] as number) + gauss * noise)));
    }
    const quality = condition === 'standard' ? 55 + Math.floor(random() * 11) : 28 + Math.floor(random() * 8);
    const jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .jpeg({ quality })
      .toBuffer();
    return { face, condition, text, size, jpeg };
  }

  async close(): Promise<void> {
    await this.#browser?.close();
  }
}
