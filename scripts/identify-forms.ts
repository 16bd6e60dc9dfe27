// `npm run identify:forms`: writes each character's forms in the other scripts for identification
// (src/server/engine/data/variant-forms.txt) from OpenCC's tables. Run it after upgrading opencc-js;
// tests/unit/identify-variant-forms.test.ts fails while the file and the tables disagree.
import fs from 'node:fs';
import { VARIANT_FORMS_FILE } from '../src/server/engine/identify/variants.ts';
import { formatVariantTable, variantTableFromOpenCC } from './lib/variant-forms.ts';

const table = variantTableFromOpenCC();
fs.writeFileSync(VARIANT_FORMS_FILE, formatVariantTable(table));
console.log(
  `Wrote ${table.forms.length} characters with other forms and ${table.hongKong.length} Hong Kong forms to ${VARIANT_FORMS_FILE}`,
);
