import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

// Reading a PDF as its readers do, with Poppler: the text pdftotext copies out of it, the boxes of
// its lines (pdftotext -bbox-layout), and its pages drawn to pixels (pdftoppm).

/** A PDF's bytes written to a file of its own, for the Poppler tools. */
export function pdfFile(bytes: Uint8Array | ArrayBuffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-')), 'document.pdf');
  fs.writeFileSync(file, Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes));
  return file;
}

/** The text pdftotext reads out of the PDF, as a reader copies it. */
export function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

/** The fonts pdffonts lists. */
export function pdfFonts(file: string): string {
  return execFileSync('pdffonts', [file], { encoding: 'utf8' });
}

/** A box on a page in points, from the top left. */
export interface Box {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** One line of text on a page, with its box. */
export interface TextLine extends Box {
  page: number;
  text: string;
}

/** Every line of text with its box, as pdftotext -bbox-layout finds them. */
export function pdfLines(file: string): TextLine[] {
  const html = execFileSync('pdftotext', ['-enc', 'UTF-8', '-bbox-layout', file, '-'], { encoding: 'utf8' });
  const lines: TextLine[] = [];
  const pages = html.split(/<page /).slice(1);
  for (const [index, page] of pages.entries()) {
    for (const match of page.matchAll(
      /<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([\s\S]*?)<\/line>/g,
    )) {
      const words = [...(match[5] ?? '').matchAll(/<word[^>]*>([^<]*)<\/word>/g)].map((word) => word[1]);
      lines.push({
        page: index + 1,
        xMin: Number(match[1]),
        yMin: Number(match[2]),
        xMax: Number(match[3]),
        yMax: Number(match[4]),
        text: words.join(' '),
      });
    }
  }
  return lines;
}

/** A page drawn by pdftoppm in grey, one pixel per `1 / scale` point. */
export interface PagePixels {
  width: number;
  height: number;
  scale: number;
  /** 0 black … 255 white. */
  grey: Uint8Array;
}

/** Draws one page (from 1) at `scale` pixels to the point. */
export async function renderPage(file: string, page: number, scale = 2): Promise<PagePixels> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-page-'));
  const prefix = path.join(dir, 'page');
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    String(72 * scale),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    file,
    prefix,
  ]);
  const { data, info } = await sharp(`${prefix}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, scale, grey: new Uint8Array(data) };
}

/** How many pixels of the box (in points) are darker than `threshold`. */
export function darkPixelsIn(pixels: PagePixels, box: Box, threshold: number): number {
  let dark = 0;
  const { scale } = pixels;
  for (let y = Math.floor(box.yMin * scale); y < Math.ceil(box.yMax * scale) && y < pixels.height; y++) {
    for (let x = Math.floor(box.xMin * scale); x < Math.ceil(box.xMax * scale) && x < pixels.width; x++) {
      if ((pixels.grey[y * pixels.width + x] as number) < threshold) dark++;
    }
  }
  return dark;
}

/** The box (in points) of the pixels darker than `threshold` that lie outside every given box: what is drawn but is not text. */
export function inkOutside(pixels: PagePixels, boxes: readonly Box[], threshold: number): Box | undefined {
  const { scale } = pixels;
  const inside = (x: number, y: number) =>
    boxes.some((box) => x >= box.xMin - 1 && x <= box.xMax + 1 && y >= box.yMin - 1 && y <= box.yMax + 1);
  let found: Box | undefined;
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      if ((pixels.grey[y * pixels.width + x] as number) >= threshold) continue;
      const [px, py] = [x / scale, y / scale];
      if (inside(px, py)) continue;
      found = found
        ? {
            xMin: Math.min(found.xMin, px),
            yMin: Math.min(found.yMin, py),
            xMax: Math.max(found.xMax, px),
            yMax: Math.max(found.yMax, py),
          }
        : { xMin: px, yMin: py, xMax: px, yMax: py };
    }
  }
  return found;
}

/** Whether two boxes share any area. */
export function overlaps(a: Box, b: Box): boolean {
  return a.xMin < b.xMax && b.xMin < a.xMax && a.yMin < b.yMax && b.yMin < a.yMax;
}
