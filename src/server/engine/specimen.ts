import { createCanvas } from '@napi-rs/canvas';
import { acquireFace } from './text/font-registry.ts';

// A specimen of a submitted face, drawn on the server so reviewers see the font as the designer
// made it before anything is published: its name, a classical line, a modern line, Latin and
// figures, each at its own size. Characters the face lacks are left out rather than drawn in a
// fallback face, so the picture never shows glyphs that are not the font's.

const WIDTH = 1200;
const PADDING = 56;
const LINES = [
  { text: '永和九年，岁在癸丑，暮春之初', size: 64 },
  { text: '天地玄黄宇宙洪荒，日月盈昃辰宿列张。字体是文字的衣裳。', size: 36 },
  { text: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz', size: 30 },
  { text: '0123456789 ，。、；：？！“”《》', size: 30 },
];

/** A PNG specimen of one face. */
export function drawSpecimen(sfnt: Uint8Array, name: string): Uint8Array {
  const face = acquireFace({ bytes: sfnt });
  const { family } = face;
  try {
    const keep = (text: string) => [...text].filter((ch) => ch === ' ' || face.has(ch.codePointAt(0) ?? 0)).join('');
    const lines = [
      { text: keep(name) || name, size: 28, label: true },
      ...LINES.map((line) => ({ ...line, text: keep(line.text), label: false })),
    ].filter((line) => line.text.trim() !== '');
    const height = PADDING * 2 + lines.reduce((sum, line) => sum + line.size * 1.6, 0);
    const canvas = createCanvas(WIDTH, Math.ceil(height));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fbfaf7';
    ctx.fillRect(0, 0, WIDTH, canvas.height);
    let y = PADDING;
    for (const line of lines) {
      y += line.size * 1.25;
      ctx.fillStyle = line.label ? '#69645a' : '#1c1b19';
      // The name is set in the face itself too; a face without Latin shows the name as far as it can.
      ctx.font = `${line.size}px "${family}"`;
      ctx.fillText(line.text, PADDING, y, WIDTH - PADDING * 2);
      y += line.size * 0.35;
    }
    return new Uint8Array(canvas.toBuffer('image/png'));
  } finally {
    face.release();
  }
}
