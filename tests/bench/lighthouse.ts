// Lighthouse benchmark: the performance and accessibility scores and the key metrics with
// Lighthouse's mobile preset (simulated slow 4G and a 4× slower CPU) in the system Chromium, for
// one page of every route of the site, the signed-in ones included, plus the compressed JavaScript
// each page loads. Failing accessibility audits are listed by audit id.
//   npm start once (to seed the content), stop it, then: node tests/bench/lighthouse.ts
//   or against a running server: node tests/bench/lighthouse.ts http://localhost:4321
// `--only=<regexp>` measures the routes whose path matches (say, --only=^/user). `--runs=N` measures
// each page N times and reports its lowest performance score (with that run's figures), since the
// simulated throttling multiplies whatever else the machine is doing at that moment.
// Signed-in pages are measured as BENCH_EDITOR (default bench-editor@example.com), an editor: the
// server started here lists it in EDITOR_ACCOUNTS; a server named by its address must be started with
// it there, and DATA_DIR must name that server's data folder (its outbox holds the registration code).
// The account is registered on the first run, with a custom-font request and a submission of its own.
// LIGHTHOUSE_REPORTS=<folder> also writes each page's HTML report there.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from '@playwright/test';
import lighthouse from 'lighthouse';
import { crawlSite, onePagePerRoute, routeOf, SIGNED_IN_SCOPE } from '../helpers/crawl.ts';
import { sessionOverHttp } from '../helpers/http-account.ts';
import { kb, openBenchSite, pageScripts } from './bench-site.ts';

const TARGET_PERFORMANCE = 95;
const TARGET_ACCESSIBILITY = 100;
const BUDGET_BYTES = 40 * 1024;
/** Article pages, which must load at most BUDGET_BYTES of JavaScript (tests/e2e/speed.spec.ts). */
const ARTICLE = /^\/(news|zixun|baike|album)\/\d+$/;
const EDITOR = process.env['BENCH_EDITOR'] ?? 'bench-editor@example.com';
const EDITOR_PASSWORD = 'Bench-pass-2026';
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
async function launchChromium(): Promise<{ port: number; stop(): Promise<void> }> {
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
    async stop() {
      // The profile is removed once Chromium has exited: it writes there until the end.
      const exited = new Promise((resolve) => chromium.once('exit', resolve));
      chromium.kill('SIGTERM');
      await exited;
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** One page of every route: the visitor's pages from home, then the editor's signed-in pages. */
async function everyRoute(
  base: string,
  token: string,
): Promise<Array<{ path: string; headers: Record<string, string> }>> {
  const visitor = await request.newContext({ baseURL: base });
  const editor = await request.newContext({ baseURL: base, extraHTTPHeaders: { cookie: `token=${token}` } });
  try {
    const open = onePagePerRoute(await crawlSite(visitor));
    const measured = new Set(open.map(routeOf));
    const signedIn = onePagePerRoute(await crawlSite(editor, SIGNED_IN_SCOPE)).filter(
      (page) => !measured.has(routeOf(page)),
    );
    return [
      ...open.map((page) => ({ path: page, headers: {} })),
      ...signedIn.map((page) => ({ path: page, headers: { cookie: `token=${token}` } })),
    ];
  } finally {
    await Promise.all([visitor.dispose(), editor.dispose()]);
  }
}

const ms = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} ms`);
const only = new RegExp(process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '');
const runs = Math.max(
  1,
  Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length) ?? 1) || 1,
);
const address = process.argv.slice(2).find((arg) => !arg.startsWith('--'));

const site = await openBenchSite(address, { EDITOR_ACCOUNTS: EDITOR });
const chromium = await launchChromium();
const reports = process.env['LIGHTHOUSE_REPORTS'];
if (reports) fs.mkdirSync(reports, { recursive: true });
const table: Array<Record<string, string>> = [];
const failedAudits: string[] = [];
let failed = false;
try {
  const token = await sessionOverHttp(site.base, process.env['DATA_DIR'] ?? 'data', EDITOR, EDITOR_PASSWORD);
  const pages = (await everyRoute(site.base, token)).filter((page) => only.test(page.path));
  for (const { path: pagePath, headers } of pages) {
    // A first request renders the page into the ISR cache, as a reader after the first would find it.
    await fetch(`${site.base}${pagePath}`, { headers });
    // The lowest of `runs` runs is reported: the page's score on a bad moment, not a lucky one.
    let result: NonNullable<Awaited<ReturnType<typeof lighthouse>>> | undefined;
    for (let run = 0; run < runs; run++) {
      const measured = await lighthouse(
        `${site.base}${pagePath}`,
        {
          port: chromium.port,
          output: reports ? 'html' : 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
          extraHeaders: headers,
        },
        // No config: Lighthouse's default is the mobile preset.
      );
      if (!measured) throw new Error(`Lighthouse gave no result for ${pagePath}`);
      const scoreOf = (answer: NonNullable<typeof measured>) => answer.lhr.categories['performance']?.score ?? 1;
      if (!result || scoreOf(measured) < scoreOf(result)) result = measured;
    }
    if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`);
    const { lhr } = result;
    if (reports) {
      fs.writeFileSync(path.join(reports, `${pagePath.replace(/\W+/g, '-') || 'home'}.html`), String(result.report));
    }
    const metric = (id: string) => lhr.audits[id]?.numericValue;
    const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
    const performance = score('performance');
    const accessibility = score('accessibility');
    for (const ref of lhr.categories['accessibility']?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight === 0 || audit?.score === null || (audit?.score ?? 1) >= 1) continue;
      const items = audit?.details?.type === 'table' ? audit.details.items : [];
      const first = items[0]?.['node'] as { selector?: string } | undefined;
      failedAudits.push(`${pagePath}: ${ref.id} (${items.length}${first?.selector ? `, ${first.selector}` : ''})`);
    }
    const js = await pageScripts(site.base, pagePath, headers);
    const overBudget = ARTICLE.test(pagePath) && js.served > BUDGET_BYTES;
    if (performance < TARGET_PERFORMANCE || accessibility < TARGET_ACCESSIBILITY || overBudget) failed = true;
    table.push({
      page: pagePath.length > 48 ? `${pagePath.slice(0, 47)}…` : pagePath,
      perf: `${performance}${performance < TARGET_PERFORMANCE ? ' (<95)' : ''}`,
      a11y: `${accessibility}${accessibility < TARGET_ACCESSIBILITY ? ' (<100)' : ''}`,
      LCP: ms(metric('largest-contentful-paint')),
      TBT: ms(metric('total-blocking-time')),
      CLS: (metric('cumulative-layout-shift') ?? 0).toFixed(3),
      'JS KB': `${kb(js.served).replace(' KB', '')}${overBudget ? ' (>40)' : ''}`,
    });
  }
} finally {
  await chromium.stop();
  site.stop();
}
console.table(table);
if (failedAudits.length > 0) console.log(`Failing accessibility audits:\n  ${failedAudits.join('\n  ')}`);
console.log(
  `Targets: performance ≥ ${TARGET_PERFORMANCE} and accessibility ${TARGET_ACCESSIBILITY} on every page; ` +
    `article pages load ≤ ${kb(BUDGET_BYTES)} of compressed JavaScript ` +
    '("JS KB": scripts in the page and their static imports, as served with Brotli; on-demand chunks left out).',
);
if (failed) process.exitCode = 1;
