// The README's pictures, taken from a running site so they show it as it is: home and the font library
// at a phone's width (375 px) and a desktop's (1440 px), each once its fonts have loaded.
//   npm start (on the full library, so the pictures show real fonts), then in another terminal:
//   npx node scripts/screenshots.ts [http://localhost:4321]
// Writes docs/screenshots/<page>-<width>.png. Needs the system Chromium (CHROMIUM_PATH, else /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? process.env['SITE_URL'] ?? 'http://localhost:4321';
const out = path.resolve('docs', 'screenshots');
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'font', path: '/font' },
];
const WIDTHS = [
  { width: 375, height: 812, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  { width: 1440, height: 900, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
];

fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  for (const { width, height, deviceScaleFactor, isMobile, hasTouch } of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height },
      deviceScaleFactor,
      isMobile,
      hasTouch,
      locale: 'zh-CN',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    for (const { name, path: route } of PAGES) {
      const answer = await page.goto(new URL(route, base).href, { waitUntil: 'networkidle' });
      if (answer?.status() !== 200)
        throw new Error(`${route} answered ${answer?.status()}: is the site running at ${base}?`);
      // The previews are web fonts: the picture is taken once every face the page asked for has arrived.
      await page.evaluate(async () => {
        await document.fonts.ready;
      });
      const file = path.join(out, `${name}-${width}.png`);
      await page.screenshot({ path: file, fullPage: false });
      console.log(`${path.relative(process.cwd(), file)} (${(fs.statSync(file).size / 1024).toFixed(0)} KB)`);
    }
    await context.close();
  }
} finally {
  await browser.close();
}
