import type { Page } from '@playwright/test';

/** The smallest hit box a finger can aim at reliably, in CSS px (WCAG 2.5.5, the project's rule). */
export const MIN_TARGET = 44;

/**
 * The visible controls of the page whose hit box is under MIN_TARGET × MIN_TARGET CSS px, one line
 * each (what it is, its size). Controls: links, buttons, fields, selects, text areas, role=button,
 * summaries, and the labels of checkboxes and radios (the label is the target a finger hits: a box
 * or dot smaller than 44 px passes when its label is large enough).
 *
 * Exempt, as WCAG 2.5.8 exempts them: a link inside running text (an inline link whose block has
 * other words around it, in a paragraph, list item or table cell), since making it taller would
 * break the line spacing of the prose; disabled controls; and controls that are not shown (hidden,
 * clipped to a pixel as screen-reader-only text is, or inside a closed <details>).
 */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type=hidden])',
      'select',
      'textarea',
      '[role=button]',
      'summary',
      'label',
    ].join(',');
    const nameOf = (element: Element) => {
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ');
      const classes = [...element.classList].slice(0, 2).join('.');
      // A plain link is named by the nearest styled block around it (the footer's list, a card).
      const around = classes ? null : element.parentElement?.closest('[class]');
      const where = around ? ` in ${around.tagName.toLowerCase()}.${[...around.classList].slice(0, 2).join('.')}` : '';
      return `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}${where} “${name.slice(0, 24)}”`;
    };
    /** True for an inline element whose block around it holds other words: a link in a sentence. */
    const inSentence = (element: Element) => {
      if (getComputedStyle(element).display !== 'inline') return false;
      let block = element.parentElement;
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
      if (!block) return false;
      const own = (element.textContent ?? '').trim().length;
      return (block.textContent ?? '').trim().length > own + 1;
    };
    const isToggle = (element: Element) =>
      element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio');
    const small: string[] = [];
    for (const element of document.body.querySelectorAll(selector)) {
      // A checkbox or radio is hit through its label; a label is a target only for one of them.
      if (isToggle(element) && (element as HTMLInputElement).labels?.length) continue;
      if (element instanceof HTMLLabelElement && !(element.control && isToggle(element.control))) continue;
      if (element.matches(':disabled, [aria-disabled=true]')) continue;
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      const box = element.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (element.closest('details:not([open]) > :not(summary)')) continue;
      if (element.matches('a[href]') && inSentence(element)) continue;
      // Rounded as layout rounds them: 43.99 px is 44.
      if (Math.round(box.width) < min || Math.round(box.height) < min) {
        small.push(`${nameOf(element)} ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return small;
  }, MIN_TARGET);
}
