import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { VIDEO_CAPTIONS_MAX_BYTES, VIDEO_POSTER_MAX_BYTES } from '../../contract/videos.ts';
import { ApiError, badRequest, payloadTooLarge } from '../http/envelope.ts';
import { hasForbiddenText } from '../http/text-guard.ts';

// The editor's video form: text fields and three files in one multipart request. The video goes to
// a temporary file as it arrives (it may be hundreds of MB; receiveFile in http/multipart.ts takes
// one file only), the poster and captions to memory, each with its own limit enforced while the
// bytes arrive. The caller checks the files and removes the temporary folder.

/** What the form held. */
export interface VideoForm {
  fields: Record<string, string>;
  /** The temporary file of the video, when one was sent. */
  videoPath: string | undefined;
  poster: Uint8Array | undefined;
  captions: Uint8Array | undefined;
  /** The temporary folder; remove it when done. */
  dir: string;
}

const FIELD_NAMES = new Set(['title', 'summary', 'action']);
const FIELD_LABELS: Record<string, string> = { title: '标题', summary: '简介', action: '操作' };

/** Reads the form; throws 400 (a Chinese message) for a malformed one and 413 for a file over its limit. */
export async function receiveVideoForm(request: Request, maxVideoBytes: number): Promise<VideoForm> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !request.body) {
    throw badRequest('请用 multipart/form-data 表单上传视频、封面图和字幕');
  }
  const declared = Number(request.headers.get('content-length'));
  const slack = VIDEO_POSTER_MAX_BYTES + VIDEO_CAPTIONS_MAX_BYTES + 256 * 1024;
  const tooLarge = () => payloadTooLarge(`视频太大，最大只能上传 ${Math.round(maxVideoBytes / 1024 / 1024)} MB`);
  if (Number.isFinite(declared) && declared > maxVideoBytes + slack) throw tooLarge();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'video-upload-'));
  const form: VideoForm = { fields: {}, videoPath: undefined, poster: undefined, captions: undefined, dir };
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: ReturnType<typeof Busboy>;
      try {
        parser = Busboy({
          headers: { 'content-type': contentType },
          limits: { files: 3, fields: 8, parts: 12, fieldSize: 8 * 1024, fileSize: maxVideoBytes },
          defCharset: 'utf8',
        });
      } catch {
        reject(badRequest('上传的表单格式不正确'));
        return;
      }
      const writes: Promise<unknown>[] = [];
      const reader = request.body?.getReader();
      let failed: Error | undefined;
      // A refusal stops reading the request: the pump below cancels the body once its current read
      // has returned (cancelling under a pending read makes undici enqueue into a closed stream).
      // The caller removes what was written.
      const fail = (error: Error) => {
        failed ??= error;
        reject(failed);
      };
      parser.on('field', (name, value) => {
        if (!FIELD_NAMES.has(name)) return;
        // The database cannot store a NUL, nor encode a lone surrogate: refused with the field's name.
        if (hasForbiddenText(String(value)))
          fail(badRequest(`${FIELD_LABELS[name] ?? name}含有不允许的字符，请删除后重试`));
        else form.fields[name] = String(value);
      });
      parser.on('file', (name, stream, fileName) => {
        if (!fileName || !['video', 'poster', 'captions'].includes(name)) {
          stream.resume();
          return;
        }
        if (hasForbiddenText(fileName)) {
          stream.resume();
          fail(badRequest('文件名含有不允许的字符（空字符或残缺的 Unicode 字符），请改名后重新上传'));
          return;
        }
        if (name === 'video') {
          const file = path.join(dir, randomUUID());
          form.videoPath = file;
          stream.on('limit', () => fail(tooLarge()));
          writes.push(pipeline(stream, fs.createWriteStream(file)).catch((error: Error) => fail(error)));
          return;
        }
        const limit = name === 'poster' ? VIDEO_POSTER_MAX_BYTES : VIDEO_CAPTIONS_MAX_BYTES;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > limit) {
            stream.resume();
            fail(payloadTooLarge(name === 'poster' ? '封面图太大，最大 10 MB' : '字幕文件太大，最大 512 KB'));
          } else chunks.push(chunk);
        });
        writes.push(
          new Promise<void>((done) =>
            stream.on('end', () => {
              const bytes = new Uint8Array(Buffer.concat(chunks));
              if (name === 'poster') form.poster = bytes;
              else form.captions = bytes;
              done();
            }),
          ),
        );
      });
      parser.on('error', () => fail(badRequest('上传没有完成，文件不完整，请重新上传')));
      parser.on('finish', () => {
        void Promise.all(writes).then(() => (failed ? reject(failed) : resolve()), reject);
      });
      void (async () => {
        try {
          while (reader && !failed) {
            const { done, value } = await reader.read();
            if (done) break;
            if (!parser.write(value)) await new Promise((resume) => parser.once('drain', resume));
          }
          if (!failed) parser.end();
        } catch (error) {
          fail(error instanceof ApiError ? error : badRequest('上传没有完成，文件不完整，请重新上传'));
        }
        if (failed) await reader?.cancel().catch(() => undefined);
      })();
    });
  } catch (error) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return form;
}
