import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Presigned PUT URLs in the form S3 uses (AWS Signature Version 4, the signature in the query), so a
// browser can send a large file straight to storage with credentials that name one key, one size and
// a few minutes. The site's own storage checks the same signature on its PUT route
// (storage/routes.ts), so the browser's code is the same whichever storage is configured; the S3
// driver (s3.ts) has the SDK's presigner sign for its bucket instead. Written here rather than taken
// from the AWS SDK because the SDK's presigner cannot verify a signature, which the local storage must do.

/** Who signs: an access key pair and the region and service of the scope. */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service?: string;
}

/** What a presigned request allows. */
export interface PresignInput {
  method: 'PUT' | 'GET';
  /**
   * Scheme and host the request goes to, e.g. 'https://bucket.s3.example.com', signed as the host
   * header; '' for the site's own storage, whose URL is a path on whatever host the page came from.
   */
  origin: string;
  /** The object's path on that host, already without query, e.g. '/files/tools/incoming/…/a.ttf'. */
  path: string;
  /** Headers the PUT must send with these values (content-length pins the size). */
  headers: Record<string, string>;
  expiresSeconds: number;
  now: Date;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const UNSIGNED = 'UNSIGNED-PAYLOAD';

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, '/' kept in paths. */
function encode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

function amzDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function canonicalQuery(query: ReadonlyArray<[string, string]>): string {
  return [...query]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function signature(
  credentials: SigningCredentials,
  date: string,
  method: string,
  path: string,
  query: ReadonlyArray<[string, string]>,
  headers: Record<string, string>,
): string {
  const names = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const canonicalHeaders = names.map((name) => `${name}:${String(lower[name]).trim()}\n`).join('');
  const canonicalRequest = [
    method,
    encode(decodeURIComponent(path), true),
    canonicalQuery(query),
    canonicalHeaders,
    names.join(';'),
    UNSIGNED,
  ].join('\n');
  const day = date.slice(0, 8);
  const scope = `${day}/${credentials.region}/${credentials.service ?? 's3'}/aws4_request`;
  const toSign = [ALGORITHM, date, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${credentials.secretAccessKey}`, day);
  key = hmac(key, credentials.region);
  key = hmac(key, credentials.service ?? 's3');
  key = hmac(key, 'aws4_request');
  return createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
}

/** A presigned URL; the request must send `input.headers` (plus host, which the URL fixes). */
export function presignUrl(credentials: SigningCredentials, input: PresignInput): string {
  const date = amzDate(input.now);
  const headers = input.origin ? { host: new URL(input.origin).host, ...input.headers } : { ...input.headers };
  const signedHeaders = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .sort()
    .join(';');
  const query: Array<[string, string]> = [
    ['X-Amz-Algorithm', ALGORITHM],
    [
      'X-Amz-Credential',
      `${credentials.accessKeyId}/${date.slice(0, 8)}/${credentials.region}/${credentials.service ?? 's3'}/aws4_request`,
    ],
    ['X-Amz-Date', date],
    ['X-Amz-Expires', String(input.expiresSeconds)],
    ['X-Amz-SignedHeaders', signedHeaders],
  ];
  const signed = signature(credentials, date, input.method, input.path, query, headers);
  const search = [...query, ['X-Amz-Signature', signed] as [string, string]]
    .map(([n, v]) => `${encode(n)}=${encode(v)}`)
    .join('&');
  return `${input.origin}${encode(decodeURIComponent(input.path), true)}?${search}`;
}

/** Why a presigned request was refused. */
export type PresignProblem = 'missing' | 'expired' | 'bad-signature';

/**
 * Checks a presigned request as S3 would: the credential names our key, the date is not in the
 * future and the expiry has not passed, and the signature over the method, path, query and signed
 * headers (taken from the request) matches. Answers undefined when it is good.
 */
export function verifyPresigned(
  credentials: SigningCredentials,
  request: { method: string; path: string; query: URLSearchParams; header(name: string): string | undefined },
  now: Date,
): PresignProblem | undefined {
  const q = request.query;
  const date = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const credential = q.get('X-Amz-Credential') ?? '';
  const signedHeaders = q.get('X-Amz-SignedHeaders') ?? '';
  const given = q.get('X-Amz-Signature') ?? '';
  if (q.get('X-Amz-Algorithm') !== ALGORITHM || !/^\d{8}T\d{6}Z$/.test(date) || !given) return 'missing';
  if (!Number.isInteger(expires) || expires < 1 || expires > 7 * 24 * 3600) return 'missing';
  const [accessKeyId, day, region, service] = credential.split('/');
  if (accessKeyId !== credentials.accessKeyId || day !== date.slice(0, 8) || region !== credentials.region) {
    return 'bad-signature';
  }
  if (service !== (credentials.service ?? 's3')) return 'bad-signature';
  const signedAt = Date.parse(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  if (!Number.isFinite(signedAt) || signedAt > now.getTime() + 5 * 60_000) return 'bad-signature';
  if (now.getTime() > signedAt + expires * 1000) return 'expired';
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) {
    const value = request.header(name);
    if (value === undefined) return 'bad-signature';
    headers[name] = value;
  }
  const query = [...q.entries()];
  const expected = signature(credentials, date, request.method, request.path, query, headers);
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? undefined : 'bad-signature';
}
