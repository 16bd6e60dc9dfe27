import { readDataFile } from '../paths.ts';

/** Reads a file of src/server/engine/data. */
export function readFontDataFile(name: string): string {
  return readDataFile('engine', name);
}

/** The text of the SIL Open Font License 1.1, without a copyright line (that belongs to each font). */
export function oflText(): string {
  return readFontDataFile('ofl-1.1.txt');
}
