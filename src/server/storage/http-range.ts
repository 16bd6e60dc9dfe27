import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { ApiError } from '../http/envelope.ts';
import { type GetOptions, RangeNotSatisfiableError, type RangeRequest, type StorageObject } from './types.ts';

// Range requests (RFC 9110 §14) for stored files, so a download that broke off resumes where it
// stopped and a player or viewer can seek. Only a single range is served; a request for several,
// or a header this does not read, gets the whole object, as the RFC allows. Parsed here rather than
// with range-parser because that wants the size first, and asking the storage for the size before
// the bytes would cost S3 a second round trip on every download.

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/** The one byte range a Range header asks for, or undefined to answer with the whole object. */
export function requestedRange(header: string | undefined): RangeRequest | undefined {
  const match = SINGLE_RANGE.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '') return last === '' ? undefined : { suffix: Number(last) };
  const start = Number(first);
  if (last === '') return { start };
  const end = Number(last);
  return end >= start ? { start, end } : undefined;
}

/**
 * Answers a GET or HEAD with a stored object: 206 with the part a Range asks for, 416 for a range
 * that starts past the end, else 200 with the whole. `open` reads the object (with the range, when
 * there is one); `headers` are those of the whole object, Content-Length and -Range are added here.
 * An If-Range that no longer names the object (its Last-Modified) gets the whole new object.
 */
export async function answerObject(
  c: Context,
  open: (options: GetOptions) => Promise<StorageObject | undefined>,
  headers: (object: StorageObject) => Record<string, string>,
  missing: () => Error,
): Promise<Response> {
  const range = requestedRange(c.req.header('range'));
  let object: StorageObject | undefined;
  try {
    object = await open({ range });
  } catch (error) {
    if (!(error instanceof RangeNotSatisfiableError)) throw error;
    throw new ApiError(416, 'RANGE_NOT_SATISFIABLE', '请求的文件范围超出了文件大小', {
      'Content-Range': `bytes */${error.size}`,
    });
  }
  if (!object) throw missing();
  const ifRange = c.req.header('if-range');
  if (object.range && ifRange !== undefined && ifRange !== object.mtime.toUTCString()) {
    object.body.destroy();
    object = await open({});
    if (!object) throw missing();
  }
  const answer: Record<string, string> = { ...headers(object), 'Accept-Ranges': 'bytes' };
  const part = object.range;
  answer['Content-Length'] = String(part ? part.end - part.start + 1 : object.size);
  if (part) answer['Content-Range'] = `bytes ${part.start}-${part.end}/${object.size}`;
  const status = part ? 206 : 200;
  if (c.req.method === 'HEAD') {
    object.body.destroy();
    return c.body(null, status, answer);
  }
  if (object.bytes) return c.body(object.bytes as Uint8Array<ArrayBuffer>, status, answer);
  return c.body(Readable.toWeb(object.body) as ReadableStream, status, answer);
}
