import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DownloadFormat, DownloadLink } from '../../contract/fonts.ts';
import { purgeEverywhere } from '../content/changes.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { downloadHistory, fontFamilies, fonts } from '../db/schema/index.ts';
import { DOWNLOADS_TAG } from '../http/answer-cache.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { type GetOptions, type StorageObject, storage } from '../storage/index.ts';
import type { FamilyRow, FontRow } from './catalogue.ts';
import { findPublishedFamily } from './detail.ts';
import { type Clock, signedDownloadPath, verifyDownload } from './download-links.ts';
import { openZip, storedCrc32, type ZipEntry, type ZipLayout, zipLayout } from './stored-zip.ts';
import { woff2Key, woff2Ready } from './woff2-downloads.ts';

export type { DownloadLink };

// Who may download: every family in the library is open-licensed (SIL OFL 1.1), which allows anyone
// to use and redistribute the fonts, so visitors download without logging in. A logged-in user's
// downloads are additionally listed in their history (/user/download). A family with a restrictive
// licence would be the place to ask for a session here, in `downloadTarget`.

/** What a download link delivers: one child font's TTF, or a family's zip. */
export type DownloadTarget =
  | { kind: 'font'; family: FamilyRow; font: FontRow }
  | { kind: 'family'; family: FamilyRow; fonts: FontRow[] };

/**
 * An opened download: one stored font, or a family's store-only zip laid out ahead (stored-zip.ts),
 * either read whole or in the part a Range asks for.
 */
export interface DownloadStream {
  fileName: string;
  /** An ASCII name for clients that do not read RFC 5987 names. */
  asciiName: string;
  contentType: string;
  kind: 'file';
  open: (options: GetOptions) => Promise<StorageObject | undefined>;
}

/** The published child font or family a gno names, or 404. */
export async function downloadTarget(db: Db, gno: string): Promise<DownloadTarget> {
  const [child] = await db
    .select({ font: fonts, family: fontFamilies })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fonts.gno, gno), eq(fontFamilies.published, true)));
  if (child) return { kind: 'font', family: child.family, font: child.font };
  const family = await findPublishedFamily(db, gno);
  if (!family || family.gno !== gno) throw notFound('字体不存在或已下架');
  const children = await db
    .select()
    .from(fonts)
    .where(eq(fonts.familyId, family.id))
    .orderBy(asc(fonts.weight), asc(fonts.italic));
  if (children.length === 0) throw notFound('这款字体暂时没有可下载的文件');
  return { kind: 'family', family, fonts: children };
}

/** What a signed link names: the gno, with '.woff2' for a weight's WOFF2. */
const WOFF2_SUFFIX = '.woff2';

function fileNameOf(target: DownloadTarget, format: DownloadFormat = 'ttf'): { fileName: string; asciiName: string } {
  if (target.kind === 'font') {
    const extension = format === 'woff2' ? 'woff2' : 'ttf';
    return {
      fileName: `${target.family.nameZh}-${target.font.styleName}.${extension}`,
      asciiName: `${target.font.gno}.${extension}`,
    };
  }
  return { fileName: `${target.family.nameZh}.zip`, asciiName: `${target.family.gno}.zip` };
}

/**
 * Hands out a signed, expiring link to a child font (as shipped, or as WOFF2) or a whole family's zip
 * (GET /font/get-download-url). A WOFF2 not made yet is started and answered as `preparing`.
 */
export async function createDownloadLink(
  gno: string,
  options: { now?: Clock; db?: Db; format?: 'ttf' | 'woff2' | undefined } = {},
): Promise<DownloadLink> {
  const db = options.db ?? (await configuredDb());
  const target = await downloadTarget(db, gno);
  const now = (options.now ?? Date.now)();
  if (target.kind === 'family') {
    if (options.format === 'woff2') throw badRequest('WOFF2 按字重下载：请选择一个字重');
    const link = signedDownloadPath(gno, now);
    return {
      format: 'zip',
      preparing: false,
      url: link.path,
      expiresAt: new Date(link.expires).toISOString(),
      fileName: fileNameOf(target).fileName,
      size: (await familyZip(target)).size,
    };
  }
  if (options.format === 'woff2') {
    const size = await woff2Ready(target.font);
    const fileName = fileNameOf(target, 'woff2').fileName;
    if (size === undefined) return { format: 'woff2', preparing: true, url: '', expiresAt: '', fileName, size: 0 };
    const link = signedDownloadPath(`${gno}${WOFF2_SUFFIX}`, now);
    return {
      format: 'woff2',
      preparing: false,
      url: link.path,
      expiresAt: new Date(link.expires).toISOString(),
      fileName,
      size,
    };
  }
  const link = signedDownloadPath(gno, now);
  return {
    format: 'ttf',
    preparing: false,
    url: link.path,
    expiresAt: new Date(link.expires).toISOString(),
    fileName: fileNameOf(target).fileName,
    size: target.font.fileSize,
  };
}

function readme(family: FamilyRow, children: FontRow[], licenseName: string): string {
  const lines = [
    `${family.nameZh}（${family.nameEn}）`,
    '',
    family.description,
    '',
    `授权：${family.license}，许可证全文见 ${licenseName}。`,
    family.foundry ? `出品：${family.foundry}` : '',
    family.designer ? `设计：${family.designer}` : '',
    '',
    '本压缩包包含以下字体文件：',
    ...children.map((font) => `  ${path.posix.basename(font.fileKey)}  ${font.styleName}（字重 ${font.weight}）`),
    '',
    '安装方法：Windows 右键字体文件选择「安装」；macOS 双击字体文件后点击「安装字体」；',
    'Linux 把字体文件复制到 ~/.local/share/fonts 后运行 fc-cache -f。',
    '',
    '下载自造字联盟字体库。',
  ];
  // A BOM lets older Windows editors recognise the UTF-8 Chinese text.
  return `\uFEFF${lines.filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\r\n')}\r\n`;
}

/**
 * Checks the link and opens what it delivers: a TTF straight from storage, or a zip of the family's
 * every weight plus its licence and a README, stored as they are so that its size is known; either
 * whole or the range a resumed download asks for.
 */
export async function openDownload(
  gno: string,
  link: { expires?: string | undefined; signature?: string | undefined },
  options: { now?: Clock; db?: Db } = {},
): Promise<{ target: DownloadTarget; stream: DownloadStream }> {
  verifyDownload(gno, link.expires, link.signature, (options.now ?? Date.now)());
  const db = options.db ?? (await configuredDb());
  const woff2 = gno.endsWith(WOFF2_SUFFIX);
  const target = await downloadTarget(db, woff2 ? gno.slice(0, -WOFF2_SUFFIX.length) : gno);
  const names = fileNameOf(target, woff2 ? 'woff2' : 'ttf');
  const store = storage();
  if (target.kind === 'font') {
    const key = woff2 ? woff2Key(target.font.sha256) : target.font.fileKey;
    const contentType = woff2 ? 'font/woff2' : 'font/ttf';
    return { target, stream: { ...names, kind: 'file', open: (get) => store.get(key, get), contentType } };
  }
  const layout = await familyZip(target);
  return {
    target,
    stream: {
      ...names,
      kind: 'file',
      open: async (get) => openZip(layout, store, get),
      contentType: 'application/zip',
    },
  };
}

/** The layout of a family's zip: every weight as stored, its licence and a README. */
async function familyZip(target: Extract<DownloadTarget, { kind: 'family' }>): Promise<ZipLayout> {
  const store = storage();
  const folder = target.family.gno;
  const licenseName = target.family.license.startsWith('OFL') ? 'OFL.txt' : 'LICENSE.txt';
  const entries: ZipEntry[] = [];
  for (const font of target.fonts) {
    entries.push({
      name: `${folder}/${path.posix.basename(font.fileKey)}`,
      key: font.fileKey,
      size: font.fileSize,
      crc32: await storedCrc32(store, font),
    });
  }
  entries.push({ name: `${folder}/${licenseName}`, bytes: Buffer.from(target.family.licenseText, 'utf8') });
  entries.push({
    name: `${folder}/README.txt`,
    bytes: Buffer.from(readme(target.family, target.fonts, licenseName), 'utf8'),
  });
  return zipLayout(entries, target.family.updatedAt);
}

/**
 * Records a download: a history row (the account when logged in, else none, with the IP) and one
 * more download on the family's counter.
 */
export async function recordDownload(
  target: DownloadTarget,
  who: { accountId: number | null; ip: string | null },
  database?: Db,
): Promise<void> {
  const db = database ?? (await configuredDb());
  await db.transaction(async (tx) => {
    await tx.insert(downloadHistory).values({
      accountId: who.accountId,
      familyId: target.family.id,
      fontId: target.kind === 'font' ? target.font.id : null,
      ip: who.ip,
    });
    await tx
      .update(fontFamilies)
      .set({ downloads: sql`${fontFamilies.downloads} + 1` })
      .where(eq(fontFamilies.id, target.family.id));
  });
  // The site's total follows at once on every node; lists sorted by downloads catch up within a minute.
  await purgeEverywhere({ answersTag: DOWNLOADS_TAG });
}
