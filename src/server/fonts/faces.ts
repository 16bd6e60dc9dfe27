/** The parts of a face that decide which one represents its family. */
export interface FaceStyle {
  weight: number;
  italic: boolean;
}

/** The SPEC fontGNo of a child font: the family slug, its weight, and 'i' for italic ('noto-sans-sc-700i'). */
export function childGno(familyGno: string, face: FaceStyle): string {
  return `${familyGno}-${face.weight}${face.italic ? 'i' : ''}`;
}

/**
 * The CSS order of preference when weight 400 is wanted: 400, then 500, then lighter weights
 * from the nearest down, then heavier weights from the nearest up (CSS Fonts 4, font matching).
 */
function distanceFrom400(weight: number): number {
  if (weight === 400) return 0;
  if (weight === 500) return 1;
  if (weight < 400) return 1000 + (400 - weight);
  return 2000 + (weight - 500);
}

/** The face that stands for a family: upright 400, else the nearest weight as a browser would pick it. */
export function pickDefaultFace<T extends FaceStyle>(faces: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const face of faces) {
    const score = distanceFrom400(face.weight) + (face.italic ? 10_000 : 0);
    if (score < bestScore) {
      best = face;
      bestScore = score;
    }
  }
  return best;
}
