// Replays, against a running server on the full library, the drawings that went wrong when the
// drawers shared Skia's fonts without one owner: the pixel grid dragged 17 → 22 on Klee One, ten
// pixel previews of a face then a word cloud in it, a preview of Noto Sans SC, and a Thin face at
// grid 16. Prints what each drew; exits non-zero when any drawing is wrong.
//
//   node tests/bench/registry-repro.ts http://127.0.0.1:4321
import { inkMask, iou } from '../helpers/picture-ink.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:4321';
let failures = 0;

interface Glyph {
  codePoint: number;
  width: number;
  bits: string;
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function fontIds(): Promise<Map<string, number>> {
  const answer = (await (await fetch(`${base}/web/api/fontOverride/getFontList?current=1&size=100`)).json()) as {
    data: { records: Array<{ childFontResource: Array<{ id: number; fontGNo: string }> }> };
  };
  const ids = new Map<string, number>();
  for (const family of answer.data.records)
    for (const child of family.childFontResource) ids.set(child.fontGNo, child.id);
  return ids;
}

async function preview(fontId: number, grid: number, text: string, threshold?: number) {
  const res = await post('/tools/api/pixel/preview', {
    source: { fontId },
    options: { grid, ...(threshold === undefined ? {} : { threshold }) },
    text,
  });
  const answer = (await res.json()) as {
    message: string;
    data: { glyphs: Glyph[]; missing: string; faint?: { message: string; threshold?: number; grid?: number } };
  };
  return { status: res.status, message: answer.message, ...answer.data };
}

const ink = (glyph: Glyph) => [...glyph.bits].filter((bit) => bit === '1').length;

function judgeLine(label: string, glyphs: Glyph[]): void {
  const distinct = new Set(glyphs.map((glyph) => glyph.bits)).size;
  const inks = glyphs.map(ink);
  const wrong = glyphs.length >= 3 && distinct === 1;
  if (wrong) failures++;
  console.log(
    `${label}: ${glyphs.length} glyphs, ${distinct} distinct, ink ${inks.join('/')}${wrong ? '  ← all alike' : ''}`,
  );
}

async function cloud(fontId: number, format: 'png' | 'svg-outlines', seed: number): Promise<Uint8Array> {
  const res = await post('/tools/api/word-cloud', {
    text: '字体设计 像素字体 书法 排版 思源黑体 宋体 楷书 行书 草书 隶书 篆书 字体 设计 排版 印刷 屏幕 点阵 笔画 结构 字重 字形 字库 字符 文字 汉字 日文 繁体 简体 标题 正文',
    font: { fontId },
    background: '#ffffff',
    colors: 'ink',
    width: 800,
    height: 800,
    format,
    // A seed of its own per run: a cloud drawn once is answered from memory.
    seed,
  });
  if (res.status !== 200) throw new Error(`word cloud: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

const ids = await fontIds();
const id = (gno: string) => {
  const found = ids.get(gno);
  if (found === undefined) throw new Error(`no font ${gno} in the library`);
  return found;
};

console.log('Klee One, 永和九年, grid 17 → 22');
/** Klee One's line at each grid: another face drawing the very same pixels was drawn in a fallback. */
const klee = new Map<number, string>();
for (let grid = 17; grid <= 22; grid++) {
  const answer = await preview(id('klee-one-400'), grid, '永和九年');
  judgeLine(`  grid ${grid}`, answer.glyphs);
  klee.set(grid, answer.glyphs.map((glyph) => glyph.bits).join());
}

const hina = id('hina-mincho-400');
console.log(`Hina Mincho (font ${hina}): ten pixel previews, then a word cloud`);
const run = Date.now() % 100_000;
const firstPng = await cloud(hina, 'png', run);
const firstSvg = await cloud(hina, 'svg-outlines', run);
for (let grid = 17; grid <= 26; grid++) {
  const { glyphs } = await preview(hina, grid, '永和九年');
  judgeLine(`  grid ${grid}`, glyphs);
  if (klee.get(grid) === glyphs.map((glyph) => glyph.bits).join()) {
    failures++;
    console.log(`  grid ${grid}: the very pixels Klee One drew: both fell back to another face`);
  }
}
const lastPng = await cloud(hina, 'png', run + 1);
const lastSvg = await cloud(hina, 'svg-outlines', run + 1);
const masks = await Promise.all([firstPng, firstSvg, lastPng, lastSvg].map((bytes) => inkMask(bytes, 400)));
const before = iou(masks[0] as Uint8Array, masks[1] as Uint8Array);
const after = iou(masks[2] as Uint8Array, masks[3] as Uint8Array);
if (before < 0.7 || after < 0.7) failures++;
console.log(
  `  word cloud PNG vs SVG outlines IoU: ${before.toFixed(3)} before the previews, ${after.toFixed(3)} after`,
);

console.log('Noto Sans SC 400 (思源黑体), grid 16');
judgeLine('  永和九年岁在癸丑', (await preview(id('noto-sans-sc-400'), 16, '永和九年岁在癸丑')).glyphs);

console.log('M PLUS 1p Thin, grid 16');
const thin = await preview(id('m-plus-1p-100'), 16, '永和九年あいう');
console.log(`  ink ${thin.glyphs.map(ink).join('/')}; message: ${thin.faint?.message ?? '(none)'}`);
if (thin.faint?.threshold !== undefined || thin.faint?.grid !== undefined) {
  const suggested = await preview(
    id('m-plus-1p-100'),
    thin.faint.grid ?? 16,
    '永和九年あいう',
    thin.faint.grid === undefined ? thin.faint.threshold : undefined,
  );
  console.log(
    `  at the suggestion: ink ${suggested.glyphs.map(ink).join('/')}; message: ${suggested.faint?.message ?? '(none)'}`,
  );
}

console.log(failures === 0 ? 'every drawing right' : `${failures} drawings wrong`);
process.exit(failures === 0 ? 0 : 1);
