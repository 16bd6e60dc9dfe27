// What the subset page makes of a finished job: the CSS to copy and the face to preview.
import type { JobFile, JobResult } from '../../lib/tools-types.ts';

const CSS_FORMATS: Record<string, string> = { woff2: 'woff2', woff: 'woff', ttf: 'truetype' };
const PREFERENCE = ['woff2', 'woff', 'ttf'];

/** The result's files, best for the web first (WOFF2, WOFF, TTF). */
export function webFiles(files: JobFile[]): JobFile[] {
  return files
    .filter((file) => PREFERENCE.includes(file.format))
    .sort((a, b) => PREFERENCE.indexOf(a.format) - PREFERENCE.indexOf(b.format));
}

/**
 * The `@font-face` rule to copy: the server's own when it sent one, else a rule whose sources are
 * the downloaded files' names, to be placed beside the stylesheet.
 */
export function fontFaceCss(result: JobResult, fallbackFamily: string): string {
  if (result.css?.trim()) return result.css.trim();
  const family = `${result.familyName || fallbackFamily} Subset`;
  const sources = webFiles(result.files).map((file) => `url('./${file.name}') format('${CSS_FORMATS[file.format]}')`);
  return [
    '@font-face {',
    `  font-family: '${family}';`,
    `  src: ${sources.join(',\n       ')};`,
    '  font-display: swap;',
    '}',
  ].join('\n');
}

let previews = 0;

/**
 * Loads the produced font into the page with the FontFace API and answers the family name it was
 * registered under, so the preview shows the very file the visitor will download.
 */
export async function loadPreviewFace(result: JobResult): Promise<string | undefined> {
  const file = webFiles(result.files)[0];
  if (!file) return undefined;
  const family = `subset-preview-${++previews}`;
  const face = new FontFace(family, `url("${file.url}")`, { display: 'block' });
  await face.load();
  document.fonts.add(face);
  return family;
}

/**
 * Reads a text file as UTF-8, or as GB 18030 when it is not valid UTF-8 (many Chinese .txt files
 * saved on Windows are GBK, which GB 18030 contains).
 */
export async function readTextFile(file: Blob): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

/** How many different characters a text holds, leaving out line breaks and other controls. */
export function distinctCharacters(text: string): number {
  const set = new Set<string>();
  for (const ch of text) if ((ch.codePointAt(0) ?? 0) >= 0x20) set.add(ch);
  return set.size;
}
