import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { asc, inArray } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { fonts } from '../db/schema/index.ts';
import { downloadSecret } from '../fonts/download-links.ts';
import { pickDefaultFace } from '../fonts/faces.ts';
import { openZip as openStoredZip, storedCrc32, type ZipEntry, zipLayout } from '../fonts/stored-zip.ts';
import { forbidden, notFound } from '../http/envelope.ts';
import { log } from '../log.ts';
import { type GetOptions, type StorageObject, storage } from '../storage/index.ts';
import { type FontGroupType, fontGroupFamilies } from './groups.ts';

/** How long an album's zip link stays valid. */
export const ZIP_LINK_TTL_MS = 10 * 60 * 1000;

/** The path that streams an album's zip; the routes serve it under /web/api. */
export const ZIP_PATH = '/web/api/web-font-collection/download-font-zip';

function signZip(type: FontGroupType, id: number, expires: number): string {
  // The download secret is shared with font links; the leading word keeps the two kinds apart.
  return createHmac('sha256', downloadSecret()).update(`group-zip\n${type}\n${id}\n${expires}`).digest('base64url');
}

/** The answer of download-font-zip-url. */
export interface ZipLink {
  url: string;
  expiresAt: string;
  fileName: string;
}

function fileNameOf(title: string): string {
  return `${title.replace(/[\\/:*?"<>|\s]+/g, '-')}.zip`;
}

/** A signed link to a published album's or collection's zip, valid for ZIP_LINK_TTL_MS; 404 when there is none. */
export async function createZipLink(
  type: FontGroupType,
  id: number,
  now = Date.now(),
  database?: Db,
): Promise<ZipLink> {
  const group = await fontGroupFamilies(type, id, database);
  if (!group) throw notFound(type === 'album' ? '专辑不存在或已下架' : '合集不存在或已下架');
  if (group.families.length === 0) throw notFound('这个专辑里还没有可下载的字体');
  const expires = now + ZIP_LINK_TTL_MS;
  const query = new URLSearchParams({
    type,
    id: String(id),
    expires: String(expires),
    signature: signZip(type, id, expires),
  });
  return { url: `${ZIP_PATH}?${query}`, expiresAt: new Date(expires).toISOString(), fileName: fileNameOf(group.title) };
}

/** Checks a zip link: a forged or altered signature, or an expired link, answers 403 with what to do. */
export function verifyZipLink(
  type: FontGroupType,
  id: number,
  expires: number,
  signature: string,
  now = Date.now(),
): void {
  const wanted = Buffer.from(signZip(type, id, expires));
  const given = Buffer.from(signature);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw forbidden('下载链接无效，请回到专辑页面重新点击下载');
  }
  if (expires < now) throw forbidden('下载链接已过期，请回到专辑页面重新点击下载');
}

/** An album's zip, laid out and ready to be read whole or in part. */
export interface ZipStream {
  open: (options: GetOptions) => Promise<StorageObject>;
  fileName: string;
}

function readme(title: string, entries: Array<{ folder: string; name: string; file: string }>): string {
  const lines = [
    title,
    '',
    '本压缩包收录以下字体（每款字体的常规字重）：',
    ...entries.map((entry) => `  ${entry.folder}/${entry.file}  ${entry.name}`),
    '',
    '每个字体文件夹里附有它的授权协议全文，使用前请阅读。',
    '其他字重可在造字联盟字体库的字体详情页下载。',
  ];
  // A BOM lets older Windows editors recognise the UTF-8 Chinese text.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * Opens the zip of a published album or collection: each family's default-weight TTF and its
 * licence text in a folder of its own, plus a README. The fonts are stored as they are, so the zip's
 * size and every byte are known before it is sent (stored-zip.ts): the answer says its length and
 * a broken-off download resumes. Font files are read from storage as they are sent.
 */
export async function openZip(type: FontGroupType, id: number, database?: Db): Promise<ZipStream> {
  const db = database ?? (await configuredDb());
  const group = await fontGroupFamilies(type, id, db);
  if (!group || group.families.length === 0) throw notFound('专辑不存在或已下架');
  const children = await db
    .select()
    .from(fonts)
    .where(
      inArray(
        fonts.familyId,
        group.families.map((family) => family.id),
      ),
    )
    .orderBy(asc(fonts.id));
  const store = storage();
  const zipEntries: ZipEntry[] = [];
  const listed: Array<{ folder: string; name: string; file: string }> = [];
  let mtime = new Date(0);
  for (const family of group.families) {
    const face = pickDefaultFace(children.filter((font) => font.familyId === family.id));
    if (!face) continue;
    const crc32 = await storedCrc32(store, face).catch((error: unknown) => {
      log().warn(
        { err: error, key: face.fileKey, type, id },
        'font file missing from storage, left out of the album zip',
      );
      return undefined;
    });
    if (crc32 === undefined) continue;
    const file = path.posix.basename(face.fileKey);
    zipEntries.push({ name: `${family.gno}/${file}`, key: face.fileKey, size: face.fileSize, crc32 });
    zipEntries.push({
      name: `${family.gno}/${family.license.startsWith('OFL') ? 'OFL.txt' : 'LICENSE.txt'}`,
      bytes: Buffer.from(family.licenseText, 'utf8'),
    });
    listed.push({ folder: family.gno, name: family.nameZh, file });
    if (family.updatedAt > mtime) mtime = family.updatedAt;
  }
  zipEntries.push({ name: 'README.txt', bytes: Buffer.from(readme(group.title, listed), 'utf8') });
  const layout = zipLayout(zipEntries, mtime);
  return { open: async (options) => openStoredZip(layout, store, options), fileName: fileNameOf(group.title) };
}
