import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

// Skia keeps one collection of fonts per process, and removing a registration removes every name
// its file was registered under, in every thread: two modules that register faces on their own
// take each other's fonts away. So one module owns it, and this test holds the line: no other file
// of the project names GlobalFonts.

const OWNER = 'src/server/engine/text/font-registry.ts';
const SELF = 'tests/unit/font-registry-owner.test.ts';

function sources(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .flatMap((entry) =>
      entry.isFile() && /\.(ts|tsx|mts|cts|js|mjs|cjs|astro)$/.test(entry.name)
        ? [path.relative('.', path.join(entry.parentPath, entry.name)).split(path.sep).join('/')]
        : [],
    );
}

describe('the font registry', () => {
  test('is the only module that registers or removes faces with Skia', () => {
    const naming = ['src', 'scripts', 'tests']
      .flatMap(sources)
      .filter((file) => file !== OWNER && file !== SELF)
      .filter((file) => /\bGlobalFonts\b/.test(fs.readFileSync(file, 'utf8')));
    expect(naming).toEqual([]);
    expect(fs.readFileSync(OWNER, 'utf8')).toMatch(/\bGlobalFonts\b/);
  });
});
