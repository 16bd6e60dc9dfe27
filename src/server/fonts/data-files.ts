import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads a file of src/server/fonts/data. It is looked for next to this module first, then under
 * the project's source folder, because the Astro server build moves code but not data files.
 */
export function readFontDataFile(name: string): string {
  const candidates = [
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', name),
    path.resolve(process.cwd(), 'src/server/fonts/data', name),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`Font data file ${name} not found (looked in ${candidates.join(', ')})`);
  return fs.readFileSync(found, 'utf8');
}

/** The text of the SIL Open Font License 1.1, without a copyright line (that belongs to each font). */
export function oflText(): string {
  return readFontDataFile('ofl-1.1.txt');
}
