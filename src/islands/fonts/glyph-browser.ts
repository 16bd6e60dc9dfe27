// The glyph browser of a font's page: the grid of characters moves focus with the arrow keys (one
// stop in the tab order, not 160); a character chosen there or found by the lookup is zoomed with
// its outline, code point and metrics; the lookup (「有没有这个字？」) says which of the typed
// characters the face has, asking the preview service, which answers what a face lacks.
import { getGlyphDetail, subsetFonts } from '../../api/fonts.ts';
import { glyphSvg, metricsList } from './glyph-figure.ts';

/** Most characters one lookup checks. */
const MAX_LOOKUP = 20;

/** Wires the glyph browser of the page, if it has one. */
export function installGlyphBrowser(): void {
  const browser = document.querySelector<HTMLElement>('[data-glyph-browser]');
  if (!browser) return;
  const gno = browser.dataset['gno'] ?? '';
  const grid = browser.querySelector<HTMLElement>('[data-glyph-grid]');
  const zoomPanel = browser.querySelector<HTMLElement>('[data-glyph-zoom]');
  const answer = browser.querySelector<HTMLElement>('[data-glyph-answer]');
  const form = browser.querySelector<HTMLFormElement>('[data-glyph-lookup]');
  let zooming = 0;

  async function zoom(char: string): Promise<void> {
    if (!zoomPanel) return;
    const run = ++zooming;
    for (const button of grid?.querySelectorAll<HTMLButtonElement>('button[data-char]') ?? []) {
      button.setAttribute('aria-pressed', String(button.dataset['char'] === char));
    }
    zoomPanel.setAttribute('aria-busy', 'true');
    try {
      const detail = await getGlyphDetail(gno, char);
      if (run !== zooming) return;
      const title = document.createElement('p');
      title.className = 'glyph-zoom__title';
      title.append(detail.char, Object.assign(document.createElement('span'), { textContent: detail.unicode }));
      if (!detail.has) {
        const none = Object.assign(document.createElement('p'), {
          className: 'glyph-zoom__none',
          textContent: `这款字体没有「${detail.char}」。`,
        });
        zoomPanel.replaceChildren(title, none);
        return;
      }
      const figure = glyphSvg([{ detail, className: 'glyph-zoom__ink' }], {
        metrics: true,
        label: `「${detail.char}」的字形，虚线为字面框，红线为基线`,
      });
      zoomPanel.replaceChildren(title, figure, metricsList(detail));
    } catch {
      if (run === zooming)
        zoomPanel.replaceChildren(
          Object.assign(document.createElement('p'), { textContent: '暂时无法读取这个字，请稍后再试。' }),
        );
    } finally {
      if (run === zooming) zoomPanel.removeAttribute('aria-busy');
    }
  }

  grid?.addEventListener('click', (event) => {
    const button =
      event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-char]') : null;
    if (button?.dataset['char']) void zoom(button.dataset['char']);
  });
  // Roving focus: the arrows move within the grid, a row being as many cells as fit across.
  grid?.addEventListener('keydown', (event) => {
    const buttons = [...grid.querySelectorAll<HTMLButtonElement>('button[data-char]')];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const first = buttons[0]?.getBoundingClientRect().top ?? 0;
    const perRow = Math.max(
      1,
      buttons.findIndex((button) => button.getBoundingClientRect().top !== first),
    );
    const moves: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: perRow,
      ArrowUp: -perRow,
      Home: -index,
      End: buttons.length - 1 - index,
    };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, index + move))];
    if (!next) return;
    for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
    next.focus();
  });

  form?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = form.querySelector<HTMLInputElement>('input');
    const chars = [...new Set([...(input?.value ?? '')].filter((ch) => !/\s/u.test(ch)))].slice(0, MAX_LOOKUP);
    if (!answer) return;
    if (chars.length === 0) {
      answer.textContent = '请输入要查的字。';
      return;
    }
    answer.textContent = '正在查找…';
    try {
      const [result] = await subsetFonts([{ gno, text: chars.join('') }]);
      const missing = new Set(result?.missing ?? '');
      const has = chars.filter((ch) => !missing.has(ch));
      const lacks = chars.filter((ch) => missing.has(ch));
      const button = (ch: string, present: boolean) => {
        const element = Object.assign(document.createElement('button'), { type: 'button', textContent: ch });
        element.dataset['has'] = String(present);
        element.setAttribute('aria-label', `${ch}：${present ? '有' : '没有'}，放大看`);
        element.addEventListener('click', () => void zoom(ch));
        return element;
      };
      const parts: Array<string | Node> = [];
      if (has.length > 0) parts.push('有：', ...has.map((ch) => button(ch, true)));
      if (lacks.length > 0) parts.push(has.length > 0 ? '；没有：' : '没有：', ...lacks.map((ch) => button(ch, false)));
      answer.replaceChildren(...parts);
      void zoom(chars[0] ?? '');
    } catch {
      answer.textContent = '暂时无法查找，请稍后再试。';
    }
  });
}
