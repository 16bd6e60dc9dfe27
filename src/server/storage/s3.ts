import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { log } from '../log.ts';
import {
  contentTypeOf,
  type GetOptions,
  type PresignedRequest,
  type PresignGetOptions,
  type PresignPutOptions,
  publicPath,
  RangeNotSatisfiableError,
  resolveRange,
  type Storage,
  type StorageBody,
  type StorageObject,
  type StorageStat,
  validateKey,
} from './types.ts';

/** Where the objects live and how to reach the bucket (docs/operations.md, "Storage"). */
export interface S3Config {
  bucket: string;
  /** Folder inside the bucket, '' for its root; keys are stored as '<prefix>/<key>'. */
  prefix: string;
  /** For S3-speaking services other than AWS (MinIO, Aliyun OSS, Tencent COS, Cloudflare R2). */
  endpoint?: string | undefined;
  /**
   * The address browsers reach the same service at, when the servers use a private one (a compose
   * network's `http://minio:9000`): every URL handed to a browser is signed for it.
   */
  publicEndpoint?: string | undefined;
  region: string;
  /** Without them the SDK's own chain applies (instance roles, AWS_* variables). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** 'endpoint/bucket/key' instead of 'bucket.endpoint/key' (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  /** Keys per list and delete request: S3's maximum unless a test wants to see several pages. */
  pageSize?: number;
}

/** 's3://bucket/some/prefix' → bucket and prefix (without slashes at either end). */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const parsed = new URL(url);
  return { bucket: parsed.hostname, prefix: parsed.pathname.replace(/^\/+|\/+$/g, '') };
}

/** The origin presigned URLs point at, which the browser's uploads must be allowed to reach. */
export function bucketOrigin(
  config: Pick<S3Config, 'bucket' | 'endpoint' | 'publicEndpoint' | 'region' | 'forcePathStyle'>,
): string {
  const endpoint = new URL(config.publicEndpoint ?? config.endpoint ?? `https://s3.${config.region}.amazonaws.com`);
  return config.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
}

const S3_PAGE = 1000;

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function rangeHeader(range: { start: number; end?: number }): string {
  return `bytes=${range.start}-${range.end ?? ''}`;
}

/**
 * Keeps objects in an S3 bucket, so several servers behind one load balancer share them. Every S3
 * PUT is atomic (readers see the old object or the whole new one); streams of unknown length go up
 * in parts with lib-storage's Upload, which aborts the multipart upload on error so no part remains
 * and the old object stays. `durable` needs nothing here: S3 answers only once the object is stored.
 */
export class S3Storage implements Storage {
  readonly #client: S3Client;
  /** Signs the URLs browsers are given: for the public address when there is one (SigV4 signs the host). */
  readonly #presigner: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #pageSize: number;

  constructor(config: S3Config) {
    const client = (endpoint: string | undefined) =>
      new S3Client({
        region: config.region,
        ...(endpoint ? { endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
        ...(config.credentials ? { credentials: config.credentials } : {}),
        // Checksums only where S3 demands them: a presigned PUT would otherwise carry the CRC of an
        // empty body, and several S3-speaking services (OSS, COS, older MinIO) refuse the new headers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.#client = client(config.endpoint);
    this.#presigner = config.publicEndpoint ? client(config.publicEndpoint) : this.#client;
    this.#bucket = config.bucket;
    this.#prefix = config.prefix ? `${config.prefix}/` : '';
    this.#pageSize = Math.min(config.pageSize ?? S3_PAGE, S3_PAGE);
  }

  #key(key: string): string {
    return this.#prefix + validateKey(key);
  }

  async put(key: string, body: StorageBody): Promise<StorageStat> {
    const params = { Bucket: this.#bucket, Key: this.#key(key), ContentType: contentTypeOf(key) };
    if (body instanceof Uint8Array) {
      await this.#client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.byteLength }));
    } else {
      const source = body instanceof ReadableStream ? Readable.fromWeb(body as never) : (body as Readable);
      // One PUT when the stream ends within the first part, parts otherwise. On error the multipart
      // upload is aborted here rather than by lib-storage, so the caller learns why the write failed
      // and not that the abort did; a part an abort could not remove goes with sweepLeftovers.
      const upload = new Upload({ client: this.#client, params: { ...params, Body: source }, leavePartsOnError: true });
      try {
        await upload.done();
      } catch (error) {
        if (upload.uploadId) {
          const abort = new AbortMultipartUploadCommand({ ...params, UploadId: upload.uploadId });
          await this.#client
            .send(abort)
            .catch((abortError: unknown) =>
              log().warn({ err: abortError, key }, 'S3 multipart upload not aborted; the sweep will'),
            );
        }
        throw error;
      }
    }
    const stat = await this.stat(key);
    if (!stat) throw new Error(`S3 object missing right after it was written: ${key}`);
    return stat;
  }

  async get(key: string, { range: asked }: GetOptions = {}): Promise<StorageObject | undefined> {
    const Key = this.#key(key);
    let range = asked;
    if (range && 'suffix' in range) {
      // The last n bytes are asked for by first and last byte: not every S3-speaking server reads
      // 'bytes=-n' right (s3rver answers the first n), and such requests are rare (viewers seeking).
      const stat = await this.stat(key);
      if (!stat) return undefined;
      range = resolveRange(range, stat.size);
      if (!range) throw new RangeNotSatisfiableError(stat.size);
    }
    try {
      const out = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key, ...(range ? { Range: rangeHeader(range) } : {}) }),
      );
      const body = out.Body as Readable;
      const mtime = out.LastModified ?? new Date();
      const part = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(out.ContentRange ?? '');
      if (range && part) {
        const [, start, end, size] = part.map(Number) as [number, number, number, number];
        return { size, mtime, body, range: { start, end } };
      }
      // Without a Content-Range the service sent the whole object (as HTTP allows).
      return { size: out.ContentLength ?? 0, mtime, body };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      if (statusOf(error) === 416) {
        const stat = await this.stat(key);
        if (!stat) return undefined;
        throw new RangeNotSatisfiableError(stat.size);
      }
      throw error;
    }
  }

  async stat(key: string): Promise<StorageStat | undefined> {
    try {
      const out = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
      return { size: out.ContentLength ?? 0, mtime: out.LastModified ?? new Date() };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
  }

  /** The bucket's keys under a folder, page by page (ListObjectsV2 answers at most 1000 at a time). */
  async *#pages(prefix: string): AsyncGenerator<string[]> {
    let token: string | undefined;
    do {
      const out = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          Prefix: `${this.#key(prefix)}/`,
          MaxKeys: this.#pageSize,
          ContinuationToken: token,
        }),
      );
      yield (out.Contents ?? []).flatMap((item) => (item.Key ? [item.Key] : []));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const page of this.#pages(prefix)) keys.push(...page.map((key) => key.slice(this.#prefix.length)));
    return keys;
  }

  async deleteTree(prefix: string): Promise<void> {
    // Pages are deleted as they come: DeleteObjects takes at most 1000 keys, one page's worth.
    for await (const page of this.#pages(prefix)) {
      if (page.length === 0) continue;
      const out = await this.#client.send(
        new DeleteObjectsCommand({
          Bucket: this.#bucket,
          Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = out.Errors ?? [];
      if (failed.length > 0) throw new Error(`S3 could not delete ${failed.length} objects: ${failed[0]?.Message}`);
    }
  }

  url(key: string): string {
    return publicPath(key);
  }

  localFile(): undefined {
    return undefined;
  }

  /**
   * Nothing partial is ever visible on S3; what a killed process can leave is a multipart upload
   * that was never completed, whose parts are billed. Those started before `before` are aborted.
   * Services without ListMultipartUploads answer 0 (a lifecycle rule that aborts incomplete
   * uploads does the same job there; docs/operations.md, "Storage").
   */
  async sweepLeftovers(before: Date, prefix: string): Promise<number> {
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      do {
        const out = await this.#client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.#bucket,
            Prefix: `${this.#key(prefix)}/`,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const upload of out.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
          await this.#client.send(
            new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: upload.Key, UploadId: upload.UploadId }),
          );
          removed++;
        }
        [keyMarker, uploadIdMarker] = out.IsTruncated ? [out.NextKeyMarker, out.NextUploadIdMarker] : [];
      } while (keyMarker);
    } catch (error) {
      if (statusOf(error) === 501) return removed;
      throw error;
    }
    return removed;
  }

  /** Signed over host, size and type, so the bucket refuses a PUT of any other size or type. */
  async presignPut(key: string, { size, type, expiresSeconds, now }: PresignPutOptions): Promise<PresignedRequest> {
    const headers = { 'content-length': String(size), 'content-type': type };
    const command = new PutObjectCommand({
      Bucket: this.#bucket,
      Key: this.#key(key),
      ContentLength: size,
      ContentType: type,
    });
    const url = await getSignedUrl(this.#presigner, command, {
      expiresIn: expiresSeconds,
      signingDate: now,
      signableHeaders: new Set(Object.keys(headers)),
    });
    return { url, headers };
  }

  presignGet(key: string, { disposition, type, expiresSeconds, now }: PresignGetOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.#bucket,
      Key: this.#key(key),
      ResponseContentDisposition: disposition,
      ResponseContentType: type,
    });
    return getSignedUrl(this.#presigner, command, { expiresIn: expiresSeconds, signingDate: now });
  }
}
