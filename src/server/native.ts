import { createRequire } from 'node:module';
import { PROJECT_MANIFEST } from './paths.ts';

// Native add-ons are loaded from the project's node_modules at run time rather than imported: the
// Astro server bundle would otherwise try to inline them, and jieba's dictionary loader reads files
// next to its own module.
const requireFromProject = createRequire(PROJECT_MANIFEST);
// Shared through globalThis: the Astro bundle and scripts/start.ts each hold a copy of this module.
const JIEBA = Symbol.for('font-alliance.jieba');

/** @napi-rs/canvas (Skia), loaded once on first use. */
export function loadCanvas(): typeof import('@napi-rs/canvas') {
  return requireFromProject('@napi-rs/canvas') as typeof import('@napi-rs/canvas');
}

/** A jieba segmenter with the default dictionary, loaded once on first use (about 150 ms). */
export function loadJieba(): import('@node-rs/jieba').Jieba {
  const slot = globalThis as { [JIEBA]?: import('@node-rs/jieba').Jieba };
  if (!slot[JIEBA]) {
    const { Jieba } = requireFromProject('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = requireFromProject('@node-rs/jieba/dict') as { dict: Uint8Array };
    slot[JIEBA] = Jieba.withDict(dict);
  }
  return slot[JIEBA];
}
