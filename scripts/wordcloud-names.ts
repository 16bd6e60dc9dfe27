// `npm run wordcloud:names`: writes the names of the catalogue's families and foundries for the
// word cloud (src/server/engine/data/font-names.txt), which keeps them whole when it cuts a text.
// Run it after adding a family to src/server/db/seed/font-catalogue.ts.
import fs from 'node:fs';
import { FONT_CATALOGUE } from '../src/server/db/seed/font-catalogue.ts';
import { FONT_NAMES_FILE, fontNamesOf } from '../src/server/engine/wordcloud/font-names.ts';

const names = fontNamesOf(FONT_CATALOGUE);
const header = '# Written by `npm run wordcloud:names` from src/server/db/seed/font-catalogue.ts: do not edit.';
fs.writeFileSync(FONT_NAMES_FILE, `${header}\n${names.join('\n')}\n`);
console.log(`Wrote ${names.length} names to ${FONT_NAMES_FILE}`);
