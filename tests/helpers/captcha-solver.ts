import CryptoJS from 'crypto-js';
import sharp from 'sharp';
import type { CaptchaTrack } from '../../src/contract/captcha.ts';

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

async function decode(base64: string): Promise<Raw> {
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The piece's opaque pixels, and whether (x, y) lies `r` pixels deep inside (or outside) them. */
function pieceMask(piece: Raw) {
  const solid = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < piece.width && y < piece.height && (piece.data[(y * piece.width + x) * 4 + 3] ?? 0) > 128;
  const deep = (x: number, y: number, r: number, inside: boolean) => {
    for (let dy = -r; dy <= r; dy += 1)
      for (let dx = -r; dx <= r; dx += 1) if (solid(x + dx, y + dy) !== inside) return false;
    return true;
  };
  return { solid, deep };
}

/**
 * The attack the puzzle is built against: a script of a few dozen lines that expects the hole to
 * be the piece darkened by half, compares the piece's inner pixels with the background at every x
 * and takes the best match.
 */
export async function findPieceByPixels(originalImageBase64: string, jigsawImageBase64: string): Promise<number> {
  const background = await decode(originalImageBase64);
  const piece = await decode(jigsawImageBase64);
  const { deep } = pieceMask(piece);
  const inner: [number, number][] = [];
  for (let y = 0; y < piece.height; y += 1) {
    for (let x = 0; x < piece.width; x += 1) if (deep(x, y, 3, true)) inner.push([x, y]);
  }
  let best = { x: -1, error: Number.POSITIVE_INFINITY };
  for (let offset = 0; offset <= background.width - piece.width; offset += 1) {
    let error = 0;
    for (const [x, y] of inner) {
      const p = (y * piece.width + x) * 4;
      const b = (y * background.width + x + offset) * 4;
      for (let channel = 0; channel < 3; channel += 1) {
        const expected = (piece.data[p + channel] ?? 0) * 0.5 + 10;
        error += Math.abs((background.data[b + channel] ?? 0) - expected);
      }
    }
    if (error < best.error) best = { x: offset, error };
  }
  return best.x;
}

/**
 * Finds the hole the way a person does, by its outline: every hole has a light rim, so at the
 * right x the piece's whole edge lies on a rim and its inside on shade, while a decoy of another
 * outline leaves part of the piece's edge in its shade (or on plain picture). Answers the x where
 * the fewest edge pixels miss a rim, the darker inside breaking ties.
 */
export async function findHoleByOutline(originalImageBase64: string, jigsawImageBase64: string): Promise<number> {
  const background = await decode(originalImageBase64);
  const piece = await decode(jigsawImageBase64);
  const { solid, deep } = pieceMask(piece);
  const width = background.width;
  const light = new Float32Array(width * background.height);
  for (let i = 0; i < light.length; i += 1) {
    const [r, g, b] = [background.data[i * 4] ?? 0, background.data[i * 4 + 1] ?? 0, background.data[i * 4 + 2] ?? 0];
    light[i] = 0.299 * r + 0.587 * g + 0.114 * b;
  }
  const edge: [number, number][] = [];
  const inside: [number, number][] = [];
  for (let y = 1; y < piece.height - 1; y += 1) {
    for (let x = 1; x < piece.width - 1; x += 1) {
      if (deep(x, y, 3, true)) inside.push([x, y]);
      const onEdge = !solid(x - 2, y) || !solid(x + 2, y) || !solid(x, y - 2) || !solid(x, y + 2);
      if (solid(x, y) && !deep(x, y, 1, true) && onEdge) edge.push([x, y]);
    }
  }
  let best = { x: -1, score: Number.NEGATIVE_INFINITY };
  for (let offset = 0; offset <= width - piece.width; offset += 1) {
    let misses = 0;
    for (const [x, y] of edge) {
      let brightest = 0;
      for (let dy = -1; dy <= 1; dy += 1) {
        for (let dx = -1; dx <= 1; dx += 1)
          brightest = Math.max(brightest, light[(y + dy) * width + x + dx + offset] ?? 0);
      }
      if (brightest < 200) misses += 1;
    }
    let shade = 0;
    for (const [x, y] of inside) shade += light[y * width + x + offset] ?? 0;
    const score = -misses / edge.length - Math.max(0, shade / inside.length - 140) / 50;
    if (score > best.score) best = { x: offset, score };
  }
  return best.x;
}

/** A small pseudo-random source, so a test's "hand" can be replayed from its seed. */
function hand(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/**
 * The moves of a hand dragging the knob `distance` pixels: a quick start, a slow approach, a
 * slight overshoot taken back, and a few pixels of vertical wobble. Answers [ms, x, y] steps.
 */
export function handMoves(distance: number, seed = 1): [number, number, number][] {
  const random = hand(seed);
  const steps = 24 + Math.floor(random() * 10);
  const moves: [number, number, number][] = [[0, 0, 0]];
  let t = 0;
  let y = 0;
  const overshoot = 2 + random() * 3;
  for (let i = 1; i <= steps; i += 1) {
    const progress = i / steps;
    // Ease-out: most of the way early, the last part slowly, past the mark and back.
    const eased = 1 - (1 - progress) ** 3;
    const x = i === steps ? distance : Math.min(distance + overshoot, eased * (distance + overshoot));
    t += 12 + Math.floor(random() * 20) + (progress > 0.8 ? 25 : 0);
    y = Math.max(-4, Math.min(4, y + (random() - 0.5) * 2));
    moves.push([t, x, Math.round(y * 10) / 10]);
  }
  return moves;
}

/** A drag track as the slider records it, for an answer at `x` (puzzle pixels). */
export function humanTrack(x: number, seed = 1): CaptchaTrack {
  return { kind: 'pointer', points: handMoves(x, seed).map(([t, dx, y]) => [t, Math.round(dx * 10) / 10, y]) };
}

/** The browser's encryption (crypto-js AES-ECB-PKCS7 under the UTF-8 key), as AJ-Captcha clients do it. */
export function browserEncrypt(plain: string, key: string): string {
  return CryptoJS.AES.encrypt(CryptoJS.enc.Utf8.parse(plain), CryptoJS.enc.Utf8.parse(key), {
    mode: CryptoJS.mode.ECB,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();
}

/** A POST of the captcha protocol, however a caller reaches the server (headers, address, app). */
export type CaptchaPost = (
  path: '/captcha/get' | '/captcha/check',
  body: Record<string, unknown>,
) => Promise<{ repCode: string; repData: Record<string, string> | null }>;

/**
 * Solves a puzzle over HTTP as a person with a browser does: finds the hole by its outline, sends a
 * hand's drag track, follows a chain (6114) and takes a new puzzle after a miss, up to `tries`
 * puzzles. Answers the verification the next action carries. `asker` goes with every `get`.
 */
export async function solvePuzzle(post: CaptchaPost, asker: Record<string, string> = {}, tries = 4): Promise<string> {
  const get = async () => (await post('/captcha/get', { captchaType: 'blockPuzzle', ...asker })).repData;
  let puzzle = await get();
  for (let attempt = 1; puzzle && attempt <= tries; attempt += 1) {
    const x = await findHoleByOutline(puzzle['originalImageBase64'] ?? '', puzzle['jigsawImageBase64'] ?? '');
    const point = JSON.stringify({ x, y: 5 });
    const key = puzzle['secretKey'] ?? '';
    const token = puzzle['token'] ?? '';
    const checked = await post('/captcha/check', {
      captchaType: 'blockPuzzle',
      token,
      pointJson: browserEncrypt(point, key),
      trackJson: browserEncrypt(JSON.stringify(humanTrack(x, attempt)), key),
    });
    if (checked.repCode === '0000') return browserEncrypt(`${token}---${point}`, key);
    puzzle = checked.repCode === '6114' ? checked.repData : await get();
  }
  throw new Error(`captcha not solved in ${tries} puzzles`);
}
