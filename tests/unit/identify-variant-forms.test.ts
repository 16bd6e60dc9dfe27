import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { formatVariantTable, variantTableFromOpenCC } from '../../scripts/identify-forms.ts';
import { otherForms, VARIANT_FORMS_FILE, writesHongKongForms } from '../../src/server/engine/identify/variants.ts';

describe('the forms of a character in the other scripts', () => {
  test('the data file is what OpenCC’s tables give (run `npm run identify:forms` after upgrading opencc-js)', () => {
    expect(fs.readFileSync(VARIANT_FORMS_FILE, 'utf8')).toBe(formatVariantTable(variantTableFromOpenCC()));
  });

  test('a character has its Traditional, Hong Kong and Japanese forms, and forms of forms', () => {
    expect(new Set(otherForms('归'))).toEqual(new Set(['歸', '帰']));
    expect(otherForms('帰')).toEqual(expect.arrayContaining(['归', '歸']));
    expect(otherForms('阶')).toEqual(['階']);
    expect(otherForms('駅')).toEqual(expect.arrayContaining(['驿', '驛']));
    expect(otherForms('永')).toEqual([]);
    expect(otherForms('A')).toEqual([]);
  });

  test('a sample is in Hong Kong forms only when it holds one Taiwan writes otherwise', () => {
    expect(writesHongKongForms([...'衞生'])).toBe(true);
    expect(writesHongKongForms([...'裏面'])).toBe(true);
    expect(writesHongKongForms([...'歸來'])).toBe(false);
    expect(writesHongKongForms([...'归来'])).toBe(false);
  });
});
