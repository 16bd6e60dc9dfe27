import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { type Coverage, splitRuns } from '../engine/text/runs.ts';
import type { DocumentFaces } from '../webfont/subset.ts';

// Setting text in a PDF in several faces: each character in the face documentFaces chose for it
// (runs of one face drawn one after the other), lines broken between characters of Chinese and
// between words of Latin, closing marks kept off the start of a line.
//
// Every glyph drawn must be the glyph the face's cmap gives its character: pdf-lib writes the PDF's
// ToUnicode map from the cmap, so a glyph a layout feature substituted (an ff or fi ligature, a
// localised form) would have no text behind it, and copying or searching would lose the letters.
// The faces are therefore embedded with every substitution and positioning feature off.

const NO_FEATURES = Object.fromEntries(
  [
    'rvrn',
    'ltra',
    'ltrm',
    'frac',
    'numr',
    'dnom',
    'ccmp',
    'locl',
    'rlig',
    'mark',
    'mkmk',
    'calt',
    'clig',
    'liga',
    'dlig',
    'hlig',
    'rclt',
    'curs',
    'kern',
  ].map((tag) => [tag, false]),
);

// Marks that may not start a line in Chinese typesetting (避头点); they stay at the end of the line before.
const NO_LINE_START = new Set('，。、；：？！）》」』”’,.;:?!)]】〉…');
// A Latin word (letters, digits and what joins them in addresses and e-mail) is not broken; other characters may be.
const UNITS = /[\p{Script=Latin}\p{Nd}@._%+\-/#&'’]+|./gsu;

/** The faces of a document, embedded, and which sets each character. */
export class Typesetter {
  private readonly fonts: PDFFont[];
  /** Each face maps exactly the characters documentFaces gave it. */
  private readonly coverage: Coverage[];

  private constructor(fonts: PDFFont[], faceOf: ReadonlyMap<number, number>) {
    this.fonts = fonts;
    this.coverage = fonts.map((_, index) => ({ has: (codePoint) => faceOf.get(codePoint) === index }));
  }

  /** Embeds the faces whole (they are subsets already) into `doc`. */
  static async embed(doc: PDFDocument, faces: DocumentFaces): Promise<Typesetter> {
    const fonts = [];
    for (const face of faces.faces) fonts.push(await doc.embedFont(face.ttf, { subset: false, features: NO_FEATURES }));
    return new Typesetter(fonts, faces.faceOf);
  }

  /** The text in runs of one face each (what no face has was refused before the PDF was begun). */
  private runs(text: string): Array<{ font: PDFFont; text: string }> {
    return splitRuns(text, this.coverage).runs.map((run) => ({
      font: this.fonts[run.face] as PDFFont,
      text: run.text,
    }));
  }

  /** The width of `text` at `size`, in points. */
  width(text: string, size: number): number {
    return this.runs(text).reduce((sum, run) => sum + run.font.widthOfTextAtSize(run.text, size), 0);
  }

  /** Draws `text` with its baseline starting at (x, y). */
  draw(page: PDFPage, text: string, x: number, y: number, size: number, color: Color): void {
    let at = x;
    for (const run of this.runs(text)) {
      page.drawText(run.text, { x: at, y, size, font: run.font, color });
      at += run.font.widthOfTextAtSize(run.text, size);
    }
  }

  /** Breaks text into lines: the first `firstWidth` wide, the others `width` wide. */
  wrap(text: string, size: number, width: number, firstWidth = width): string[] {
    const lines: string[] = [];
    let line = '';
    const room = () => (lines.length === 0 ? firstWidth : width);
    const push = () => {
      lines.push(line.trimEnd());
      line = '';
    };
    for (const unit of text.match(UNITS) ?? []) {
      if (line && this.width(line + unit, size) > room() && !NO_LINE_START.has(unit[0] ?? '')) {
        push();
        if (unit.trim() === '') continue;
      }
      if (!line && this.width(unit, size) > room()) {
        // A word longer than a line (a long address) is broken where it must be.
        for (const char of unit) {
          if (line && this.width(line + char, size) > room()) push();
          line += char;
        }
        continue;
      }
      line += unit;
    }
    if (line.trim()) push();
    return lines;
  }
}
