import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Independent judges of produced fonts: fontTools (Python) reads them the way font engineers do,
// and ots-sanitize is the sanitizer Chromium and Firefox run on every web font. `.ci/run` installs
// both from Debian (packages fonttools and opentype-sanitizer).

function pythonWithFontTools(): string {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(candidate, ['-c', 'import fontTools'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error('fontTools is missing: apt-get install fonttools (or pip install fonttools)');
}

let python: string | undefined;

function withTempFont<T>(bytes: Uint8Array, run: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-oracle-'));
  const file = path.join(dir, 'font.bin');
  fs.writeFileSync(file, bytes);
  try {
    return run(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function runFontTools<T>(bytes: Uint8Array, script: string, ...args: string[]): T {
  python ??= pythonWithFontTools();
  const interpreter = python;
  return withTempFont(bytes, (file) =>
    JSON.parse(execFileSync(interpreter, ['-c', script, file, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })),
  );
}

/** The code points a font maps, read by fontTools (TTF, OTF, WOFF or WOFF2). */
export function cmapByFontTools(bytes: Uint8Array): number[] {
  return runFontTools<number[]>(
    bytes,
    'import sys, json\nfrom fontTools.ttLib import TTFont\nprint(json.dumps(sorted(TTFont(sys.argv[1]).getBestCmap())))',
  );
}

/** The outline of the glyph mapped to a character, as fontTools' recording pen sees it. */
export function outlineByFontTools(bytes: Uint8Array, char: string): unknown {
  return runFontTools(
    bytes,
    [
      'import sys, json',
      'from fontTools.ttLib import TTFont',
      'from fontTools.pens.recordingPen import RecordingPen',
      'font = TTFont(sys.argv[1])',
      'name = font.getBestCmap()[ord(sys.argv[2])]',
      'pen = RecordingPen()',
      'font.getGlyphSet()[name].draw(pen)',
      'print(json.dumps({"advance": font["hmtx"][name][0], "value": pen.value}))',
    ].join('\n'),
    char,
  );
}

/** The OpenType layout features a font keeps, per table (GSUB, GPOS). */
export function featuresByFontTools(bytes: Uint8Array): Record<string, string[]> {
  return runFontTools(
    bytes,
    [
      'import sys, json',
      'from fontTools.ttLib import TTFont',
      'font = TTFont(sys.argv[1])',
      'out = {}',
      'for tag in ("GSUB", "GPOS"):',
      '    if tag in font and font[tag].table.FeatureList:',
      '        out[tag] = sorted({r.FeatureTag for r in font[tag].table.FeatureList.FeatureRecord})',
      'print(json.dumps(out))',
    ].join('\n'),
  );
}

/** Runs ots-sanitize; answers true when browsers would accept the font. */
export function passesOts(bytes: Uint8Array): boolean {
  return withTempFont(bytes, (file) => {
    try {
      execFileSync('ots-sanitize', [file, `${file}.out`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

/** A character's metrics as fontTools reads them: advance, side bearing, bounding box, vertical advance. */
export function glyphMetricsByFontTools(
  bytes: Uint8Array,
  char: string,
): { unitsPerEm: number; advanceWidth: number; lsb: number; bbox: number[]; advanceHeight: number | null } {
  return runFontTools(
    bytes,
    [
      'import sys, json',
      'from fontTools.ttLib import TTFont',
      'from fontTools.pens.boundsPen import BoundsPen',
      'font = TTFont(sys.argv[1])',
      'name = font.getBestCmap()[ord(sys.argv[2])]',
      'glyphs = font.getGlyphSet()',
      'pen = BoundsPen(glyphs)',
      'glyphs[name].draw(pen)',
      "advance, lsb = font['hmtx'][name]",
      "height = font['vmtx'][name][0] if 'vmtx' in font else None",
      "print(json.dumps({'unitsPerEm': font['head'].unitsPerEm, 'advanceWidth': advance, 'lsb': lsb,",
      "  'bbox': list(pen.bounds), 'advanceHeight': height}))",
    ].join('\n'),
    char,
  );
}

/** The outlines (components drawn in place) and advances of the glyphs mapped to these characters, by fontTools. */
export function decomposedOutlinesByFontTools(bytes: Uint8Array, chars: string[]): unknown[] {
  return runFontTools(
    bytes,
    [
      'import sys, json',
      'from fontTools.ttLib import TTFont',
      'from fontTools.pens.recordingPen import DecomposingRecordingPen',
      'font = TTFont(sys.argv[1]); cmap = font.getBestCmap(); glyphs = font.getGlyphSet(); out = []',
      'for char in json.loads(sys.argv[2]):',
      '    name = cmap.get(ord(char))',
      '    if name is None: out.append(None); continue',
      '    pen = DecomposingRecordingPen(glyphs); glyphs[name].draw(pen)',
      '    out.append({"advance": font["hmtx"][name][0], "value": pen.value})',
      'print(json.dumps(out))',
    ].join('\n'),
    JSON.stringify(chars),
  );
}

/**
 * Shapes text with HarfBuzz's hb-shape (Debian: libharfbuzz-bin) and answers the outlines and
 * advances of the glyphs it chose, so that two fonts can be compared glyph for glyph whatever
 * their glyph ids. `direction` 'ttb' applies the vertical features (vert, vrt2).
 */
export function shapedOutlines(bytes: Uint8Array, text: string, direction: 'ltr' | 'ttb', features = ''): unknown[] {
  return runFontTools(
    bytes,
    [
      'import sys, json, subprocess',
      'from fontTools.ttLib import TTFont',
      'from fontTools.pens.recordingPen import DecomposingRecordingPen',
      'args = ["hb-shape", "--no-glyph-names", "--output-format=json", "--direction=" + sys.argv[3], sys.argv[1], sys.argv[2]]',
      'if sys.argv[4]: args.insert(1, "--features=" + sys.argv[4])',
      'shaped = json.loads(subprocess.check_output(args))',
      'font = TTFont(sys.argv[1]); order = font.getGlyphOrder(); glyphs = font.getGlyphSet(); out = []',
      'for item in shaped:',
      '    name = order[item["g"]]; pen = DecomposingRecordingPen(glyphs); glyphs[name].draw(pen)',
      '    out.append({"value": pen.value, "ax": item["ax"], "ay": item["ay"], "dx": item["dx"], "dy": item["dy"]})',
      'print(json.dumps(out))',
    ].join('\n'),
    text,
    direction,
    features,
  );
}
