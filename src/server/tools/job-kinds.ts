import { convertJob } from './convert.ts';
import type { JobKind } from './jobs.ts';
import { pixelFontJob } from './pixel.ts';
import { subsetJob } from './subset.ts';

/** Every kind of queued job, by the name its rows carry: what a runner knows how to run. */
export const JOB_KINDS: Readonly<Record<string, JobKind<never>>> = Object.fromEntries(
  [convertJob, subsetJob, pixelFontJob].map((kind) => [kind.name, kind as JobKind<never>]),
);
