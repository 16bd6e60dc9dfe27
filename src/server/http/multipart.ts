import { PassThrough, type Readable } from 'node:stream';
import Busboy from '@fastify/busboy';
import { ApiError, badRequest, payloadTooLarge } from './envelope.ts';
import { hasForbiddenText } from './text-guard.ts';

// Reads one file field of a multipart/form-data request as a stream, with every limit enforced
// while the bytes arrive. Hono's parseBody (and Request.formData) hold the whole body in memory
// before anything can be judged, which a 200 MB upload must never get to do. The parsing itself is
// busboy's: a streaming, linear-time parser (Boyer–Moore–Horspool over each chunk), with limits on
// parts, fields and header sizes.

/** The file part handed to the consumer: its name as the browser sent it, and its bytes. */
export interface IncomingFile {
  fileName: string;
  body: Readable;
}

/** Room for the other form fields and the multipart framing around the file. */
const FRAMING_SLACK_BYTES = 256 * 1024;
/** A form whose first part has not begun after this many bytes has no boundary where it says. */
const MAX_PREAMBLE_BYTES = 64 * 1024;
const LIMITS = {
  files: 1,
  fields: 16,
  parts: 20,
  fieldNameSize: 100,
  fieldSize: 16 * 1024,
  headerPairs: 16,
  headerSize: 16 * 1024,
};

const malformed = () => badRequest('上传的表单格式不正确，请用 multipart/form-data 表单重新上传');

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
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !/boundary=/i.test(contentType)) {
    throw badRequest(`请用 multipart/form-data 表单上传文件（字段名 ${field}）`);
  }
  const tooLarge = () => payloadTooLarge(`文件太大，最大只能上传 ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_SLACK_BYTES) throw tooLarge();
  if (!request.body) throw badRequest(`请选择要上传的文件（字段名 ${field}）`);

  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { ...LIMITS, fileSize: maxBytes },
      defCharset: 'utf8',
    });
  } catch {
    throw malformed();
  }
  const reader = request.body.getReader();

  return new Promise<T>((resolve, reject) => {
    let consumed: Promise<T> | undefined;
    let sink: PassThrough | undefined;
    let partSeen = false;
    let failure: Error | undefined;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      sink?.destroy(error);
      parser.removeAllListeners('finish');
      // The consumer removes what it wrote; its own error is not the one to report.
      void (consumed ?? Promise.resolve()).catch(() => undefined).then(() => reject(error));
    };

    parser.on('field', () => {
      partSeen = true;
    });
    parser.on('file', (name, stream, fileName) => {
      partSeen = true;
      if (name !== field || consumed || !fileName) {
        stream.resume();
        return;
      }
      // A name with a NUL or a lone surrogate cannot be stored or shown; it is refused, not cleaned.
      if (hasForbiddenText(fileName)) {
        stream.resume();
        fail(badRequest('文件名含有不允许的字符（空字符或残缺的 Unicode 字符），请改名后重新上传'));
        return;
      }
      sink = new PassThrough();
      stream.on('limit', () => fail(tooLarge()));
      stream.pipe(sink);
      consumed = consume({ fileName, body: sink });
      // Seen later through `await consumed`; this only keeps an early failure from going unhandled.
      consumed.catch(() => undefined);
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(badRequest('上传的表单字段太多，请只上传一个文件')));
    }
    parser.on('error', (error: unknown) => {
      const message = error instanceof Error ? error.message : '';
      fail(/unexpected end/i.test(message) ? badRequest('上传没有完成，文件不完整，请重新上传') : malformed());
    });
    parser.on('finish', () => {
      if (failure) return;
      if (!consumed) {
        fail(badRequest(`请选择要上传的文件（字段名 ${field}）`));
        return;
      }
      consumed.then(resolve, (error: unknown) => reject(error));
    });

    // The body is pumped by hand rather than piped, so that a refusal cancels the read at once
    // and the parser's back-pressure holds the client back while storage is slower than the network.
    void (async () => {
      let total = 0;
      try {
        while (!failure) {
          const { done, value } = await reader.read();
          if (done) break;
          total += value.byteLength;
          if (total > maxBytes + FRAMING_SLACK_BYTES) throw tooLarge();
          // One chunk may hold the whole preamble; a second one without a part means no boundary.
          if (!partSeen && total - value.byteLength > MAX_PREAMBLE_BYTES) throw malformed();
          if (!parser.write(value)) await new Promise((resume) => parser.once('drain', resume));
        }
        if (!failure) parser.end();
      } catch (error) {
        fail(error instanceof ApiError ? error : badRequest('上传没有完成，文件不完整，请重新上传'));
      }
      if (failure) await reader.cancel().catch(() => undefined);
    })();
  });
}

/** What a form on a call that takes no file may hold: a few small fields. */
const FIELD_LIMITS = { files: 0, fields: 64, parts: 64, fieldNameSize: 100, headerPairs: 8, headerSize: 4 * 1024 };

/**
 * Reads a multipart/form-data body sent to a call that takes no file into its fields, as URL-encoded
 * form bytes: no file part is taken (400), at most 64 small fields, each no longer than the body's
 * own limit, which the stream given here already enforces. The form is parsed by busboy, so only
 * the fields are ever held, never a file's bytes.
 */
export async function formFieldsOf(body: ReadableStream<Uint8Array>, contentType: string): Promise<Uint8Array> {
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({ headers: { 'content-type': contentType }, limits: { ...FIELD_LIMITS }, defCharset: 'utf8' });
  } catch {
    throw malformed();
  }
  const fields = new URLSearchParams();
  const reader = body.getReader();
  return new Promise<Uint8Array>((resolve, reject) => {
    let failure: Error | undefined;
    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      reject(error);
    };
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) fail(payloadTooLarge('表单字段太长'));
      else fields.append(name, value);
    });
    parser.on('file', (_name, stream) => {
      stream.resume();
      fail(badRequest('这个接口只接受表单字段，不接受文件'));
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () =>
        fail(badRequest(limit === 'filesLimit' ? '这个接口只接受表单字段，不接受文件' : '表单字段太多')),
      );
    }
    parser.on('error', () => fail(malformed()));
    parser.on('finish', () => {
      if (!failure) resolve(new TextEncoder().encode(fields.toString()));
    });
    void (async () => {
      try {
        while (!failure) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!parser.write(value)) await new Promise((resume) => parser.once('drain', resume));
        }
        if (!failure) parser.end();
      } catch (error) {
        fail(error instanceof ApiError ? error : badRequest('表单没有传完，请重新提交'));
      }
    })();
  });
}
