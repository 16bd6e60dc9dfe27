// `npm run identify:forms`: writes each character's forms in the other scripts for identification
// (src/server/engine/data/variant-forms.txt) from OpenCC's tables. Run it after upgrading opencc-js;
// tests/unit/identify-variant-forms.test.ts fails while the file and the tables disagree.
import fs from 'node:fs';
import * as OpenCC from 'opencc-js';
import { VARIANT_FORMS_FILE } from '../src/server/engine/identify/variants.ts';

// The table of each character's forms in the other scripts (Simplified, Traditional, Hong Kong,
// Japanese), derived from OpenCC's tables for identification (src/server/engine/identify/variants.ts).
// OpenCC's converters build their tries from every phrase of every table: about 110 MB of
// JavaScript objects for the seven identification needs, held for the life of its worker. It only
// ever converts one character at a time, so the answers are computed here, once, for every
// character any of the tables names (any other character converts to itself in each direction),
// and written to a data file of about 65 KB that the site reads instead.

/** The directions whose conversions give a character's other forms, in the order they are tried. */
const DIRECTIONS = [
  ['cn', 'tw'],
  ['cn', 'hk'],
  ['cn', 'jp'],
  ['tw', 'cn'],
  ['hk', 'cn'],
  ['jp', 'cn'],
] as const;

type Convert = (text: string) => string;

/** Every character that some table of OpenCC's names, as a source or a replacement. */
function charactersNamed(): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const character of value) if (character !== ' ' && character !== '|') found.add(character);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(OpenCC.Locale);
  return [...found].sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0));
}

/** A character's other forms (帰 and 歸 for 归), the character left out: one step, then forms of forms. */
function otherFormsBy(converters: readonly Convert[], character: string): string[] {
  const forms = new Set<string>();
  for (const convert of converters) {
    const form = convert(character);
    if (form !== character && [...form].length === 1) forms.add(form);
  }
  // Forms of forms: 階 → 阶 → (nothing new), 帰 → 归 → 歸.
  for (const form of [...forms]) {
    for (const convert of converters) {
      const next = convert(form);
      if (next !== character && [...next].length === 1) forms.add(next);
    }
  }
  return [...forms];
}

/** What the data file holds: each character with other forms, and the forms only Hong Kong writes. */
export interface VariantTable {
  /** A character and its other forms, in the order identification weighs them. */
  forms: Array<[string, string[]]>;
  /** Characters Hong Kong's standard writes and Taiwan's does not (裏, 衞, 綫, 着). */
  hongKong: string[];
}

/** Computes the table from OpenCC's converters. */
export function variantTableFromOpenCC(): VariantTable {
  const converters = DIRECTIONS.map(([from, to]) => OpenCC.Converter({ from, to }));
  const toTaiwan = OpenCC.Converter({ from: 'hk', to: 'tw' });
  const forms: Array<[string, string[]]> = [];
  const hongKong: string[] = [];
  for (const character of charactersNamed()) {
    const others = otherFormsBy(converters, character);
    if (others.length) forms.push([character, others]);
    if (toTaiwan(character) !== character) hongKong.push(character);
  }
  return { forms, hongKong };
}

/** The data file's text: a header, a line per character (the character, then its forms), the Hong Kong forms. */
export function formatVariantTable(table: VariantTable): string {
  const lines = [
    '# Written by `npm run identify:forms` from OpenCC’s tables (opencc-js): do not edit.',
    '# A line is a character followed by its other forms; the line after `hk:` lists the forms only Hong Kong writes.',
    ...table.forms.map(([character, others]) => character + others.join('')),
    'hk:',
    table.hongKong.join(''),
  ];
  return `${lines.join('\n')}\n`;
}

// Run as a script (the test imports the functions above and writes nothing).
if (import.meta.main) {
  const table = variantTableFromOpenCC();
  fs.writeFileSync(VARIANT_FORMS_FILE, formatVariantTable(table));
  console.log(
    `Wrote ${table.forms.length} characters with other forms and ${table.hongKong.length} Hong Kong forms to ${VARIANT_FORMS_FILE}`,
  );
}
