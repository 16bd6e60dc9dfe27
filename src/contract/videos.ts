// Shapes of the video API's answers (视频), shared by the server (src/server/videos) and the browser.

/** A video as lists show it. */
export interface VideoListItem {
  id: number;
  title: string;
  summary: string;
  /** The poster picture (WebP). */
  poster: string;
  durationMs: number;
  publishedAt: string | null;
}

/** A video page's data: the file to play, its captions and what the player and JSON-LD need. */
export interface VideoDetail extends VideoListItem {
  src: string;
  mime: 'video/mp4' | 'video/webm';
  /** The Chinese captions (WebVTT), or null. */
  captions: string | null;
  width: number;
  height: number;
  size: number;
  createdAt: string;
  updatedAt: string;
  status: 'draft' | 'published';
}

/** The playback speeds the player offers. */
export const VIDEO_SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;

/** Largest poster picture and captions file an editor may upload. */
export const VIDEO_POSTER_MAX_BYTES = 10 * 1024 * 1024;
export const VIDEO_CAPTIONS_MAX_BYTES = 512 * 1024;

/** A duration as the page shows it: 0:09, 12:05, 1:02:03. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor(total / 60) % 60;
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A duration in ISO 8601 (schema.org's VideoObject.duration): PT9S, PT1M5S, PT1H2M3S. */
export function isoDuration(ms: number): string {
  const total = Math.max(1, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor(total / 60) % 60;
  const seconds = total % 60;
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
}
