// The drag track a slider answer carries. A person's drag takes a fraction of a second or more,
// starts at the left, speeds up and slows down, and wobbles up and down as a hand does; a script
// that posts only where the piece belongs has no track, and one that moves in even steps or jumps
// there has the wrong one. None of this stops a determined bot that forges tracks; it makes every
// answer cost the forging, on top of finding the hole among the decoys (captcha-image.ts).

import type { CaptchaTrack } from '../../contract/captcha.ts';

/** Why a track was refused, for the log (the person is only told to try again). */
export type TrackVerdict = { ok: true } | { ok: false; reason: string };

/** The fewest and most samples a track may have. */
export const TRACK_SAMPLES = { min: 2, max: 600 } as const;
/** A drag faster than this is no hand's (ms). */
const MIN_DRAG_MS = 200;
/** Pressing the arrow keys all the way takes at least this long (ms). */
const MIN_KEYS_MS = 300;
/** Longest track (ms): beyond it the puzzle has long expired anyway. */
const MAX_TRACK_MS = 120_000;
/** The fewest pointer samples: browsers report a moving pointer every frame or so. */
const MIN_POINTER_SAMPLES = 6;
/** The farthest one pointer sample may be from the last, in puzzle pixels. */
const MAX_STEP = 80;
/** How far the track's end may be from the answered point, in puzzle pixels. */
const END_SLACK = 3;
/**
 * The largest step one key press makes, in puzzle pixels: Shift+arrow moves 10 screen pixels,
 * which is a little more on a stage narrower than the puzzle. Home and End jump to the ends.
 */
const MAX_KEY_STEP = 14;

/** Parses the decrypted track JSON, or answers undefined when it is not one. */
export function parseTrack(json: string): CaptchaTrack | undefined {
  try {
    const track = JSON.parse(json) as { kind?: unknown; points?: unknown };
    if (track?.kind !== 'pointer' && track?.kind !== 'keys') return undefined;
    if (!Array.isArray(track.points)) return undefined;
    if (track.points.length < TRACK_SAMPLES.min || track.points.length > TRACK_SAMPLES.max) return undefined;
    const points: [number, number, number][] = [];
    for (const point of track.points) {
      if (!Array.isArray(point) || point.length !== 3) return undefined;
      if (!point.every((value) => typeof value === 'number' && Number.isFinite(value))) return undefined;
      points.push([point[0], point[1], point[2]] as [number, number, number]);
    }
    return { kind: track.kind, points };
  } catch {
    return undefined;
  }
}

const refuse = (reason: string): TrackVerdict => ({ ok: false, reason });

/** Judges a track against the answered x (both in puzzle pixels): a person's, or not. */
export function judgeTrack(track: CaptchaTrack, answerX: number, maxX: number): TrackVerdict {
  const { points } = track;
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return refuse('empty');
  for (let i = 1; i < points.length; i += 1) {
    if ((points[i]?.[0] ?? 0) < (points[i - 1]?.[0] ?? 0)) return refuse('time runs backwards');
  }
  const duration = last[0] - first[0];
  if (duration > MAX_TRACK_MS) return refuse('too long');
  if (first[1] > END_SLACK) return refuse('does not start at the left');
  if (Math.abs(last[1] - answerX) > END_SLACK) return refuse('ends elsewhere than the answer');
  return track.kind === 'keys' ? judgeKeys(points, duration, maxX) : judgePointer(points, duration);
}

function judgeKeys(points: [number, number, number][], duration: number, maxX: number): TrackVerdict {
  if (duration < MIN_KEYS_MS) return refuse('keys too fast');
  for (let i = 1; i < points.length; i += 1) {
    const from = points[i - 1]?.[1] ?? 0;
    const to = points[i]?.[1] ?? 0;
    const jump = Math.abs(to) <= 0.5 || Math.abs(to - maxX) <= END_SLACK;
    if (Math.abs(to - from) > MAX_KEY_STEP && !jump) return refuse('a key step no key makes');
  }
  return { ok: true };
}

function judgePointer(points: [number, number, number][], duration: number): TrackVerdict {
  if (points.length < MIN_POINTER_SAMPLES) return refuse('too few samples');
  if (duration < MIN_DRAG_MS) return refuse('drag too fast');
  const speeds: number[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const [t0, x0] = points[i - 1] ?? [0, 0];
    const [t1, x1] = points[i] ?? [0, 0];
    if (Math.abs(x1 - x0) > MAX_STEP) return refuse('the pointer jumped');
    if (t1 > t0) speeds.push(Math.abs(x1 - x0) / (t1 - t0));
  }
  // A hand speeds up and slows down: steps of one even speed are a script's.
  const mean = speeds.reduce((sum, speed) => sum + speed, 0) / Math.max(1, speeds.length);
  const spread = Math.sqrt(speeds.reduce((sum, speed) => sum + (speed - mean) ** 2, 0) / Math.max(1, speeds.length));
  if (speeds.length < 3 || mean === 0 || spread / mean < 0.15) return refuse('even speed');
  // …and never moves along a perfectly straight line.
  const ys = points.map((point) => point[2]);
  if (Math.max(...ys) - Math.min(...ys) < 1) return refuse('no vertical wobble');
  return { ok: true };
}
