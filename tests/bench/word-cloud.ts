// Word-cloud benchmark: 200 words cut from the site's own articles, laid out inside a 1000 × 1000
// heart and drawn as PNG, in Noto Sans SC Bold from the seeded library, in this process.
//   npm start once (to seed the library), stop it, then: node tests/bench/word-cloud.ts
//   (DATA_DIR=… for another data folder)
// Reference, in the same process: the d3-cloud layout of the same words at the same sizes on the
// same canvas (a rectangle: d3-cloud has no shapes), drawing with the same font through Skia.
// Target: layout and PNG together within 1 s.
import fs from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import cloud from 'd3-cloud';
import { decodeFont } from '../../src/server/engine/convert.ts';
import { type CloudRequest, cloudPng, loadWordFont, makeCloud } from '../../src/server/engine/wordcloud/cloud.ts';
import { countWords } from '../../src/server/engine/wordcloud/words.ts';
import { heartCloudRequest } from '../helpers/word-cloud.ts';

const RUNS = 7;
const dataDir = process.env['DATA_DIR'] ?? 'data';
const fontFile = path.join(dataDir, 'storage/fonts/noto-sans-sc/NotoSansSC_700Bold.ttf');
if (!fs.existsSync(fontFile)) throw new Error(`${fontFile} is missing: run npm start once to seed the library`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const contentDir = 'src/server/db/seed/content';
const text = fs
  .readdirSync(contentDir, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.md'))
  .map((file) => fs.readFileSync(path.join(contentDir, file), 'utf8'))
  .join('\n');

let started = performance.now();
const words = countWords(text, 200);
const cutMs = performance.now() - started;
const font = loadWordFont({ bytes: (await decodeFont(new Uint8Array(fs.readFileSync(fontFile)))).sfnt });
const request = (seed: number): CloudRequest => heartCloudRequest(font, words, { seed });

// One warm-up run of each, so both are measured with loaded code and cached glyphs.
await makeCloud(request(0));
const ours: number[] = [];
const layouts: number[] = [];
let placed = 0;
let sizes: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  started = performance.now();
  const result = await makeCloud(request(run));
  layouts.push(performance.now() - started);
  await cloudPng(request(run), result);
  ours.push(performance.now() - started);
  placed = result.words.length;
  sizes = result.words.map((word) => word.size);
}

function d3Layout(): Promise<number> {
  return new Promise((resolve) => {
    const layout = cloud<{ text: string; size: number }>()
      .size([1000, 1000])
      .canvas(() => createCanvas(1, 1) as unknown as HTMLCanvasElement)
      .words(words.slice(0, sizes.length).map((word, i) => ({ text: word.text, size: sizes[i] ?? 10 })))
      .padding(1)
      .rotate((_word, i) => (i % 3 === 0 ? 90 : 0))
      .font(font.family)
      .fontSize((word) => word.size ?? 10)
      .random(() => 0.5)
      .on('end', (output) => resolve(output.length));
    layout.start();
  });
}
await d3Layout();
const reference: number[] = [];
let referencePlaced = 0;
for (let run = 1; run <= RUNS; run++) {
  started = performance.now();
  referencePlaced = await d3Layout();
  reference.push(performance.now() - started);
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
console.log(`words cut from ${text.length.toLocaleString()} characters of articles: ${words.length} in ${ms(cutMs)}`);
console.log(
  `ours, heart 1000 × 1000: layout ${ms(median(layouts))}, layout + PNG ${ms(median(ours))} (median of ${RUNS}), ${placed} words placed`,
);
console.log(
  `d3-cloud, rectangle 1000 × 1000, same words and sizes: ${ms(median(reference))}, ${referencePlaced} words placed`,
);
console.log(
  `ratio, ours (layout + PNG) / d3-cloud layout: ${(median(ours) / median(reference)).toFixed(2)}×; target ≤ 1000 ms: ${median(ours) <= 1000 ? 'met' : 'missed'}`,
);
