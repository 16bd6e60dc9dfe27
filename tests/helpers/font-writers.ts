import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Fonts in other containers made by fontTools, an implementation independent of ours, so that
// the converter's readers are tested on files it did not write itself.

function inTempDir<T>(run: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-writers-'));
  try {
    return run(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function python(script: string, args: string[]): void {
  execFileSync('/usr/bin/python3', ['-c', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The font re-saved by fontTools as WOFF or WOFF2. */
export function flavorByFontTools(bytes: Uint8Array, flavor: 'woff' | 'woff2'): Uint8Array {
  return inTempDir((dir) => {
    const input = path.join(dir, 'in.bin');
    const output = path.join(dir, `out.${flavor}`);
    fs.writeFileSync(input, bytes);
    python(
      'import sys\nfrom fontTools.ttLib import TTFont\nf = TTFont(sys.argv[1])\nf.flavor = sys.argv[3]\nf.save(sys.argv[2])',
      [input, output, flavor],
    );
    return new Uint8Array(fs.readFileSync(output));
  });
}

/** A TrueType collection of the given fonts, written by fontTools (shared tables are merged). */
export function collectionByFontTools(fonts: Uint8Array[]): Uint8Array {
  return inTempDir((dir) => {
    const inputs = fonts.map((bytes, i) => {
      const file = path.join(dir, `in${i}.ttf`);
      fs.writeFileSync(file, bytes);
      return file;
    });
    const output = path.join(dir, 'out.ttc');
    python(
      [
        'import sys',
        'from fontTools.ttLib import TTFont, TTCollection',
        'c = TTCollection()',
        'c.fonts = [TTFont(p) for p in sys.argv[2:]]',
        'c.save(sys.argv[1])',
      ].join('\n'),
      [output, ...inputs],
    );
    return new Uint8Array(fs.readFileSync(output));
  });
}

/** The glyph count of a font as fontTools reads it (maxp.numGlyphs of the first font). */
export function glyphCountByFontTools(bytes: Uint8Array): number {
  return inTempDir((dir) => {
    const input = path.join(dir, 'in.bin');
    fs.writeFileSync(input, bytes);
    return Number(
      execFileSync(
        '/usr/bin/python3',
        ['-c', 'import sys\nfrom fontTools.ttLib import TTFont\nprint(TTFont(sys.argv[1])["maxp"].numGlyphs)', input],
        { encoding: 'utf8' },
      ).trim(),
    );
  });
}
