import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { SLICE_PLAN_VERSION } from '../engine/slices.ts';
import { notFound } from '../http/envelope.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { toolsPool } from '../tools/runtime.ts';
import { subsetPool } from './subset-pool.ts';

// Slice plans and slice files of the hosted web fonts. A plan is made once per font file (in a
// tools worker) and kept in memory and in storage. A slice is made on its first request by the
// subset workers with the fast WOFF2 writer (Brotli q5, a few ms), answered at once, and
// re-encoded at q11 with Google's encoder in the background; later requests get the smaller file.

/** A library font as the CSS service needs it. */
export interface SliceFont {
  id: number;
  fileKey: string;
  sha256: string;
}

/** A font's slices and the version that names them in URLs. */
export interface StoredPlan {
  version: string;
  slices: number[][];
}

const plans = new Map<string, Promise<StoredPlan>>();
const MAX_PLANS_IN_MEMORY = 64;
const making = new Map<string, Promise<Uint8Array>>();
const reencoding = new Set<string>();

/** The version of a font's slices: changes with the file and with the planning. */
export function sliceVersion(sha256: string): string {
  return createHash('sha256').update(`${sha256}:${SLICE_PLAN_VERSION}`).digest('hex').slice(0, 12);
}

const planKey = (font: SliceFont) => `webfont/plans/${font.sha256.slice(0, 32)}-${sliceVersion(font.sha256)}.json`;
const sliceKey = (font: SliceFont, n: number, quality: 'q5' | 'q11') =>
  `webfont/slices/${font.sha256.slice(0, 32)}/${sliceVersion(font.sha256)}/${n}${quality === 'q5' ? '.q5' : ''}.woff2`;

async function loadOrMakePlan(font: SliceFont): Promise<StoredPlan> {
  const key = planKey(font);
  const stored = await storage().get(key);
  if (stored) return JSON.parse((await buffer(stored.body)).toString('utf8')) as StoredPlan;
  const made = await toolsPool().run({ kind: 'plan', key: font.fileKey }, { lane: 'quick', timeoutMs: 180_000 });
  const plan: StoredPlan = { version: sliceVersion(font.sha256), slices: made.slices };
  await storage().put(key, Buffer.from(JSON.stringify(plan)), { durable: false });
  log().info({ fontId: font.id, slices: plan.slices.length, ratio: made.ratio }, 'web font slices planned');
  return plan;
}

/** A font's slice plan, from memory, storage, or made now (once, however many ask together). */
export function slicePlan(font: SliceFont): Promise<StoredPlan> {
  let plan = plans.get(font.sha256);
  if (!plan) {
    plan = loadOrMakePlan(font);
    plan.catch(() => plans.delete(font.sha256));
    if (plans.size >= MAX_PLANS_IN_MEMORY) plans.delete(plans.keys().next().value as string);
    plans.set(font.sha256, plan);
  }
  return plan;
}

/** Re-encodes a slice at Brotli q11 in the background and then drops the q5 file. */
function reencodeLater(font: SliceFont, n: number, ttf: Uint8Array): void {
  const key = sliceKey(font, n, 'q11');
  if (reencoding.has(key)) return;
  reencoding.add(key);
  toolsPool()
    .run({ kind: 'woff2', ttf, outKey: key }, { lane: 'background' })
    .then(() => storage().delete(sliceKey(font, n, 'q5')))
    .catch((error: unknown) => log().warn({ err: error, key }, 'slice re-encoding failed'))
    .finally(() => reencoding.delete(key));
}

async function makeSlice(font: SliceFont, n: number, codePoints: number[]): Promise<Uint8Array> {
  const output = await subsetPool().run({ fontId: font.sha256, key: font.fileKey, codePoints, quality: 5 });
  await storage().put(sliceKey(font, n, 'q5'), output.woff2, { durable: false });
  reencodeLater(font, n, output.ttf);
  return output.woff2;
}

/** The bytes of slice `n` of a font at `version`: the q11 file when it exists, else the fast one. */
export async function sliceBytes(font: SliceFont, version: string, n: number): Promise<Uint8Array> {
  const gone = () => notFound('字体切片不存在，请重新引用网页字体的 CSS');
  if (version !== sliceVersion(font.sha256)) throw gone();
  const plan = await slicePlan(font);
  const codePoints = plan.slices[n];
  if (!codePoints) throw gone();
  for (const quality of ['q11', 'q5'] as const) {
    const object = await storage().get(sliceKey(font, n, quality));
    if (object) return new Uint8Array(await buffer(object.body));
  }
  const key = sliceKey(font, n, 'q5');
  let pending = making.get(key);
  if (!pending) {
    pending = makeSlice(font, n, codePoints).finally(() => making.delete(key));
    making.set(key, pending);
  }
  return pending;
}

/** Forgets plans held in memory (tests). */
export function forgetSlicePlans(): void {
  plans.clear();
}
