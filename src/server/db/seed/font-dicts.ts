import type { Db } from '../client.ts';
import { fontDicts } from '../schema/index.ts';

/** One entry of the font dictionary: clients compare `dictNumber` as text (SPEC §3). */
export interface FontDictEntry {
  dictKey: 'category' | 'script' | 'license';
  dictNumber: string;
  label: string;
  sort: number;
}

import { FONT_CATEGORIES, FONT_SCRIPTS } from '../../../contract/fonts.ts';

export { FONT_CATEGORIES, FONT_SCRIPTS };
/** Licence kinds; the dict number is the SPDX identifier where one exists. */
export const FONT_LICENSES = [
  { dictNumber: 'OFL-1.1', label: 'SIL 开源字体许可 1.1（免费商用）' },
  { dictNumber: 'Apache-2.0', label: 'Apache 许可 2.0（免费商用）' },
  // GPL 2 or later with the exception cwTeX's fonts carry: a PDF or PostScript document may embed
  // them whatever its own licence; the fonts themselves, changed or not, stay under the GPL.
  { dictNumber: 'GPL-2.0-or-later-font-exception', label: 'GPL 2.0 及以上（含字体例外，可免费商用）' },
  { dictNumber: 'free-commercial', label: '免费商用' },
  { dictNumber: 'personal', label: '个人非商用免费' },
  { dictNumber: 'commercial', label: '需购买商业授权' },
] as const;

export type FontCategory = (typeof FONT_CATEGORIES)[number];
export type FontScript = (typeof FONT_SCRIPTS)[number];
export type FontLicense = (typeof FONT_LICENSES)[number]['dictNumber'];

/** The dict number of a category: its 1-based position, as text ('1' is 黑体). */
export function categoryNumber(label: FontCategory): string {
  return String(FONT_CATEGORIES.indexOf(label) + 1);
}

/** The dict number of a script: its 1-based position, as text ('1' is 简体). */
export function scriptNumber(label: FontScript): string {
  return String(FONT_SCRIPTS.indexOf(label) + 1);
}

/** Every entry of the font dictionary the site starts with. */
export function fontDictEntries(): FontDictEntry[] {
  return [
    ...FONT_CATEGORIES.map((label, i) => ({
      dictKey: 'category' as const,
      dictNumber: String(i + 1),
      label,
      sort: i + 1,
    })),
    ...FONT_SCRIPTS.map((label, i) => ({ dictKey: 'script' as const, dictNumber: String(i + 1), label, sort: i + 1 })),
    ...FONT_LICENSES.map((entry, i) => ({ dictKey: 'license' as const, ...entry, sort: i + 1 })),
  ];
}

/**
 * Adds the missing dictionary entries. Existing ones are left alone, so labels an administrator
 * changed survive a restart; returns how many entries were added.
 */
export async function seedFontDicts(db: Db): Promise<number> {
  const added = await db
    .insert(fontDicts)
    .values(fontDictEntries())
    .onConflictDoNothing({ target: [fontDicts.dictKey, fontDicts.dictNumber] })
    .returning({ id: fontDicts.id });
  return added.length;
}
