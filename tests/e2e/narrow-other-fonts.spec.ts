import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../helpers/e2e-test.ts';
import { LONG_NAMES, sessionOverHttp } from '../helpers/http-account.ts';
import { overflow, walkEveryRoute } from '../helpers/route-walk.ts';

// A page's width must not depend on the machine's fonts or on what people type. The walk of every route
// at 320 px (narrow.spec.ts) again, in a Chromium that sees another set of system fonts (Debian's
// fonts-noto-cjk, wider in Latin than WenQuanYi or AR PL), with the longest unbroken names each form takes
// in the lists: an editor's nickname, a custom-font request's organisation, a submission's names and file,
// an article's and an album's title, a long search and a long sample in the type tester.

/** Where Noto CJK's files are: `.ci/run` unpacks Debian's package there; a machine may have it installed. */
const NOTO_CJK = [process.env['SECOND_FONT_DIR'], '/usr/share/fonts/opentype/noto'].find(
  (dir) => dir && fs.existsSync(path.join(dir, 'NotoSansCJK-Regular.ttc')),
);

/** A fontconfig file that gives Chromium Noto CJK (and the fonts the site serves itself) and nothing else. */
function notoOnly(dir: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fonts-noto-only-'));
  const file = path.join(folder, 'fonts.conf');
  const prefer = (generic: string, family: string) =>
    `<alias><family>${generic}</family><prefer><family>${family}</family></prefer></alias>`;
  fs.writeFileSync(
    file,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${dir}</dir>
  <cachedir>${path.join(folder, 'cache')}</cachedir>
  ${prefer('sans-serif', 'Noto Sans CJK SC')}
  ${prefer('serif', 'Noto Serif CJK SC')}
  ${prefer('monospace', 'Noto Sans Mono CJK SC')}
</fontconfig>
`,
  );
  return file;
}

const WALKER = { email: 'long-name-walker@example.com', password: 'Walk-every-route-2', names: LONG_NAMES };
const LONG_WORD = 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller';

// Skipped only on a machine without those fonts: .ci/run always provides them, so CI never skips it.
test.skip(!NOTO_CJK, 'needs the fonts of Debian’s fonts-noto-cjk (.ci/run unpacks them and sets SECOND_FONT_DIR)');

test('no page scrolls sideways at 320 px with other system fonts and the longest names', async ({
  playwright,
  request,
}) => {
  const use = test.info().project.use;
  const base = use.baseURL ?? '';
  const browser = await playwright.chromium.launch({
    ...use.launchOptions,
    env: { ...process.env, FONTCONFIG_FILE: notoOnly(NOTO_CJK ?? '') },
  });
  // The walker's own records get the longest names when it registers; an article and an album are
  // published with them for the walk and taken back to drafts after it.
  const token = await sessionOverHttp(
    base,
    process.env['E2E_DATA_DIR'] ?? '',
    WALKER.email,
    WALKER.password,
    '10.99.0.2',
    LONG_NAMES,
  );
  const edit = async (type: 'article' | 'album', id: number | 'new', action: 'publish' | 'unpublish') => {
    const form = new FormData();
    const fields =
      type === 'article'
        ? {
            kind: 'news',
            title: LONG_WORD,
            summary: LONG_WORD,
            body: `${LONG_WORD}。`,
            author: LONG_NAMES.designer,
            tag: 'Typografie',
          }
        : { title: LONG_WORD, summary: LONG_WORD, body: `${LONG_WORD}。`, fonts: '' };
    for (const [key, value] of Object.entries({ ...fields, action })) form.set(key, value);
    const res = await fetch(`${base}/web/api/editor/${type}/${id}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'alliance-authenticate': token, 'X-Forwarded-For': '10.99.0.2' },
      body: form,
    });
    expect(res.status, `${type} ${action}`).toBe(200);
    return ((await res.json()) as { data: { id: number } }).data.id;
  };
  const article = await edit('article', 'new', 'publish');
  const album = await edit('album', 'new', 'publish');
  try {
    const context = await browser.newContext({
      baseURL: base,
      locale: 'zh-CN',
      extraHTTPHeaders: { 'X-Forwarded-For': '10.99.0.3' },
      viewport: { width: 320, height: 720 },
    });
    const page = await context.newPage();
    // The walk is judged in Noto alone: fonts most machines have are not there for this browser, text
    // asked in them is drawn as wide as in Noto.
    await page.goto('/offline');
    const widths = await page.evaluate(() => {
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      const width = (family: string) => {
        context.font = `20px "${family}"`;
        return context.measureText('Typography 字体排印 0123').width;
      };
      return ['Noto Sans CJK SC', 'DejaVu Sans', 'WenQuanYi Micro Hei', 'Liberation Sans'].map(width);
    });
    expect(new Set(widths).size).toBe(1);
    const { routes, found } = await walkEveryRoute(
      page,
      request,
      {
        ...WALKER,
        extraPaths: [`/search?q=${encodeURIComponent(LONG_WORD)}`, `/font?text=${encodeURIComponent(LONG_WORD)}`],
      },
      overflow,
    );
    expect(routes).toBeGreaterThan(70);
    expect(found).toEqual([]);
  } finally {
    await edit('article', article, 'unpublish');
    await edit('album', album, 'unpublish');
    await browser.close();
  }
});
