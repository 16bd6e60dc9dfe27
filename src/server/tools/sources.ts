import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { db } from '../db/client.ts';
import { fontFamilies, fonts } from '../db/schema/index.ts';
import type { OutlineKind } from '../engine/sfnt.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { storage } from '../storage/index.ts';
import { safeFileStem } from './jobs.ts';
import { findUpload } from './uploads.ts';

// The font a converter or subset job works on: an upload (by fileId) or a library font (by the
// child font's id, fonts.id).

/** `{ fileId }` of an upload or `{ fontId }` of a library font. */
export const sourceSchema = z
  .union([
    z.object({ fileId: z.string().max(64).meta({ label: '上传文件编号' }) }).strict(),
    z.object({ fontId: z.number().int().positive().meta({ label: '字体编号' }) }).strict(),
  ])
  .meta({ label: '字体来源' });

/** A font ready for a job. */
export interface ToolSource {
  key: string;
  outline: OutlineKind;
  /** Download name stem of the outputs, from the upload's name or the library font. */
  stem: string;
  faces: number;
  /** The SHA-256 of a library font's file (uploads have none recorded). */
  sha256?: string;
}

/** The outline kind from a font's table directory, read from the first bytes of the stored file. */
async function outlineOfStored(key: string): Promise<OutlineKind> {
  const object = await storage().get(key);
  if (!object) throw notFound('字体文件暂时无法读取，请稍后再试');
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of object.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    read += chunk.byteLength;
    if (read >= 4096) break;
  }
  object.body.destroy();
  const head = Buffer.concat(chunks);
  const count = head.byteLength >= 6 ? head.readUInt16BE(4) : 0;
  const tags = new Set<string>();
  for (let i = 0; i < count && 12 + i * 16 + 4 <= head.byteLength; i++) {
    tags.add(head.toString('latin1', 12 + i * 16, 16 + i * 16));
  }
  return tags.has('CFF ') || tags.has('CFF2') ? 'cff' : 'truetype';
}

/** Finds the font a job names; 404 for an expired upload or an unknown library font. */
export async function resolveSource(source: z.infer<typeof sourceSchema>, faceIndex = 0): Promise<ToolSource> {
  if ('fileId' in source) {
    const upload = await findUpload(source.fileId);
    if (faceIndex >= upload.faces) {
      throw badRequest(
        upload.faces > 1
          ? `字体集合中只有 ${upload.faces} 款字体（序号 0–${upload.faces - 1}）`
          : '这个文件只有一款字体，字体序号只能是 0',
      );
    }
    return { key: upload.key, outline: upload.outline, stem: safeFileStem(upload.name), faces: upload.faces };
  }
  if (faceIndex !== 0) throw badRequest('字体库中的字体只有一款，字体序号只能是 0');
  const database = await db();
  const [row] = await database
    .select({ fileKey: fonts.fileKey, postscriptName: fonts.postscriptName, gno: fonts.gno, sha256: fonts.sha256 })
    .from(fonts)
    .innerJoin(fontFamilies, eq(fonts.familyId, fontFamilies.id))
    .where(and(eq(fonts.id, source.fontId), eq(fontFamilies.published, true)))
    .limit(1);
  if (!row) throw notFound(`字体库中没有编号为 ${source.fontId} 的字体`);
  return {
    key: row.fileKey,
    outline: await outlineOfStored(row.fileKey),
    stem: safeFileStem(row.postscriptName || row.gno, row.gno),
    faces: 1,
    sha256: row.sha256,
  };
}
