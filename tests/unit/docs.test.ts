import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

// The README and docs/ are the living design: every link in them leads somewhere, and every file of
// the project they name is there. A renamed module or a moved section fails here, not in a reader's hands.

const PAGES = [
  'README.md',
  ...fs
    .readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The GitHub anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1] ?? ''));
  }
  return anchors;
}

/** The text of a page without its fenced code blocks (commands and drawings name no links). */
function proseOf(file: string): string {
  return fs.readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
}

describe('the documentation', () => {
  test.each(PAGES)('%s links only to files and headings that exist', (page) => {
    const broken: string[] = [];
    for (const match of proseOf(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z]+:/i.test(target)) continue;
      const [file = '', anchor] = target.split('#');
      const resolved = file === '' ? page : path.join(path.dirname(page), file);
      if (!fs.existsSync(resolved)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(decodeURIComponent(anchor))) {
        broken.push(`${target}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  test.each(PAGES)('%s names only project files that exist', (page) => {
    const missing: string[] = [];
    for (const match of proseOf(page).matchAll(/`((?:src|tests|scripts|deploy|docs|public)\/[^`\s]+)`/g)) {
      const named = (match[1] ?? '').replace(/[.,;:]+$/, '');
      // Patterns (`src/server/<domain>/`, `tests/e2e/*.spec.ts`) and elisions name no single file.
      if (/[<>*{}…]|\.\.\./.test(named)) continue;
      const file = named.replace(/:\d+(-\d+)?$/, '');
      if (!fs.existsSync(file)) missing.push(named);
    }
    expect(missing).toEqual([]);
  });
});
