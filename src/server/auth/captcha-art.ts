import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { seededRandom } from '../../lib/seeded-random.ts';
import { splitRuns } from '../engine/text/runs.ts';
import type { SettingFace } from '../engine/text/typeset.ts';

/** Size of a captcha background, as AJ-Captcha clients expect it. */
export const CAPTCHA_WIDTH = 310;
/** Height of a captcha background. */
export const CAPTCHA_HEIGHT = 155;

function pick<T>(list: readonly [T, ...T[]], rand: () => number): T {
  return list[Math.floor(rand() * list.length)] ?? list[0];
}

const PAPERS: [[string, string], ...[string, string][]] = [
  ['#f3ecdb', '#e6d9bc'],
  ['#efe6cf', '#dccbaa'],
  ['#eceee6', '#d9ddd0'],
  ['#f1e8e0', '#e0d0c2'],
];
const INKS: [string, ...string[]] = ['34,34,38', '38,46,52', '52,44,38', '30,42,40'];
const WORDS: [string, ...string[]] = [
  '山水',
  '清风',
  '明月',
  '松石',
  '听雨',
  '观云',
  '墨韵',
  '书香',
  '流水',
  '远山',
  '春秋',
  '江河',
];

function paper(ctx: SKRSContext2D, rand: () => number): void {
  const [from, to] = pick(PAPERS, rand);
  const gradient = ctx.createLinearGradient(0, 0, CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
  gradient.addColorStop(0, from);
  gradient.addColorStop(1, to);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
  // Paper fibres: short faint strokes in every direction.
  for (let i = 0; i < 260; i += 1) {
    const x = rand() * CAPTCHA_WIDTH;
    const y = rand() * CAPTCHA_HEIGHT;
    const angle = rand() * Math.PI;
    const length = 3 + rand() * 12;
    ctx.strokeStyle =
      rand() < 0.5 ? `rgba(120,100,70,${0.05 + rand() * 0.08})` : `rgba(255,255,255,${0.1 + rand() * 0.2})`;
    ctx.lineWidth = 0.5 + rand();
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + Math.cos(angle) * length, y + Math.sin(angle) * length);
    ctx.stroke();
  }
}

function mountains(ctx: SKRSContext2D, rand: () => number, ink: string): void {
  const layers = 3;
  for (let layer = 0; layer < layers; layer += 1) {
    const base = 62 + layer * 26 + rand() * 10;
    const waves = [0, 1, 2].map((k) => ({
      amp: (26 - layer * 5) / (k + 1),
      freq: (0.008 + rand() * 0.01) * (k + 1) * 1.7,
      phase: rand() * Math.PI * 2,
    }));
    const ridge = (x: number) => base - waves.reduce((sum, w) => sum + w.amp * Math.sin(x * w.freq + w.phase), 0);
    const alpha = 0.28 + layer * 0.2;
    const gradient = ctx.createLinearGradient(0, base - 40, 0, CAPTCHA_HEIGHT);
    gradient.addColorStop(0, `rgba(${ink},${alpha})`);
    gradient.addColorStop(0.55, `rgba(${ink},${alpha * 0.45})`);
    gradient.addColorStop(1, `rgba(${ink},${alpha * 0.08})`);
    ctx.filter = layer === 0 ? 'blur(1.5px)' : 'none';
    ctx.fillStyle = gradient;
    ctx.beginPath();
    ctx.moveTo(0, CAPTCHA_HEIGHT);
    for (let x = 0; x <= CAPTCHA_WIDTH; x += 3) ctx.lineTo(x, ridge(x));
    ctx.lineTo(CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
    ctx.closePath();
    ctx.fill();
    // Texture strokes (cun) along the slopes, the way ink painters model rock.
    ctx.filter = 'none';
    for (let i = 0; i < 40; i += 1) {
      const x = rand() * CAPTCHA_WIDTH;
      const y = ridge(x) + 4 + rand() * 30;
      ctx.strokeStyle = `rgba(${ink},${0.08 + rand() * 0.12})`;
      ctx.lineWidth = 0.8 + rand() * 1.6;
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.quadraticCurveTo(x + 4 + rand() * 6, y + 3 + rand() * 6, x + rand() * 4, y + 8 + rand() * 10);
      ctx.stroke();
    }
  }
  ctx.filter = 'none';
}

function sun(ctx: SKRSContext2D, rand: () => number): void {
  const x = 30 + rand() * 250;
  const y = 22 + rand() * 22;
  const r = 10 + rand() * 8;
  const gradient = ctx.createRadialGradient(x, y, 0, x, y, r);
  gradient.addColorStop(0, 'rgba(196,62,44,0.75)');
  gradient.addColorStop(1, 'rgba(196,62,44,0.15)');
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.fill();
}

function brushStroke(ctx: SKRSContext2D, rand: () => number, ink: string): void {
  // A tapered stroke: many passes of a curve with falling width and rising opacity.
  const x0 = rand() * CAPTCHA_WIDTH;
  const y0 = 20 + rand() * 60;
  const x1 = x0 + (rand() - 0.5) * 160;
  const y1 = y0 + 20 + rand() * 70;
  const cx = (x0 + x1) / 2 + (rand() - 0.5) * 90;
  const cy = (y0 + y1) / 2 + (rand() - 0.5) * 60;
  ctx.lineCap = 'round';
  for (let pass = 0; pass < 6; pass += 1) {
    ctx.strokeStyle = `rgba(${ink},${0.1 + pass * 0.06})`;
    ctx.lineWidth = 14 - pass * 2.2;
    ctx.beginPath();
    ctx.moveTo(x0 + pass, y0);
    ctx.quadraticCurveTo(cx, cy, x1 - pass, y1);
    ctx.stroke();
  }
}

function calligraphy(ctx: SKRSContext2D, rand: () => number, ink: string, faces: readonly SettingFace[]): void {
  const word = pick(WORDS, rand);
  const size = 40 + Math.floor(rand() * 14);
  const x = rand() < 0.5 ? 14 + rand() * 40 : CAPTCHA_WIDTH - size - 14 - rand() * 40;
  ctx.textBaseline = 'top';
  ctx.fillStyle = `rgba(${ink},0.78)`;
  // Each character in the first face that has it; one that none has is left out, never boxed.
  const characters = splitRuns(word, faces).runs.flatMap((run) =>
    [...run.text].map((char) => ({ char, family: faces[run.face]?.family ?? '' })),
  );
  characters.forEach(({ char, family }, i) => {
    ctx.font = `${size}px "${family}"`;
    ctx.fillText(char, x, 10 + i * (size + 4));
  });
  // A seal under the inscription.
  const sealX = x + size * 0.2;
  const sealY = 14 + word.length * (size + 4);
  if (sealY + 18 < CAPTCHA_HEIGHT) {
    ctx.fillStyle = 'rgba(182,48,38,0.85)';
    ctx.fillRect(sealX, sealY, 16, 16);
    ctx.strokeStyle = 'rgba(255,240,230,0.9)';
    ctx.lineWidth = 1.5;
    ctx.strokeRect(sealX + 3, sealY + 3, 10, 10);
  }
}

function grain(ctx: SKRSContext2D, rand: () => number): void {
  // Fine noise: gives every spot a texture of its own, which makes the cut-out easy to match by eye.
  const image = ctx.getImageData(0, 0, CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
  const data = image.data;
  for (let i = 0; i < data.length; i += 4) {
    const n = (rand() - 0.5) * 14;
    data[i] = Math.max(0, Math.min(255, (data[i] ?? 0) + n));
    data[i + 1] = Math.max(0, Math.min(255, (data[i + 1] ?? 0) + n));
    data[i + 2] = Math.max(0, Math.min(255, (data[i + 2] ?? 0) + n));
  }
  ctx.putImageData(image, 0, 0);
}

/**
 * Draws one background of the set: rice paper, an ink-wash landscape, a red sun and either two
 * characters in a library brush font (when one is registered) or free brush strokes.
 */
export function drawBackground(seed: number, faces: readonly SettingFace[]): Canvas {
  const canvas = createCanvas(CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
  const ctx = canvas.getContext('2d');
  const rand = seededRandom(seed);
  const ink = pick(INKS, rand);
  paper(ctx, rand);
  if (rand() < 0.7) sun(ctx, rand);
  mountains(ctx, rand, ink);
  if (faces.length > 0) calligraphy(ctx, rand, ink, faces);
  else for (let i = 0; i < 2; i += 1) brushStroke(ctx, rand, ink);
  grain(ctx, rand);
  return canvas;
}
