// The captcha endpoints speak AJ-Captcha's protocol rather than the site's envelope, because
// captcha client libraries expect it; shared by src/server/accounts/captcha-routes.ts and src/api/captcha.ts.

/** An answer of the captcha endpoints: `repCode` '0000' means success, 6110 an expired or used puzzle, 6111 a wrong position. */
export interface CaptchaAnswer<T = Record<string, unknown>> {
  repCode: string;
  repMsg: string | null;
  repData: T | null;
  success: boolean;
}

/**
 * The drag a slider answer records, sent encrypted beside the point (`trackJson`): each sample is
 * [milliseconds since the drag began, the piece's x in puzzle pixels, the pointer's y offset from
 * where the drag began in CSS pixels]. `keys` tracks come from the arrow keys (y is 0).
 */
export interface CaptchaTrack {
  kind: 'pointer' | 'keys';
  points: [number, number, number][];
}
