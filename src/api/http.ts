import { FetchError, ofetch } from 'ofetch';
import { IDEMPOTENCY_HEADER, isIdempotentWrite } from '../contract/idempotency.ts';
import { beginRequest, endRequest } from '../stores/network.ts';
import { $token, setToken } from '../stores/session.ts';
import { showToast } from '../stores/toast.ts';
import { httpErrorMessage, NETWORK_MESSAGE, TIMEOUT_MESSAGE } from './errors.ts';
import type { Envelope, Query } from './types.ts';

/** SPEC §9: the main client waits up to 20 minutes (uploads and font work can be slow). */
export const REQUEST_TIMEOUT_MS = 1_200_000;
/** SPEC §9: the second client gives up after 40 s and keeps quiet about HTTP errors. */
export const QUIET_REQUEST_TIMEOUT_MS = 40_000;
/** The envelope code of success. */
export const SUCCESS_CODE = '200';
/** The envelope code of an expired session (SPEC §8). */
export const SESSION_EXPIRED_CODE = 'S00106';
/** The request header that carries the token (SPEC §6). */
export const TOKEN_HEADER = 'alliance-authenticate';

/**
 * The API's base address: PUBLIC_API_BASE when the site is configured to talk to another server,
 * else the same origin as the page.
 */
export const API_BASE: string = (import.meta.env?.['PUBLIC_API_BASE'] ?? '').replace(/\/+$/, '');

/** A failed call: the message is what the user was shown (or would have been). */
export class RequestError extends Error {
  override name = 'RequestError';
  /** HTTP status, when an answer arrived. */
  readonly status: number | undefined;
  /** The envelope code, when the body had one. */
  readonly code: string | undefined;

  constructor(message: string, status?: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Options of one call. */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  /** 'blob' returns the raw body (images), skipping the envelope. */
  responseType?: 'json' | 'blob';
  /** Shows no toast and leaves the page alone on failure (the caller handles it). */
  quiet?: boolean;
  /** A call the reader did not ask for (the unread poll): it moves no progress bar. */
  background?: boolean;
  signal?: AbortSignal;
}

/** How a client behaves; see {@link createHttpClient}. */
export interface HttpClientConfig {
  baseURL?: string;
  timeout?: number;
  /** HTTP errors reject without a toast or a redirect (SPEC §8, second client). */
  silentHttpErrors?: boolean;
}

/** A configured client: call it with a path and options, get the envelope's data. */
export type HttpClient = <T>(path: string, options?: RequestOptions) => Promise<T>;

function goHome(): void {
  const location = globalThis.location;
  if (location && location.pathname !== '/') location.assign('/');
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  return typeof body === 'object' && body !== null && 'code' in body;
}

function unwrap<T>(body: unknown, options: RequestOptions): T {
  if (!isEnvelope(body)) return body as T;
  const code = String(body.code);
  if (code === SUCCESS_CODE) return body.data as T;
  const message = body.message || '操作未成功，请稍后再试';
  if (code === SESSION_EXPIRED_CODE) {
    setToken('');
    if (!options.quiet) goHome();
    throw new RequestError(message, 200, code);
  }
  if (!options.quiet) showToast(message, 'warning');
  throw new RequestError(message, 200, code);
}

function isAbort(error: unknown, name: string): boolean {
  const cause = error instanceof Error ? (error.cause as { name?: string } | undefined) : undefined;
  return (error instanceof Error && error.name === name) || cause?.name === name;
}

/**
 * A new key for one write (src/contract/idempotency.ts). randomUUID needs a secure context; a site
 * served over plain http still gets 122 random bits.
 */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * No answer came from the site itself: the connection failed or broke, or the proxy in front said
 * that the server behind it did not answer (502, 503, 504).
 */
function heardNoAnswer(error: unknown): boolean {
  if (isAbort(error, 'TimeoutError') || isAbort(error, 'AbortError')) return false;
  if (!(error instanceof FetchError)) return false;
  const status = error.response?.status;
  return status === undefined || status === 502 || status === 503 || status === 504;
}

function toRequestError(error: unknown): RequestError {
  if (error instanceof FetchError && error.response) {
    const status = error.response.status;
    const data = error.data as Partial<Envelope<unknown>> | undefined;
    const serverMessage = typeof data?.message === 'string' ? data.message : undefined;
    return new RequestError(
      httpErrorMessage(status, serverMessage),
      status,
      data?.code ? String(data.code) : undefined,
    );
  }
  if (isAbort(error, 'TimeoutError')) return new RequestError(TIMEOUT_MESSAGE, 408);
  return new RequestError(NETWORK_MESSAGE);
}

/**
 * Builds a client. Every call sends the XMLHttpRequest marker, JSON UTF-8 content type and, when
 * logged in, the token header; counts itself for the loading bar; unwraps the envelope; and turns
 * failures into the Chinese messages of SPEC §8 (toast, then rejection with the same text).
 */
export function createHttpClient(config: HttpClientConfig = {}): HttpClient {
  const timeout = config.timeout ?? REQUEST_TIMEOUT_MS;
  return async <T>(path: string, options: RequestOptions = {}): Promise<T> => {
    const headers: Record<string, string> = {
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/json;charset=UTF-8',
      ...options.headers,
    };
    // The browser writes the multipart boundary itself.
    if (typeof FormData !== 'undefined' && options.body instanceof FormData) delete headers['Content-Type'];
    const token = $token.get();
    if (token) headers[TOKEN_HEADER] = token;
    const method = options.method ?? 'GET';
    // Every write names itself; the ones the server keeps by that name are sent again once when no
    // answer came (a server behind the balancer died under it), and are still done only once.
    if (method !== 'GET') headers[IDEMPOTENCY_HEADER] ??= newIdempotencyKey();
    const again = method === 'GET' || isIdempotentWrite(method, path);
    const send = () =>
      ofetch(path, {
        baseURL: config.baseURL ?? API_BASE,
        method,
        headers,
        timeout,
        retry: 0,
        responseType: options.responseType === 'blob' ? 'blob' : 'json',
        ...(options.query ? { query: options.query } : {}),
        ...(options.body !== undefined ? { body: options.body as BodyInit | Record<string, unknown> } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });

    if (!options.background) beginRequest();
    try {
      let body: unknown;
      try {
        body = await send().catch((error: unknown) => {
          if (!again || !heardNoAnswer(error) || options.signal?.aborted) throw error;
          return send();
        });
      } catch (error) {
        if (options.signal?.aborted && isAbort(error, 'AbortError')) throw error;
        const failure = toRequestError(error);
        if (!config.silentHttpErrors && !options.quiet) {
          if (failure.status === 401) {
            // A session that died: forget it and start again from the home page. A visitor
            // without a session (e.g. a failed login) stays where they are.
            const hadToken = Boolean($token.get());
            setToken('');
            if (hadToken) goHome();
          }
          showToast(failure.message, 'error');
        }
        throw failure;
      }
      return options.responseType === 'blob' ? (body as T) : unwrap<T>(body, options);
    } finally {
      if (!options.background) endRequest();
    }
  };
}

/** The site's main client (20-minute timeout, every error shown). */
export const http: HttpClient = createHttpClient();

/** The second client of SPEC §7–§9: 40 s timeout, HTTP errors rejected silently. */
export const quietHttp: HttpClient = createHttpClient({ timeout: QUIET_REQUEST_TIMEOUT_MS, silentHttpErrors: true });

/** GET through the main client. */
export const get = <T>(path: string, query?: Query, options?: RequestOptions) =>
  http<T>(path, { ...options, method: 'GET', ...(query ? { query } : {}) });
/** POST a JSON (or FormData) body through the main client. */
export const post = <T>(path: string, body?: unknown, options?: RequestOptions) =>
  http<T>(path, { ...options, method: 'POST', body });
/** PUT a JSON body through the main client. */
export const put = <T>(path: string, body?: unknown, options?: RequestOptions) =>
  http<T>(path, { ...options, method: 'PUT', body });
/** DELETE through the main client. */
export const del = <T>(path: string, query?: Query, options?: RequestOptions) =>
  http<T>(path, { ...options, method: 'DELETE', ...(query ? { query } : {}) });
