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

/** Runs a fontTools script on the font (argv[1]) that writes the font it makes to argv[2]. */
function rewrite(bytes: Uint8Array, script: string, args: string[] = []): Uint8Array {
  return inTempDir((dir) => {
    const input = path.join(dir, 'in.ttf');
    const output = path.join(dir, 'out.ttf');
    fs.writeFileSync(input, bytes);
    python(['import sys, json', 'from fontTools.ttLib import TTFont', script].join('\n'), [input, output, ...args]);
    return new Uint8Array(fs.readFileSync(output));
  });
}

/**
 * The font with its family renamed by fontTools, as a designer renames a cut: every name record that
 * holds the old family (English or Chinese) holds the new one, the PostScript name without spaces.
 */
export function renamedByFontTools(bytes: Uint8Array, from: string, to: string, fromZh = '', toZh = ''): Uint8Array {
  return rewrite(
    bytes,
    [
      'f = TTFont(sys.argv[1])',
      'old, new, old_zh, new_zh = sys.argv[3:7]',
      'for record in f["name"].names:',
      '    text = record.toUnicode()',
      '    if record.nameID == 6: text = text.replace(old.replace(" ", ""), new.replace(" ", ""))',
      '    text = text.replace(old, new)',
      '    if old_zh: text = text.replace(old_zh, new_zh)',
      '    record.string = text',
      'f.save(sys.argv[2])',
    ].join('\n'),
    [from, to, fromZh, toZh],
  );
}

/** The font without the given characters (and the glyphs only they use), cut by fontTools' subsetter. */
export function withoutCharactersByFontTools(bytes: Uint8Array, characters: string): Uint8Array {
  return rewrite(
    bytes,
    [
      'from fontTools import subset',
      'f = TTFont(sys.argv[1])',
      'drop = {ord(c) for c in sys.argv[3]}',
      'keep = [cp for cp in f.getBestCmap() if cp not in drop]',
      'options = subset.Options()',
      'options.name_IDs = ["*"]',
      'options.name_languages = ["*"]',
      'options.layout_features = ["*"]',
      'options.notdef_outline = True',
      'subsetter = subset.Subsetter(options)',
      'subsetter.populate(unicodes=keep)',
      'subsetter.subset(f)',
      'f.save(sys.argv[2])',
    ].join('\n'),
    [characters],
  );
}

/**
 * The font with the outlines of the given characters redrawn: scaled by `scale` about the glyph's
 * centre and moved `shift` units right, as fontTools writes them. A scale of 1 and a small shift
 * move every point without changing the design.
 */
export function redrawnByFontTools(bytes: Uint8Array, characters: string, scale: number, shift: number): Uint8Array {
  return rewrite(
    bytes,
    [
      'f = TTFont(sys.argv[1])',
      'chars, scale, shift = sys.argv[3], float(sys.argv[4]), int(sys.argv[5])',
      'glyf = f["glyf"]',
      'cmap = f.getBestCmap()',
      'names = {cmap[ord(c)] for c in chars if ord(c) in cmap} if chars else set(glyf.keys())',
      'for name in names:',
      '    glyph = glyf[name]',
      '    if glyph.isComposite() or glyph.numberOfContours <= 0: continue',
      '    glyph.recalcBounds(glyf)',
      '    cx, cy = (glyph.xMin + glyph.xMax) / 2, (glyph.yMin + glyph.yMax) / 2',
      '    glyph.coordinates.transform(((scale, 0), (0, scale)))',
      '    glyph.coordinates.translate((round(cx - cx * scale) + shift, round(cy - cy * scale)))',
      '    glyph.coordinates.toInt()',
      '    glyph.recalcBounds(glyf)',
      'f.save(sys.argv[2])',
    ].join('\n'),
    [characters, String(scale), String(shift)],
  );
}
