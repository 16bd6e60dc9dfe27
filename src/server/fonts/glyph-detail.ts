import type { GlyphDetail } from '../../contract/fonts.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { glyphOutline } from '../engine/glyph-outline.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { mappedCodePoints, PREVIEW_QUALITY } from '../webfont/previews.ts';
import { subsetPool } from '../webfont/subset-pool.ts';
import { resolveFaces } from './resolve.ts';

// One character of a face for the glyph browser's zoom and lookup (「有没有这个字？」) and the
// compare page's overlay. The glyph is read from a one-character subset of the face, which the
// subset workers make in a few milliseconds, rather than by parsing a 10 MB font here.

const remembered = new Map<string, GlyphDetail>();
const MAX_REMEMBERED = 2000;

/** 'U+6C38' for a code point. */
const unicodeOf = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

/** The one character of `text`, or a 400 naming the field. */
export function singleCharacter(text: string): number {
  const chars = [...text];
  const codePoint = chars[0]?.codePointAt(0);
  if (chars.length !== 1 || codePoint === undefined) throw badRequest('请只输入一个字');
  if (codePoint < 0x21 || (codePoint >= 0x7f && codePoint < 0xa0) || /\s/u.test(text)) {
    throw badRequest('请输入一个可见的字，空格和控制字符没有字形');
  }
  return codePoint;
}

/** Whether the face `gno` names has the character, and if so its outline and metrics; 404 for an unknown gno. */
export async function glyphDetail(gno: string, char: string, database?: Db): Promise<GlyphDetail> {
  const codePoint = singleCharacter(char);
  const db = database ?? (await configuredDb());
  const resolved = (await resolveFaces(db, [gno])).get(gno);
  if (!resolved) throw notFound('字体不存在或已下架');
  const key = `${resolved.face.sha256}:${codePoint}`;
  const known = remembered.get(key);
  if (known) return { ...known, fontGNo: resolved.face.gno };
  const base = {
    char: String.fromCodePoint(codePoint),
    codePoint,
    unicode: unicodeOf(codePoint),
    fontGNo: resolved.face.gno,
  };
  // A one-character subset is a preview's size: it goes to the preview workers, which hold the page's face.
  const { ttf } = await subsetPool().run(
    { fontId: resolved.face.sha256, key: resolved.face.fileKey, codePoints: [codePoint], quality: PREVIEW_QUALITY },
    'preview',
  );
  const outline = mappedCodePoints(ttf).has(codePoint) ? glyphOutline(ttf, codePoint) : undefined;
  let detail: GlyphDetail = { ...base, has: false };
  if (outline) {
    const { advanceHeight, ...rest } = outline;
    detail = { ...base, has: true, ...rest, ...(advanceHeight === undefined ? {} : { advanceHeight }) };
  }
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
  remembered.set(key, detail);
  return detail;
}
