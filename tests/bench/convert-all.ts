// Every library face to every format the converter offers for it, each output checked by the
// project's own font check and by OTS (ots-sanitize, the sanitizer of Chromium and Firefox):
//   node tests/bench/convert-all.ts [folder …]
// Without a folder it takes the seeded library (DATA_DIR/storage/fonts), or the test fixtures when
// the library has not been downloaded. Prints one row per face: time per format and the verdicts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conversionProblem, convertFont, TARGET_FORMATS } from '../../src/server/engine/convert.ts';
import { outlineKind, readSfnt } from '../../src/server/engine/sfnt.ts';
import { env } from '../../src/server/env.ts';

function fontsUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ttf|otf)$/i.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

const library = path.join(env().dataDir, 'storage', 'fonts');
const roots = process.argv.slice(2);
const files =
  roots.length > 0
    ? roots.flatMap(fontsUnder)
    : fontsUnder(library).length > 0
      ? fontsUnder(library)
      : fontsUnder('tests/fixtures');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'convert-all-'));

function ots(bytes: Uint8Array): boolean {
  const file = path.join(scratch, 'out.font');
  fs.writeFileSync(file, bytes);
  try {
    execFileSync('ots-sanitize', [file, path.join(scratch, 'clean.font')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let failures = 0;
let conversions = 0;
console.log(`${files.length} faces × ${TARGET_FORMATS.join(', ')} (— = not offered for the outline kind)\n`);
for (const file of files) {
  const sfnt = new Uint8Array(fs.readFileSync(file));
  const outline = outlineKind(readSfnt(sfnt));
  const cells: string[] = [];
  for (const target of TARGET_FORMATS) {
    if (conversionProblem(outline, target)) {
      cells.push(`${target} —`);
      continue;
    }
    conversions++;
    const started = performance.now();
    try {
      const out = await convertFont(sfnt, target);
      const ms = Math.round(performance.now() - started);
      const sanitized = target === 'svg' || target === 'eot' ? true : ots(out);
      if (!sanitized) failures++;
      cells.push(`${target} ${ms} ms${sanitized ? '' : ' OTS-FAIL'}`);
    } catch (error) {
      failures++;
      cells.push(`${target} ERROR ${(error as Error).message.slice(0, 60)}`);
    }
  }
  console.log(`${path.basename(file).padEnd(44)} ${cells.join(' | ')}`);
}
console.log(`\n${conversions - failures} of ${conversions} conversions written and passing OTS`);
fs.rmSync(scratch, { recursive: true, force: true });
process.exitCode = failures ? 1 : 0;
