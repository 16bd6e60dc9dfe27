// Warms the server once it listens, through its own public API, so the first visitor of the font
// library meets loaded fonts: each subset worker loads a family's face on first use (about 50–100 ms
// for a 10 MB CJK font), which for a page of 24 previews would otherwise all fall on that visitor.
import { PAGE_SIZE } from '../../src/components/font/library-query.ts';
import { coverageSets, jisKanji } from '../../src/server/engine/charsets.ts';
import { log } from '../../src/server/log.ts';

interface FontList {
  data?: { records?: Array<{ fontGNo: string }> };
}

/** Waits no longer than this; the server is already serving meanwhile. */
const WARM_TIMEOUT_MS = 15_000;

/** Loads the faces of the library's first page into the subset workers; failures only get logged. */
export async function warmFontLibrary(origin: string): Promise<void> {
  const started = performance.now();
  const signal = AbortSignal.timeout(WARM_TIMEOUT_MS);
  try {
    const listed = await fetch(`${origin}/web/api/fontOverride/getFontList?size=${PAGE_SIZE}`, { signal });
    const list = (await listed.json()) as FontList;
    const items = (list.data?.records ?? []).map((family) => ({ gno: family.fontGNo, text: '永' }));
    if (items.length === 0) return;
    const answer = await fetch(`${origin}/webfont/http`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items),
      signal,
    });
    if (!answer.ok) throw new Error(`subset service answered ${answer.status}`);
    log().info({ faces: items.length, ms: Math.round(performance.now() - started) }, 'font library warmed');
  } catch (error) {
    log().warn({ err: error }, 'could not warm the font library');
  }
}

/**
 * Draws the word-cloud tool's sample at the widths its page lists, in the background once the site
 * is ready: the picture is that page's largest paint, and drawing it takes seconds the first time.
 */
export async function warmWordCloudSample(origin: string, widths: readonly string[]): Promise<void> {
  try {
    for (const width of widths) {
      const answer = await fetch(`${origin}/tools/api/word-cloud/sample.webp?w=${width}`);
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`the word-cloud sample answered ${answer.status}`);
    }
  } catch (error) {
    log().warn({ err: error }, 'could not draw the word-cloud sample ahead');
  }
}

/**
 * Asks for one puzzle once the site is ready: the first puzzle draws the twelve backgrounds every
 * later one is cut from (a quarter of a second of Skia on the server's own thread, a turn apart),
 * which would otherwise fall on the first visitor to log in after a start.
 */
export async function warmCaptcha(origin: string): Promise<void> {
  try {
    const answer = await fetch(`${origin}/captcha/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ captchaType: 'blockPuzzle' }),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`the captcha answered ${answer.status}`);
  } catch (error) {
    log().warn({ err: error }, 'could not draw the captcha backgrounds ahead');
  }
}

/**
 * Builds, before the server listens, the tables the first requests would otherwise build on its own
 * thread while others wait: the coverage sets every font detail is counted against (GB 2312 and Big5
 * decoded, 20–30 ms) and the JIS X 0208 kanji identification judges a sample's script by.
 */
export function buildTablesBeforeServing(): void {
  coverageSets();
  jisKanji();
}
