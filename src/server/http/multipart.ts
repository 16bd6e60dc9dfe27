import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { badRequest, payloadTooLarge } from './envelope.ts';

// Reads one file field of a multipart/form-data request as a stream, with a size cap enforced
// while the bytes arrive. Hono's parseBody (and Request.formData) hold the whole body in memory
// before the size can be judged, which a 200 MB upload must never get to do.

/** The file part handed to the consumer: its name as the browser sent it, and its bytes. */
export interface IncomingFile {
  fileName: string;
  body: Readable;
}

type ParserState = 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done';

/** Headers larger than this are not a browser's. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Room for the other form fields and the multipart framing around the file. */
const FRAMING_SLACK_BYTES = 256 * 1024;

function boundaryOf(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** Reads `name` and `filename` (or the UTF-8 `filename*`) of a part's Content-Disposition. */
function dispositionOf(headers: string): { name: string; fileName: string | undefined } {
  const line = headers.split('\r\n').find((header) => /^content-disposition:/i.test(header)) ?? '';
  const name = /\bname="([^"]*)"/i.exec(line)?.[1] ?? '';
  const extended = /\bfilename\*=UTF-8''([^;]+)/i.exec(line)?.[1];
  let fileName = /\bfilename="([^"]*)"/i.exec(line)?.[1];
  if (extended) {
    try {
      fileName = decodeURIComponent(extended);
    } catch {
      // keep the plain filename
    }
  }
  // Old browsers send the whole local path.
  if (fileName !== undefined)
    fileName = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  return { name, fileName };
}

/**
 * Streams the file field `field` of a multipart request into `consume` and answers what it
 * returns. More than `maxBytes` in the file (or in the whole body, give or take the framing)
 * fails with 413 as soon as it is seen; the stream given to `consume` is then destroyed with
 * that error, so a consumer writing to storage removes its partial file.
 */
export async function receiveFile<T>(
  request: Request,
  field: string,
  maxBytes: number,
  consume: (file: IncomingFile) => Promise<T>,
): Promise<T> {
  const boundary = boundaryOf(request.headers.get('content-type'));
  if (!boundary) throw badRequest(`请用 multipart/form-data 表单上传文件（字段名 ${field}）`);
  const tooLarge = () => payloadTooLarge(`文件太大，最大只能上传 ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_SLACK_BYTES) throw tooLarge();
  if (!request.body) throw badRequest(`请选择要上传的文件（字段名 ${field}）`);

  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = request.body.getReader();
  // The body starts with "--boundary"; a leading CRLF makes the first delimiter look like the rest.
  let pending = Buffer.from('\r\n');
  let state: ParserState = 'preamble';
  // Read through a function: `step` changes the state, which TypeScript cannot see from here.
  const finished = () => state === 'done';
  let total = 0;
  let sink: PassThrough | undefined;
  let fileBytes = 0;
  let consumed: Promise<T> | undefined;

  const write = async (bytes: Buffer) => {
    if (!sink || bytes.byteLength === 0) return;
    fileBytes += bytes.byteLength;
    if (fileBytes > maxBytes) throw tooLarge();
    if (!sink.write(bytes)) await once(sink, 'drain');
  };

  const step = async (): Promise<boolean> => {
    if (state === 'preamble' || state === 'body') {
      const at = pending.indexOf(delimiter);
      if (at < 0) {
        const keep = delimiter.byteLength - 1;
        if (state === 'body' && pending.byteLength > keep) {
          await write(pending.subarray(0, pending.byteLength - keep));
          pending = pending.subarray(pending.byteLength - keep);
        }
        return false;
      }
      if (state === 'body') {
        await write(pending.subarray(0, at));
        if (sink) {
          sink.end();
          sink = undefined;
        }
      }
      pending = pending.subarray(at + delimiter.byteLength);
      state = 'after-delimiter';
    }
    if (state === 'after-delimiter') {
      if (pending.byteLength < 2) return false;
      if (pending[0] === 0x2d && pending[1] === 0x2d) {
        state = 'done';
        return false;
      }
      const lineEnd = pending.indexOf('\r\n');
      if (lineEnd < 0) return false;
      pending = pending.subarray(lineEnd + 2);
      state = 'headers';
    }
    if (state === 'headers') {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) {
        if (pending.byteLength > MAX_HEADER_BYTES) throw badRequest('上传的表单格式不正确');
        return false;
      }
      const { name, fileName } = dispositionOf(pending.subarray(0, end).toString('utf8'));
      pending = pending.subarray(end + 4);
      state = 'body';
      if (name === field && fileName !== undefined && !consumed) {
        sink = new PassThrough();
        consumed = consume({ fileName, body: sink });
        // Seen later through `await consumed`; this only keeps an early failure from going unhandled.
        consumed.catch(() => {});
      }
    }
    return state !== 'done';
  };

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes + FRAMING_SLACK_BYTES) throw tooLarge();
      pending = pending.byteLength === 0 ? Buffer.from(value) : Buffer.concat([pending, value]);
      while (await step()) {
        // each step consumes a delimiter or a part's headers
      }
      if (finished()) break;
    }
    if (sink || !finished()) throw badRequest('上传没有完成，文件不完整，请重新上传');
    if (!consumed) throw badRequest(`请选择要上传的文件（字段名 ${field}）`);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    sink?.destroy(failure);
    await reader.cancel().catch(() => {});
    await consumed?.catch(() => {});
    throw error;
  }
  return consumed;
}
