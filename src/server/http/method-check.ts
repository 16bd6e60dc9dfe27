import type { Hono } from 'hono';

// Hono answers an existing path asked with the wrong method as "not found". SPEC §8 tells them
// apart (405), so the not-found handler asks this list which methods the path does answer.

const METHOD_ROUTE = /^(GET|POST|PUT|DELETE|PATCH)$/;

function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** The methods the app's routes answer for a path, e.g. ['POST'] for a POST-only call. */
export function allowedMethods(app: Hono): (path: string) => string[] {
  let routes: Array<{ method: string; pattern: RegExp }> | undefined;
  return (path) => {
    routes ??= app.routes
      .filter((route) => METHOD_ROUTE.test(route.method))
      .map((route) => ({ method: route.method, pattern: patternOf(route.path) }));
    return [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
  };
}
