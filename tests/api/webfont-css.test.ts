import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fonts } from '../../src/server/db/schema/index.ts';
import { parseUnicodeRange } from '../../src/server/engine/slices.ts';
import { webfontSnippet } from '../../src/server/webfont/css.ts';
import { call, type LibraryFixture } from '../helpers/font-library.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { closeToolsApp, openToolsApp, storedFiles } from '../helpers/tools.ts';

const NOTO_400 = 'tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf';
const NOTO_700 = 'tests/fixtures/fonts/noto-sans-sc/NotoSansSC_700Bold.ttf';

let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  ({ library, app } = await openToolsApp('webfont-css'));
});
afterAll(() => closeToolsApp(library));

interface FaceRule {
  family: string;
  weight: number;
  display: string;
  url: string;
  range: number[];
}

/** Reads the @font-face rules of the stylesheet. */
function rulesOf(css: string): FaceRule[] {
  return [...css.matchAll(/@font-face \{([^}]*)\}/g)].map(([, body = '']) => {
    const field = (name: string) => new RegExp(`${name}: ([^;]+);`).exec(body)?.[1] ?? '';
    return {
      family: field('font-family'),
      weight: Number(field('font-weight')),
      display: field('font-display'),
      url: /url\(([^)]+)\) format\('woff2'\)/.exec(body)?.[1] ?? '',
      range: parseUnicodeRange(field('unicode-range')),
    };
  });
}

async function stylesheet(query: string): Promise<{ res: Response; css: string }> {
  const res = await app.request(`/webfont/css?${query}`);
  return { res, css: await res.text() };
}

describe('GET /webfont/css', () => {
  test('answers unicode-range slices that cover the font’s cmap exactly once, each slice holding its range', async () => {
    const { res, css } = await stylesheet('family=noto-sans-sc&weight=400');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toContain('max-age=86400');
    const rules = rulesOf(css);
    expect(rules.length).toBeGreaterThan(0);
    const covered = rules.flatMap((rule) => rule.range);
    expect(new Set(covered).size).toBe(covered.length);
    expect([...covered].sort((a, b) => a - b)).toEqual(cmapByFontTools(new Uint8Array(fs.readFileSync(NOTO_400))));
    // Latin comes first, in the first slice.
    expect(rules[0]?.range).toContain(0x41);
    for (const rule of rules) {
      expect(rule).toMatchObject({ family: "'思源黑体（简体）'", weight: 400, display: 'swap' });
      expect(rule.url).toMatch(/^\/webfont\/slice\/\d+\/[0-9a-f]{12}\/\d+\.woff2$/);
      const slice = await app.request(rule.url);
      expect(slice.status).toBe(200);
      expect(slice.headers.get('content-type')).toBe('font/woff2');
      expect(slice.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(slice.headers.get('access-control-allow-origin')).toBe('*');
      const bytes = new Uint8Array(await slice.arrayBuffer());
      expect(passesOts(bytes)).toBe(true);
      expect(cmapByFontTools(bytes)).toEqual([...rule.range].sort((a, b) => a - b));
    }
    expect(await storedFiles(library.dataDir, 'webfont/plans')).toHaveLength(1);
  });

  test('re-encodes a slice at Brotli quality 11 in the background and serves that afterwards', async () => {
    // The bold face: no earlier test asked for its slices, so the first answer is the quick encoding.
    const { css } = await stylesheet('family=noto-sans-sc&weight=700');
    const url = rulesOf(css)[0]?.url ?? '';
    // The bold face's slices are stored under its file's hash (slices.ts): the wait looks at its own alone,
    // since the regular face's slices of the first test are still being re-encoded meanwhile.
    const sha = createHash('sha256').update(fs.readFileSync(NOTO_700)).digest('hex');
    const index = /\/(\d+)\.woff2$/.exec(url)?.[1];
    const own = (key: string, suffix: string) => key.includes(sha.slice(0, 32)) && key.endsWith(`/${index}${suffix}`);
    const first = new Uint8Array(await (await app.request(url)).arrayBuffer());
    // Waits for the background re-encoding however long a busy machine takes (the test's timeout is the
    // guard): the slice at quality 11 is stored, and its quick file is gone.
    for (;;) {
      const stored = await storedFiles(library.dataDir, 'webfont/slices');
      if (stored.some((key) => own(key, '.woff2')) && !stored.some((key) => own(key, '.q5.woff2'))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const later = new Uint8Array(await (await app.request(url)).arrayBuffer());
    expect(later.byteLength).toBeLessThan(first.byteLength);
    expect(passesOts(later)).toBe(true);
    expect(cmapByFontTools(later)).toEqual(cmapByFontTools(first));
  });

  test('answers several weights, and finds a family by its English name', async () => {
    const { res, css } = await stylesheet('family=Noto%20Sans%20SC&weight=400,700');
    expect(res.status).toBe(200);
    const weights = new Set(rulesOf(css).map((rule) => rule.weight));
    expect([...weights]).toEqual([400, 700]);
  });

  test.each([
    ['an unknown family', 'family=no-such-font', 404, '字体库中没有名为“no-such-font”的字体'],
    [
      'a weight the family lacks',
      'family=noto-sans-sc&weight=900',
      404,
      '“思源黑体（简体）”没有 900 字重，可选：400、700',
    ],
    ['a weight that is not a number', 'family=noto-sans-sc&weight=bold', 400, '字重（weight）应为 100–900 的整数'],
    ['no family', 'weight=400', 400, '字体（family）'],
  ])('answers %s with a Chinese message', async (_name, query, status, message) => {
    const answer = await call(app, `/webfont/css?${query}`);
    expect(answer.status).toBe(status);
    expect(answer.message).toContain(message);
  });

  test('answers 404 for a slice of another version or beyond the plan', async () => {
    const [font] = await library.db.select().from(fonts).where(eq(fonts.gno, 'noto-sans-sc-400'));
    expect((await app.request(`/webfont/slice/${font?.id}/000000000000/0.woff2`)).status).toBe(404);
    const url = rulesOf((await stylesheet('family=noto-sans-sc')).css)[0]?.url ?? '';
    expect((await app.request(url.replace(/\/\d+\.woff2$/, '/999.woff2'))).status).toBe(404);
    expect((await app.request('/webfont/slice/abc/def/0.woff2')).status).toBe(404);
  });
});

describe('webfontSnippet', () => {
  test('gives the stylesheet link and the font-family rule to copy', () => {
    expect(webfontSnippet({ gno: 'noto-sans-sc', nameZh: '思源黑体（简体）' }, [400, 700])).toEqual({
      href: 'http://localhost:4321/webfont/css?family=noto-sans-sc&weight=400,700',
      link: '<link rel="stylesheet" href="http://localhost:4321/webfont/css?family=noto-sans-sc&amp;weight=400,700">',
      css: "font-family: '思源黑体（简体）';",
    });
  });
});
