// Font library page benchmark: the /font page of the seeded library in Chromium, as a visitor meets
// it. Reports the previews drawn, the WOFF2 bytes moved and when the last preview was drawn, for a
// sample text never seen before (every subset made on the spot) and for the same page again.
//   npm start once (to seed the library), stop it, then: node tests/bench/font-page.ts
//   or against a running server: BENCH_URL=http://localhost:4321 node tests/bench/font-page.ts
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import { measurePreviews, type PreviewMetrics } from '../helpers/preview-metrics.ts';

const BUDGET_BYTES = 400 * 1024;
const BUDGET_MS = 1500;

let base = process.env['BENCH_URL'];
let server: ReturnType<typeof spawn> | undefined;
if (!base) {
  const port = 4900 + (process.pid % 90);
  base = `http://localhost:${port}`;
  server = spawn(process.execPath, ['scripts/start.ts'], {
    env: { ...process.env, PORT: String(port), FONT_SEED: 'none', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server?.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
    server?.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('is ready at') && resolve());
  });
}

const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const rows: Array<[string, PreviewMetrics]> = [];
try {
  const stamp = Date.now().toString(36);
  const first = `/font?text=${encodeURIComponent(`春江潮水连海平${stamp}`)}`;
  const second = `/font?text=${encodeURIComponent(`海上明月共潮生${stamp}`)}`;
  for (const [label, url] of [
    ['fresh text, first visit after start', first],
    ['fresh text, faces resident', second],
    ['same page again (subsets cached)', second],
    ['default sample text', '/font'],
    ['Grid layout, default sample text', '/font?layout=Grid'],
  ] as const) {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    rows.push([label, await measurePreviews(page, `${base}${url}`)]);
    await context.close();
  }
} finally {
  await browser.close();
  server?.kill('SIGTERM');
}

console.log(`\n/font previews (${base}); budget ${BUDGET_BYTES / 1024} KB of fonts, drawn within ${BUDGET_MS} ms`);
for (const [label, m] of rows) {
  const verdict = m.fontBytes <= BUDGET_BYTES && m.drawnMs <= BUDGET_MS ? 'ok' : 'OVER BUDGET';
  console.log(
    `${label.padEnd(44)} ${String(m.previews).padStart(3)} previews  ${String(m.fonts).padStart(3)} fonts  ${(m.fontBytes / 1024).toFixed(1).padStart(7)} KB  ${String(m.drawnMs).padStart(5)} ms  ${verdict}`,
  );
}
