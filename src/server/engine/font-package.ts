import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { decodeFont } from './convert.ts';
import { FontInputError } from './font-errors.ts';
import { sniffFontFormat } from './font-format.ts';

// What a designer sends: one font, or a zip of a family's weights (with its licence). A zip is read
// with yauzl, which refuses names that climb out of the archive ('../', absolute paths) and checks
// every entry's inflated size against the size it declares, so a zip bomb stops at the declared
// limits below instead of filling memory.

/** One font unpacked from the package, as a standalone TTF or OTF. */
export interface PackagedFont {
  /** The name inside the package (or the upload's own name). */
  name: string;
  sfnt: Uint8Array;
}

/** A package's fonts and its licence text when it carries one. */
export interface FontPackage {
  fonts: PackagedFont[];
  licenseText: string | undefined;
}

/** Limits of a package, so the check costs what a real family costs and no more. */
export interface PackageLimits {
  maxFonts: number;
  /** Largest font once unpacked (and unwrapped from WOFF/WOFF2). */
  maxFontBytes: number;
  /** Largest total of the entries read. */
  maxTotalBytes: number;
}

const FONT_NAME = /\.(ttf|otf|woff2?)$/i;
const LICENSE_NAME = /(^|\/)(licen[cs]e|ofl|copying)[^/]*\.(txt|md)$/i;
const MAX_LICENSE_BYTES = 256 * 1024;
const ZIP_MAGIC = 0x504b0304;

/** Whether the bytes are a zip archive (by its first bytes, never its name). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) === ZIP_MAGIC;
}

const refuse = (detail: string, message: string): never => {
  throw new FontInputError('corrupt', detail, message);
};

async function unzipFonts(bytes: Uint8Array, limits: PackageLimits): Promise<FontPackage> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: true,
    });
  } catch (error) {
    return refuse(String(error), '压缩包已损坏或不是 ZIP 格式，请重新打包后上传');
  }
  const fonts: PackagedFont[] = [];
  let licenseText: string | undefined;
  let total = 0;
  try {
    for await (const entry of zip.eachEntry() as AsyncIterable<yauzl.Entry>) {
      const name = entry.fileName;
      const hidden = name.startsWith('__MACOSX/') || name.split('/').some((part) => part.startsWith('.'));
      if (name.endsWith('/') || hidden) continue;
      const isFont = FONT_NAME.test(name);
      const isLicense = !licenseText && LICENSE_NAME.test(name) && entry.uncompressedSize <= MAX_LICENSE_BYTES;
      if (!isFont && !isLicense) continue;
      if (isFont && fonts.length >= limits.maxFonts) {
        refuse('too many fonts', `一个压缩包最多 ${limits.maxFonts} 个字体文件，请分开投稿`);
      }
      if (entry.uncompressedSize > limits.maxFontBytes || total + entry.uncompressedSize > limits.maxTotalBytes) {
        throw new FontInputError('too-large', `entry ${name} declares ${entry.uncompressedSize}`);
      }
      total += entry.uncompressedSize;
      const data = new Uint8Array(await buffer(await zip.openReadStreamPromise(entry)));
      if (isLicense) licenseText = new TextDecoder('utf-8', { fatal: false }).decode(data);
      else fonts.push({ name, sfnt: data });
    }
  } catch (error) {
    if (error instanceof FontInputError) throw error;
    const text = String(error);
    // yauzl names both of these in its messages: an escaping path, a size that lied.
    if (/invalid relative path|absolute path|invalid characters/i.test(text)) {
      refuse(text, '压缩包里有指向包外的文件路径，已拒绝处理');
    }
    if (/too many bytes|uncompressed size/i.test(text)) throw new FontInputError('too-large', text);
    refuse(text, '压缩包已损坏，无法解压，请重新打包后上传');
  } finally {
    zip.close();
  }
  if (fonts.length === 0) refuse('no fonts in zip', '压缩包里没有 TTF、OTF、WOFF 或 WOFF2 字体文件');
  return { fonts, licenseText };
}

/**
 * Opens an upload: a zip's fonts (each unwrapped to TTF/OTF) and licence, or the one font the file
 * is. Throws FontInputError with the Chinese reason for anything else.
 */
export async function openFontPackage(
  bytes: Uint8Array,
  fileName: string,
  limits: PackageLimits,
): Promise<FontPackage> {
  const { fonts, licenseText } = isZip(bytes)
    ? await unzipFonts(bytes, limits)
    : { fonts: [{ name: fileName, sfnt: bytes }], licenseText: undefined };
  const opened: PackagedFont[] = [];
  for (const font of fonts) {
    const format = sniffFontFormat(font.sfnt);
    if (!format) {
      const where = isZip(bytes) ? `压缩包中的“${font.name}”` : '上传的文件';
      throw new FontInputError(
        'not-font',
        `not a font: ${font.name}`,
        `${where}不是字体文件（按文件内容判断，而不是扩展名）`,
      );
    }
    if (format === 'ttc' || format === 'eot') {
      throw new FontInputError('not-font', format, '投稿请使用 TTF、OTF、WOFF2 或它们的 ZIP 压缩包，每个字重一个文件');
    }
    const { sfnt } = await decodeFont(font.sfnt, { maxSfntBytes: limits.maxFontBytes });
    opened.push({ name: font.name, sfnt });
  }
  return { fonts: opened, licenseText };
}
