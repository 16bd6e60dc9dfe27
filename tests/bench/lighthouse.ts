// Lighthouse benchmark (issue 6, Speed): the performance score and its key metrics with Lighthouse's
// mobile preset (simulated slow 4G and a 4× slower CPU) for home and a news, an encyclopedia and
// an album detail page, in the system Chromium, plus the compressed JavaScript each page loads.
//   npm start once (to seed the content), stop it, then: node tests/bench/lighthouse.ts
//   or against a running server: node tests/bench/lighthouse.ts http://localhost:4321
// LIGHTHOUSE_REPORTS=<folder> also writes each page's HTML report there.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { kb, openBenchSite, pageScripts, samplePages } from './bench-site.ts';

const TARGET_SCORE = 95;
const BUDGET_BYTES = 40 * 1024;
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
];

/** Starts Chromium with a remote-debugging port for Lighthouse; answers the port and a stop function. */
async function launchChromium(): Promise<{ port: number; stop(): void }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lighthouse-chromium-'));
  const chromium = spawn(
    process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    chromium.on('exit', (code) => reject(new Error(`Chromium exited with ${code}: ${output}`)));
    chromium.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    port,
    stop() {
      chromium.kill('SIGTERM');
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

const ms = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} ms`);

const site = await openBenchSite(process.argv[2]);
const chromium = await launchChromium();
const reports = process.env['LIGHTHOUSE_REPORTS'];
if (reports) fs.mkdirSync(reports, { recursive: true });
const table: Array<Record<string, string>> = [];
let failed = false;
try {
  for (const { name, path: pagePath } of await samplePages(site.base)) {
    // A first request renders the page into the ISR cache, as a reader after the first would find it.
    await fetch(`${site.base}${pagePath}`);
    const result = await lighthouse(
      `${site.base}${pagePath}`,
      {
        port: chromium.port,
        output: reports ? 'html' : 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      },
      // No config: Lighthouse's default is the mobile preset.
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`);
    const { lhr } = result;
    if (reports) fs.writeFileSync(path.join(reports, `${name.replace(/\W+/g, '-')}.html`), String(result.report));
    const metric = (id: string) => lhr.audits[id]?.numericValue;
    const score = Math.round((lhr.categories['performance']?.score ?? 0) * 100);
    const summary = lhr.audits['resource-summary']?.details;
    const scriptTransfer =
      summary?.type === 'table'
        ? Number(summary.items.find((item) => item['resourceType'] === 'script')?.['transferSize'] ?? 0)
        : 0;
    const js = await pageScripts(site.base, pagePath);
    const article = name !== 'home';
    if (score < TARGET_SCORE || (article && js.served > BUDGET_BYTES)) failed = true;
    table.push({
      page: `${name} ${pagePath}`,
      score: `${score}${score < TARGET_SCORE ? ' (< 95)' : ''}`,
      FCP: ms(metric('first-contentful-paint')),
      LCP: ms(metric('largest-contentful-paint')),
      TBT: ms(metric('total-blocking-time')),
      CLS: (metric('cumulative-layout-shift') ?? 0).toFixed(3),
      'Speed Index': ms(metric('speed-index')),
      'JS at load': `${kb(js.served)} in ${js.files} files${article && js.served > BUDGET_BYTES ? ' (> 40 KB)' : ''}`,
      'JS seen by Lighthouse': kb(scriptTransfer),
    });
  }
} finally {
  chromium.stop();
  site.stop();
}
console.table(table);
console.log(
  `Targets: performance ≥ ${TARGET_SCORE} on every page; article pages load ≤ ${kb(BUDGET_BYTES)} of compressed JavaScript ` +
    '("JS at load": scripts in the page and their static imports, as served with Brotli; ' +
    '"JS seen by Lighthouse": every script transferred during the run, on-demand chunks included).',
);
if (failed) process.exitCode = 1;
