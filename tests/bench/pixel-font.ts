// Pixel-font maker benchmark: Noto Sans SC Regular (10 MB) from the seeded library, through the
// real server as a browser meets it.
//   npm start once (to seed the library), stop it, then: DATA_DIR=… node tests/bench/pixel-font.ts
//   (or BENCH_URL=http://… to measure a server that is already running)
// Figures: one preview line at 16 px (fresh text each time, budget 300 ms), and the whole GB2312
// font at 16 px in each pixel shape (budget 20 s for squares), against the subset generator making
// the same font's GB2312 WOFF2 in the same server (the reference run).
import { openBenchSite } from './bench-site.ts';

const GNO = 'noto-sans-sc';
const PREVIEWS = 20;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const common = [...'永和九年岁在癸丑暮春之初会于会稽山阴之兰亭修禊事也群贤毕至少长咸集此地有崇山峻岭茂林修竹'];
const freshLine = (run: number) => [...common.slice(run % 10), ...common.slice(0, run % 10)].slice(0, 12).join('');

const site = await openBenchSite();
const base = site.base;

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { code: string; message: string; data: T };
  if (answer.code !== '200') throw new Error(`${path}: ${answer.message}`);
  return answer.data;
}

async function finish(jobId: string): Promise<{ files: Array<{ format: string; size: number }> }> {
  for (;;) {
    const res = await fetch(`${base}/tools/api/jobs/${jobId}`);
    const { data } = (await res.json()) as {
      data: { state: string; error?: string; result?: { files: Array<{ format: string; size: number }> } };
    };
    if (data.state === 'done' && data.result) return data.result;
    if (data.state === 'failed') throw new Error(data.error);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

try {
  const detail = (await (await fetch(`${base}/web/api/font/getFontDetail?gno=${GNO}`)).json()) as {
    data?: { childFontResource: Array<{ id: number; weight: number }> };
  };
  const child = detail.data?.childFontResource.find((face) => face.weight === 400);
  if (!child) throw new Error(`${GNO} is not in the library: run npm start once (FONT_SEED=registry) to seed it`);
  const source = { fontId: child.id };

  // The first preview loads the font into a worker; the figure is the steady state after it.
  await post('/tools/api/pixel/preview', { source, options: { grid: 16 }, text: '字' });
  const previews: number[] = [];
  for (let run = 0; run < PREVIEWS; run++) {
    const started = performance.now();
    await post('/tools/api/pixel/preview', { source, options: { grid: 16 }, text: freshLine(run) });
    previews.push(performance.now() - started);
  }

  const time = async (start: () => Promise<{ jobId: string }>) => {
    const started = performance.now();
    const result = await finish((await start()).jobId);
    return { ms: performance.now() - started, files: result.files };
  };
  const reference = await time(() =>
    post('/tools/api/subset', { source, charsets: ['gb2312'], formats: ['ttf', 'woff', 'woff2'] }),
  );
  const rows: Array<[string, number, string]> = [];
  for (const shape of ['square', 'round', 'gapped']) {
    const run = await time(() =>
      post('/tools/api/pixel', { source, options: { grid: 16, shape }, charsets: ['gb2312'], family: '像素黑体' }),
    );
    const sizes = run.files.map((file) => `${file.format} ${(file.size / 1024).toFixed(0)} KB`).join(', ');
    rows.push([shape, run.ms, sizes]);
  }

  const previewMs = median(previews);
  console.log(`Pixel font maker, ${GNO} 400, grid 16, ${PREVIEWS} previews:`);
  console.log(
    `  preview, one line of 12 characters: median ${previewMs.toFixed(0)} ms (${(previewMs / 300).toFixed(2)}× the 300 ms budget)`,
  );
  console.log(`  reference: subset generator, GB2312 TTF+WOFF+WOFF2: ${(reference.ms / 1000).toFixed(1)} s`);
  for (const [shape, ms, sizes] of rows) {
    console.log(
      `  pixel font GB2312, ${shape.padEnd(6)}: ${(ms / 1000).toFixed(1)} s (${(ms / reference.ms).toFixed(2)}× the reference, ${(ms / 20_000).toFixed(2)}× the 20 s budget) — ${sizes}`,
    );
  }
} finally {
  site.stop();
}
