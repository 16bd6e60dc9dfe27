import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';

// Every call the browser's client (src/api) makes must be one the API answers: each exported
// function of each client module is called with placeholder arguments while `ofetch` only records
// the method and path, and each recorded call is looked up in the OpenAPI document the app makes
// from its own routes (GET /api/openapi.json).

const calls: Array<{ method: string; path: string }> = [];
vi.mock('ofetch', () => ({
  ofetch: async (url: string, options: { method?: string }) => {
    calls.push({ method: (options.method ?? 'GET').toUpperCase(), path: url.split('?')[0] ?? url });
    return { code: '200', message: '', data: {} };
  },
}));

let paths: Record<string, Record<string, unknown>>;
let restoreEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  restoreEnv = { ...process.env };
  process.env['LOG_LEVEL'] = 'silent';
  const { createApp } = await import('../../src/server/app.ts');
  const res = await createApp().request('/api/openapi.json');
  paths = ((await res.json()) as { paths: typeof paths }).paths;
});

afterAll(() => {
  process.env = restoreEnv;
});

/** The document's path that a concrete path falls under, e.g. /api/v1/web/notify/1/read → …/{id}/read. */
function documented(method: string, concrete: string): boolean {
  return Object.entries(paths).some(([template, methods]) => {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`);
    return pattern.test(concrete) && method.toLowerCase() in methods;
  });
}

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1 made from the routes’ own schemas, with their Chinese field names', async () => {
    const { createApp } = await import('../../src/server/app.ts');
    const document = (await (await createApp().request('/api/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; description?: string }> }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const list = document.paths['/web/api/fontOverride/getFontList']?.['get'];
    expect(list?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'current', in: 'query', description: '页码' })]),
    );
    // Path parameters in OpenAPI's form.
    expect(Object.keys(document.paths)).toContain('/api/v1/web/notify/{id}/read');
  });
});

describe('the browser client and the API agree', () => {
  test('the client types its bodies with the document as the routes make it now (npm run api:types)', async () => {
    const { apiTypes } = await import('../../scripts/lib/api-types.ts');
    const committed = fs.readFileSync('src/contract/openapi.gen.ts', 'utf8');
    expect(committed === (await apiTypes()), 'src/contract/openapi.gen.ts is older than the routes').toBe(true);
  });

  // http.ts and upload.ts are the clients themselves (their callers name the paths and are checked);
  // types.ts and errors.ts make no calls.
  const helpers = new Set(['http.ts', 'upload.ts', 'types.ts', 'errors.ts']);
  const modules = fs.readdirSync('src/api').filter((file) => file.endsWith('.ts') && !helpers.has(file));

  test.each(modules)('every call of src/api/%s is a documented route with the same method', async (file) => {
    const module = (await import(`../../${path.join('src/api', file)}`)) as Record<string, unknown>;
    calls.length = 0;
    const functions = Object.entries(module).filter(([, value]) => typeof value === 'function');
    for (const [, fn] of functions) {
      try {
        await (fn as (...args: unknown[]) => unknown)('1', '1', '1');
      } catch {
        // A function that needs a browser (XMLHttpRequest, FontFace) still recorded its API calls.
      }
    }
    expect(calls.length, `${file} made no API call`).toBeGreaterThan(0);
    const unknown = calls
      .filter((call) => !documented(call.method, call.path))
      .map((call) => `${call.method} ${call.path}`);
    expect(unknown).toEqual([]);
  });
});
