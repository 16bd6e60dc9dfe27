// What the soak's tool users and accounts do, each call checked against the source: a pixel preview
// against the same rasterizer run here on the face's file, a word cloud's PNG against its SVG of
// outlines (drawn by another renderer), a fixed picture against the face it was drawn in, a preview
// subset's cmap against the face's, a conversion by OTS. Each throws a WrongOutput on a wrong answer.
import http from 'node:http';
import sharp from 'sharp';
import type { Envelope } from '../../../src/contract/envelope.ts';
import type { FoundGlyphs, IdentifyResult, UploadedPicture } from '../../../src/contract/identify.ts';
import type { PixelPreview } from '../../../src/contract/tools.ts';
import { GlyphRasterizer } from '../../../src/server/engine/pixel/rasterize.ts';
import { acquireFace } from '../../../src/server/engine/text/font-registry.ts';
import { solvePuzzle } from '../../helpers/captcha-solver.ts';
import { readCmapCodePoints } from '../../helpers/cmap.ts';
import { passesOts } from '../../helpers/font-oracle.ts';
import { drawTextPicture, registerTestFont } from '../../helpers/identify.ts';
import { inkMask, iou, widen } from '../../helpers/picture-ink.ts';
import { pick, type SoakFace, sampleText } from './library.ts';

/** An answer that is wrong (not slow, not refused): the soak fails on any. */
export class WrongOutput extends Error {
  override name = 'WrongOutput';
}

/** Pixel glyphs must agree with the same rasterizer run here at least this much (intersection over union). */
export const MIN_IOU = 0.85;
/**
 * A cloud's PNG (Skia) and its SVG of outlines (fontkit's paths, drawn by librsvg) must agree at least
 * this much, every pixel darker than near-white counting as ink, each mask widened by a pixel: the
 * two renderers antialias hairlines a pixel apart, and the thinnest faces (M PLUS 1p and Rounded 1c
 * Thin) agreed at only 0.56–0.73 unwidened, 0.79–0.93 widened. The same cloud moved by 6 px agrees
 * at 0.47–0.66 widened, and words laid out in a fallback's boxes agreed at 0.16.
 */
export const MIN_CLOUD_IOU = 0.75;
const CLOUD_INK_BELOW = 240;
const CLOUD_MASK = 300;

/** Calls the site from one loopback address (the tools' limits and the captcha's count per address). */
export function caller(base: string, localAddress: string, token?: string) {
  const agent = new http.Agent({ keepAlive: true, localAddress } as http.AgentOptions);
  const request = (
    pathname: string,
    init: { method?: string; body?: Buffer | string; type?: string } = {},
  ): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {};
      if (init.type) headers['content-type'] = init.type;
      if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
      if (token) Object.assign(headers, { cookie: `token=${token}`, origin: base });
      const req = http.request(`${base}${pathname}`, { method: init.method ?? 'GET', agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      req.on('error', reject);
      req.end(init.body);
    });
  const json = async <T>(pathname: string, body?: unknown): Promise<Envelope<T> & { status: number }> => {
    const answer = await request(
      pathname,
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), type: 'application/json' },
    );
    return { status: answer.status, ...(JSON.parse(answer.body.toString()) as Envelope<T>) };
  };
  const ok = async <T>(pathname: string, body?: unknown): Promise<T> => {
    const answer = await json<T>(pathname, body);
    if (answer.status !== 200 || answer.code !== '200') {
      throw new Error(`${pathname}: ${answer.status} ${answer.message}`);
    }
    return answer.data;
  };
  return { request, json, ok };
}
export type Caller = ReturnType<typeof caller>;

/** The pixel maker's default share of a cell that makes it ink. */
const PIXEL_THRESHOLD = 0.45;

/** A pixel preview of `text` in `face` at `grid`, each glyph against the rasterizer run here on the face's file. */
export async function pixelPreview(site: Caller, face: SoakFace, grid: number, text: string): Promise<void> {
  const answer = await site.ok<PixelPreview>('/tools/api/pixel/preview', {
    source: { fontId: face.id },
    options: { grid, threshold: PIXEL_THRESHOLD },
    text,
  });
  const raster = new GlyphRasterizer(acquireFace({ path: face.file }), grid);
  try {
    if (answer.glyphs.length !== [...text].length) {
      throw new WrongOutput(`pixel ${face.gno} grid ${grid}: ${answer.glyphs.length} glyphs for 「${text}」`);
    }
    for (const glyph of answer.glyphs) {
      const expected = Array.from(raster.draw(glyph.codePoint, PIXEL_THRESHOLD)?.bitmap.bits ?? [], String);
      const agreement = iou(glyph.bits, expected.join(''));
      if (agreement < MIN_IOU) {
        throw new WrongOutput(
          `pixel ${face.gno} grid ${grid} 「${String.fromCodePoint(glyph.codePoint)}」: IoU ${agreement.toFixed(3)} against the face`,
        );
      }
    }
  } finally {
    raster.close();
  }
}

/** A word cloud of words `face` maps, in `shape`, as PNG and as SVG outlines: both must draw the same words. */
export async function wordCloud(site: Caller, face: SoakFace, shape: unknown, seed: number, random: () => number) {
  const words = Array.from({ length: 14 }, (_, i) => ({
    text: sampleText(1 + Math.floor(random() * 3), random, face),
    weight: 1 - i * 0.06,
  }));
  const body = {
    words,
    font: { fontId: face.id },
    shape,
    colors: 'ink',
    background: '#ffffff',
    width: 600,
    height: 600,
    seed,
  };
  const [png, svg] = await Promise.all(
    (['png', 'svg-outlines'] as const).map(async (format) => {
      const answer = await site.request('/tools/api/word-cloud', {
        method: 'POST',
        body: JSON.stringify({ ...body, format }),
        type: 'application/json',
      });
      if (answer.status !== 200) throw new Error(`word cloud ${format}: ${answer.status} ${answer.body}`);
      return answer.body;
    }),
  );
  const masks = await Promise.all(
    [png, svg].map(async (picture) => widen(await inkMask(picture as Buffer, CLOUD_MASK, CLOUD_INK_BELOW), CLOUD_MASK)),
  );
  const agreement = iou(masks[0] as Uint8Array, masks[1] as Uint8Array);
  if (agreement < MIN_CLOUD_IOU) {
    throw new WrongOutput(`word cloud ${face.gno} ${JSON.stringify(shape)}: PNG vs SVG IoU ${agreement.toFixed(3)}`);
  }
}

/** A live preview through /webfont/http: the subset maps exactly the asked-for characters the face has. */
export async function livePreview(site: Caller, face: SoakFace, text: string): Promise<void> {
  const [item] = await site.ok<Array<{ woffPath: string; ttfPath: string; missing: string }>>('/webfont/http', [
    { gno: face.gno, text },
  ]);
  if (!item) throw new WrongOutput(`preview ${face.gno}: no item`);
  const [woff2, ttf] = await Promise.all([site.request(item.woffPath), site.request(item.ttfPath)]);
  if (woff2.status !== 200 || ttf.status !== 200)
    throw new Error(`preview ${face.gno}: files ${woff2.status}/${ttf.status}`);
  const has = face.cmap();
  const asked = [...new Set([...text].map((character) => character.codePointAt(0) as number))];
  const expected = asked.filter((codePoint) => has.has(codePoint)).sort((a, b) => a - b);
  const got = [...readCmapCodePoints(new Uint8Array(ttf.body))].sort((a, b) => a - b);
  if (got.join() !== expected.join()) {
    throw new WrongOutput(
      `preview ${face.gno} 「${text}」: subset maps ${got.length}, the face has ${expected.length}`,
    );
  }
  const missing = asked.filter((codePoint) => !has.has(codePoint)).map((codePoint) => String.fromCodePoint(codePoint));
  if ([...item.missing].sort().join('') !== missing.sort().join('')) {
    throw new WrongOutput(
      `preview ${face.gno} 「${text}」: says 「${item.missing}」 missing, the face lacks 「${missing.join('')}」`,
    );
  }
}

/** A picture of fixed text drawn here in one face, and the family identification must name for it. */
export interface FixedPicture {
  png: Buffer;
  text: string;
  family: string;
}

/**
 * Draws the fixed picture in the face at 56 px, as drawers-together.test.ts draws it. The text is
 * simplified Chinese that Traditional and Japanese faces lack (岁), so a Simplified face is the one
 * right answer, not one of the CJK faces drawn from the same outlines.
 */
export async function fixedPicture(face: SoakFace, text = '岁在癸丑'): Promise<FixedPicture> {
  const family = registerTestFont(face.file);
  const { gray } = drawTextPicture({ lines: [text], family, size: 56 });
  const png = await sharp(gray.data, { raw: { width: gray.width, height: gray.height, channels: 1 } })
    .png()
    .toBuffer();
  return { png, text, family: face.family };
}

/** Identification of the fixed picture: upload, find the glyphs, match; the first candidate must be its family. */
export async function identify(site: Caller, picture: FixedPicture): Promise<void> {
  const boundary = `soak${Date.now()}`;
  const form = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="text.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    picture.png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await site.request('/tools/api/identify/picture', {
    method: 'POST',
    body: form,
    type: `multipart/form-data; boundary=${boundary}`,
  });
  const { pictureId } = (JSON.parse(uploaded.body.toString()) as Envelope<UploadedPicture>).data;
  const found = await site.ok<FoundGlyphs>('/tools/api/identify/glyphs', { pictureId });
  const boxes = found.lines.flatMap((line) => line.glyphs);
  const characters = [...picture.text];
  if (boxes.length !== characters.length) {
    throw new WrongOutput(`identify: ${boxes.length} glyphs found in a picture of ${characters.length}`);
  }
  const result = await site.ok<IdentifyResult>('/tools/api/identify/match', {
    pictureId,
    glyphs: boxes.map((glyph, i) => ({ box: glyph.box, character: characters[i] })),
  });
  const first = result.candidates[0]?.family.gno;
  if (first !== picture.family) throw new WrongOutput(`identify: ${first} first for a picture of ${picture.family}`);
}

/** A conversion of a library face to WOFF and WOFF2: the job ends done and every file passes OTS. */
export async function conversion(site: Caller, face: SoakFace): Promise<void> {
  const { jobId } = await site.ok<{ jobId: string }>('/tools/api/convert', {
    source: { fontId: face.id },
    formats: ['woff', 'woff2'],
  });
  for (;;) {
    const job = await site.ok<{
      state: string;
      error?: string;
      result?: { files: Array<{ url: string; format: string }> };
    }>(`/tools/api/jobs/${jobId}`);
    if (job.state === 'failed') throw new WrongOutput(`conversion of ${face.gno} failed: ${job.error}`);
    if (job.state === 'done') {
      for (const file of job.result?.files ?? []) {
        const answer = await site.request(file.url);
        if (answer.status !== 200 || !passesOts(new Uint8Array(answer.body))) {
          throw new WrongOutput(`conversion of ${face.gno} to ${file.format}: not accepted by OTS`);
        }
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** An account's round: log in through the puzzle, star and unstar a family, read the messages, leave a note. */
export async function accountRound(
  base: string,
  localAddress: string,
  account: { account: string; password: string },
  families: readonly string[],
  random: () => number,
  leaveNote: boolean,
): Promise<void> {
  const visitor = caller(base, localAddress);
  const captchaVerification = await solvePuzzle(async (pathname, body) => {
    const answer = await visitor.request(pathname, {
      method: 'POST',
      body: JSON.stringify(body),
      type: 'application/json',
    });
    return JSON.parse(answer.body.toString());
  });
  const { token } = await visitor.ok<{ token: string }>('/web/api/login', { ...account, captchaVerification });
  const user = caller(base, localAddress, token);
  const family = pick(families, random);
  await user.ok('/web/api/collection/addFont', { fontGNo: family });
  const groups = await user.ok<Array<{ fontList: Array<{ fontGNo: string }> }>>('/web/api/collection/allFont');
  if (!groups.some((group) => group.fontList.some((entry) => entry.fontGNo === family)))
    throw new WrongOutput(`favourites: ${family} not listed after starring`);
  await user.ok('/web/api/collection/deleteFont', { fontGNo: family });
  await user.ok('/api/v1/web/notifyList?current=1&size=10');
  await user.ok('/api/v1/web/notify');
  if (leaveNote) {
    const content = `字体很好用，想了解${family}的授权（${Date.now()}）`;
    await user.ok('/web/api/messageBoard/save', { name: '压测读者', contact: account.account, content });
    const mine = await user.ok<{ records: Array<{ content: string }> }>('/web/api/messageBoard/mine?current=1&size=10');
    if (!mine.records.some((record) => record.content === content))
      throw new WrongOutput('message board: note not listed');
  }
}
