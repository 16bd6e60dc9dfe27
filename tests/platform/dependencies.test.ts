import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

// A deployment may install the dependencies alone (`npm ci --omit=dev`): every package the site
// imports when it runs must be in `dependencies`. Read from the sources the server, the pages and the
// run-time scripts are built from; type-only imports and Astro's virtual modules need nothing installed.

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const RUNTIME_SCRIPTS = ['start.ts', 'worker.ts', 'api.ts', 'editor.ts', 'backup.ts', 'build.ts'].map((name) =>
  path.join('scripts', name),
);

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|astro|mjs)$/.test(entry.name)) yield full;
  }
}

/** The packages a file imports for its values: `import x from 'pkg/sub'` → 'pkg', `@scope/pkg/sub` → '@scope/pkg'. */
function packagesOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^'.][^']*)'/gm),
    ...text.matchAll(/^import\s+'([^'.][^']*)'/gm),
    ...text.matchAll(/import\(\s*'([^'.][^']*)'\s*\)/g),
  ].map((match) => match[1] ?? '');
  return specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('astro:'))
    .map((specifier) => specifier.match(/^(@[^/]+\/[^/]+|[^/]+)/)?.[1] ?? specifier);
}

describe('package.json', () => {
  test('lists every package the running site imports in dependencies', () => {
    const files = [...sources('src'), ...RUNTIME_SCRIPTS, ...sources('scripts/lib')].filter(
      // Writes the API's types during development (npm run api:types).
      (file) => !file.endsWith(path.join('lib', 'api-types.ts')),
    );
    const missing = new Map<string, string>();
    for (const file of files) {
      for (const name of packagesOf(file)) if (!(name in pkg.dependencies)) missing.set(name, file);
    }
    expect(Object.fromEntries(missing)).toEqual({});
  });
});
