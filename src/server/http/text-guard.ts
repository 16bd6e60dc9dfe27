import type { MiddlewareHandler } from 'hono';
import { badRequest } from './envelope.ts';

// PostgreSQL cannot store U+0000 in text and answers an error for it; a lone surrogate cannot be
// encoded as UTF-8 at all. Both are refused before any route or the database sees them: the path
// and the query by the app-wide guard below, bodies by the shared validator (validate.ts) once they
// are parsed, so the guard never has to buffer a body itself.

/** True when the text holds a NUL or a lone surrogate. */
export function hasForbiddenText(text: string): boolean {
  return text.includes('\0') || !text.isWellFormed();
}

function refuse(field: string): never {
  throw badRequest(`${field}含有不允许的字符（空字符或残缺的 Unicode 字符），请删除后重试`);
}

/** The first string inside a parsed JSON value that holds forbidden text, as a path, or null. */
function findInJson(value: unknown, path: string): string | null {
  if (typeof value === 'string') return hasForbiddenText(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findInJson(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasForbiddenText(key)) return path;
      const found = findInJson(item, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    // A malformed escape is not a forbidden character; the route's own validation answers it.
    return part;
  }
}

/** Refuses a request whose path or query carries NUL or a lone surrogate (bodies: see validate.ts). */
export function textGuard(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (hasForbiddenText(decoded(url.pathname))) refuse('请求地址');
    for (const [key, value] of url.searchParams) {
      if (hasForbiddenText(key) || hasForbiddenText(value)) refuse(`参数 ${key.replace(/[^\w-]/g, '') || '?'} `);
    }
    await next();
  };
}

/** Refuses a parsed body (JSON or form) that holds forbidden text anywhere, naming the field. */
export function refuseForbiddenText(value: unknown): void {
  const found = findInJson(value, '');
  if (found !== null) refuse(found ? `字段 ${found} ` : '请求内容');
}
