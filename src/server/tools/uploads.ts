import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import type { UploadedFont } from '../../contract/tools.ts';
import type { FontDescription } from '../engine/convert.ts';
import { FontInputError } from '../engine/font-errors.ts';
import { sniffFontFormat } from '../engine/font-format.ts';
import { env } from '../env.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { type IncomingFile, receiveFile } from '../http/multipart.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { ToolTaskError } from './pool.ts';
import { MAX_DECODED_FONT_BYTES, toolsPool, toolsTtlMs } from './runtime.ts';

// Temporary uploads of the font tools (SPEC §7 "upload temp file"): the file is streamed into
// storage under tools/uploads/<fileId>/, checked in a worker, described in meta.json beside it,
// and removed by the sweeper (tools-sweeper.ts) when it expires. A file that is not a usable font
// is removed at once, so nothing a failed upload sent stays behind.

export type { UploadedFont };

/** Where uploads live in storage. */
export const UPLOADS_PREFIX = 'tools/uploads';

/** The stored description, with what the converter needs beyond the answer. */
export interface UploadRecord extends UploadedFont {
  outline: FontDescription['outline'];
  characterCount: number;
  key: string;
}

/** A fileId as the upload call hands them out. */
export const fileIdSchema = z.uuid();

const sourceKey = (fileId: string) => `${UPLOADS_PREFIX}/${fileId}/source`;
const metaKey = (fileId: string) => `${UPLOADS_PREFIX}/${fileId}/meta.json`;

/** The first bytes of a stored object, enough to tell its format. */
async function headOf(key: string, length = 128): Promise<Uint8Array> {
  const object = await storage().get(key);
  if (!object) return new Uint8Array();
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of object.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    read += chunk.byteLength;
    if (read >= length) break;
  }
  object.body.destroy();
  return new Uint8Array(Buffer.concat(chunks)).subarray(0, length);
}

/** Checks a stored file in a worker; a file that is not a usable font answers 400 with the reason. */
async function describeStored(key: string): Promise<FontDescription> {
  if (!sniffFontFormat(await headOf(key))) throw badRequest(new FontInputError('not-font').message);
  try {
    return await toolsPool().run(
      { kind: 'describe', key, maxSfntBytes: MAX_DECODED_FONT_BYTES },
      { lane: 'quick', timeoutMs: 120_000 },
    );
  } catch (error) {
    if (error instanceof ToolTaskError && error.userFacing) throw badRequest(error.message);
    log().warn({ err: error, key }, 'uploaded font could not be read');
    throw badRequest('无法读取这个字体文件，文件可能已损坏或格式不受支持');
  }
}

/**
 * Receives an upload (multipart field `file`), keeps it if it is a font the tools can read and
 * answers its description; anything else is removed and answered with a 400 or 413.
 */
export async function receiveUpload(request: Request, now = new Date()): Promise<UploadedFont> {
  const fileId = randomUUID();
  const prefix = `${UPLOADS_PREFIX}/${fileId}`;
  const key = sourceKey(fileId);
  const maxBytes = env().TOOLS_MAX_UPLOAD_MB * 1024 * 1024;
  try {
    const name = await receiveFile(request, 'file', maxBytes, async (file: IncomingFile) => {
      await storage().put(key, file.body, { durable: false });
      return file.fileName;
    });
    const stat = await storage().stat(key);
    if (!stat || stat.size === 0) throw badRequest('上传的文件是空的，请选择字体文件');
    const description = await describeStored(key);
    const record: UploadRecord = {
      fileId,
      name: name.slice(0, 200) || 'font',
      size: stat.size,
      format: description.format,
      familyName: description.familyName,
      glyphCount: description.glyphCount,
      faces: description.faces,
      outline: description.outline,
      characterCount: description.characterCount,
      expiresAt: new Date(now.getTime() + toolsTtlMs()).toISOString(),
      key,
    };
    await storage().put(metaKey(fileId), Buffer.from(JSON.stringify(record)), { durable: false });
    return publicView(record);
  } catch (error) {
    await storage().deleteTree(prefix);
    throw error;
  }
}

function publicView(record: UploadRecord): UploadedFont {
  const { fileId, name, size, format, familyName, glyphCount, faces, expiresAt } = record;
  return { fileId, name, size, format, familyName, glyphCount, faces, expiresAt };
}

/** The record of an upload that has not expired, or a 404 the user can act on. */
export async function findUpload(fileId: string, now = new Date()): Promise<UploadRecord> {
  const gone = () => notFound('上传的字体文件不存在或已过期，请重新上传');
  if (!fileIdSchema.safeParse(fileId).success) throw gone();
  const object = await storage().get(metaKey(fileId));
  if (!object) throw gone();
  const record = JSON.parse((await buffer(object.body)).toString('utf8')) as UploadRecord;
  if (Date.parse(record.expiresAt) <= now.getTime()) throw gone();
  return record;
}
