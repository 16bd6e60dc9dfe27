import { and, eq, ilike, or } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import { unicodeRange } from '../engine/slices.ts';
import { env } from '../env.ts';
import { pickDefaultFace } from '../fonts/faces.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { type SliceFont, sliceBytes, slicePlan } from './slices.ts';

// The hosted web-font stylesheet, CSS-API style: GET /webfont/css?family=<gno or name>&weight=400,700
// answers one @font-face per unicode-range slice of each weight, so any page can use a library
// font with one <link>, and browsers fetch only the slices whose characters the page shows.

/** A family as the stylesheet names it. */
export interface WebfontFamily {
  gno: string;
  nameZh: string;
}

const CSS_CACHE_MS = 10 * 60_000;
const cssCache = new Map<string, { css: string; at: number }>();

const cssString = (value: string) => `'${value.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;

/** Parses the weight parameter ('400', '400,700', '400;700'); empty means the family's regular face. */
export function parseWeights(value: string | undefined): number[] {
  if (!value?.trim()) return [];
  const weights = value.split(/[,;]/).map((part) => Number(part.trim()));
  if (weights.some((weight) => !Number.isInteger(weight) || weight < 1 || weight > 1000)) {
    throw badRequest('字重（weight）应为 100–900 的整数，多个用逗号分隔，例如 400,700');
  }
  if (weights.length > 9) throw badRequest('一次最多请求 9 个字重');
  return [...new Set(weights)];
}

async function findFamily(family: string) {
  const name = family.trim();
  if (!name || name.length > 100) throw badRequest('请用 family 参数指定字体，例如 family=noto-sans-sc');
  const database = await db();
  const [row] = await database
    .select({ id: fontFamilies.id, gno: fontFamilies.gno, nameZh: fontFamilies.nameZh })
    .from(fontFamilies)
    .where(
      and(
        eq(fontFamilies.published, true),
        or(
          eq(fontFamilies.gno, name),
          ilike(fontFamilies.nameEn, name.replace(/[%_\\]/g, '\\$&')),
          eq(fontFamilies.nameZh, name),
        ),
      ),
    )
    .limit(1);
  if (!row) throw notFound(`字体库中没有名为“${name}”的字体`);
  const faces = await database
    .select({ id: fonts.id, fileKey: fonts.fileKey, sha256: fonts.sha256, weight: fonts.weight, italic: fonts.italic })
    .from(fonts)
    .where(eq(fonts.familyId, row.id));
  return { family: row, faces };
}

/** The stylesheet of a family at the given weights (every slice of every weight). */
export async function webfontCss(family: string, weightParam?: string): Promise<string> {
  const weights = parseWeights(weightParam);
  const cacheKey = `${family}|${weights.join(',')}`;
  const cached = cssCache.get(cacheKey);
  if (cached && Date.now() - cached.at < CSS_CACHE_MS) return cached.css;

  const { family: found, faces } = await findFamily(family);
  const upright = faces.filter((face) => !face.italic);
  const chosen =
    weights.length === 0
      ? [pickDefaultFace(faces)].filter((face) => face !== undefined)
      : weights.map((weight) => {
          const face = upright.find((candidate) => candidate.weight === weight);
          if (!face) {
            const offered = [...new Set(upright.map((candidate) => candidate.weight))].sort((a, b) => a - b);
            throw notFound(`“${found.nameZh}”没有 ${weight} 字重，可选：${offered.join('、')}`);
          }
          return face;
        });
  if (chosen.length === 0) throw notFound(`“${found.nameZh}”暂时没有可用的字体文件`);

  const blocks: string[] = [`/* ${found.nameZh}：${env().SITE_TITLE}网页字体服务 */`];
  for (const face of chosen) {
    const plan = await slicePlan(face);
    plan.slices.forEach((slice, n) => {
      blocks.push(
        [
          `/* [${n}] */`,
          '@font-face {',
          `  font-family: ${cssString(found.nameZh)};`,
          `  font-style: ${face.italic ? 'italic' : 'normal'};`,
          `  font-weight: ${face.weight};`,
          '  font-display: swap;',
          `  src: url(/webfont/slice/${face.id}/${plan.version}/${n}.woff2) format('woff2');`,
          `  unicode-range: ${unicodeRange(slice)};`,
          '}',
        ].join('\n'),
      );
    });
  }
  const css = `${blocks.join('\n')}\n`;
  cssCache.set(cacheKey, { css, at: Date.now() });
  return css;
}

/** The bytes of one slice (GET /webfont/slice/<fontId>/<version>/<n>.woff2). */
export async function webfontSlice(fontId: number, version: string, n: number): Promise<Uint8Array> {
  const database = await db();
  const [font] = await database
    .select({ id: fonts.id, fileKey: fonts.fileKey, sha256: fonts.sha256 })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fonts.id, fontId), eq(fontFamilies.published, true)))
    .limit(1);
  if (!font) throw notFound('字体切片不存在');
  return sliceBytes(font satisfies SliceFont, version, n);
}

/** What a page shows to use a family from the service: the stylesheet link and the CSS rule. */
export interface WebfontSnippet {
  href: string;
  link: string;
  css: string;
}

/**
 * The snippet to copy for a family (the font detail page shows it): a <link> to the stylesheet
 * with the site's public address, and the font-family declaration that uses it.
 */
export function webfontSnippet(family: WebfontFamily, weights: readonly number[] = [400]): WebfontSnippet {
  const query = new URLSearchParams({ family: family.gno });
  if (weights.length > 0) query.set('weight', weights.join(','));
  const href = `${env().SITE_URL.replace(/\/+$/, '')}/webfont/css?${query.toString().replace(/%2C/g, ',')}`;
  return {
    href,
    link: `<link rel="stylesheet" href="${href.replace(/&/g, '&amp;')}">`,
    css: `font-family: ${cssString(family.nameZh)};`,
  };
}

/** Forgets cached stylesheets (tests, and after the library changes). */
export function forgetWebfontCss(): void {
  cssCache.clear();
}
