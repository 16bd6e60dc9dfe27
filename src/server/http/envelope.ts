import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Envelope } from '../../contract/envelope.ts';

export type { Envelope };

/** The success envelope. */
export function ok<T>(data: T, message = '操作成功'): Envelope<T> {
  return { code: '200', message, data };
}

/**
 * An error a handler raises on purpose. `onError` turns it into the envelope with its status;
 * the message is shown to the user, so it is Chinese and says what to do.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** 400: the request itself is wrong. */
export const badRequest = (message: string) => new ApiError(400, '400', message);
/** 401: no valid session. */
export const unauthorized = (message = '请先登录') => new ApiError(401, '401', message);
/** 403: logged in, but not allowed. */
export const forbidden = (message = '没有权限执行此操作') => new ApiError(403, '403', message);
/** 404: the resource does not exist. */
export const notFound = (message = '请求的资源不存在') => new ApiError(404, '404', message);
/** 413: the body is larger than the endpoint accepts. */
export const payloadTooLarge = (message = '上传内容过大') => new ApiError(413, '413', message);
/** 429: too many requests; `retryAfter` in seconds. */
export const tooManyRequests = (retryAfter: number, message = '操作太频繁，请稍后再试') =>
  new ApiError(429, '429', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))) });
