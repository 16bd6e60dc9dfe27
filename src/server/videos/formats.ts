/** What a video check found: the container, its duration from the container, picture size and codecs. */
export interface VideoProbe {
  container: 'mp4' | 'webm';
  mime: 'video/mp4' | 'video/webm';
  durationMs: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
}

/** A file that is not an acceptable video; the message is shown to the editor as it is. */
export class VideoFormatError extends Error {
  override name = 'VideoFormatError';
}

/** The Matroska codec IDs a WebM video may carry (what browsers play). */
export const WEBM_CODECS = {
  video: ['V_VP8', 'V_VP9', 'V_AV1'],
  audio: ['A_VORBIS', 'A_OPUS'],
} as const satisfies Record<string, readonly string[]>;

/** The sample entry fourccs an MP4 video may carry: H.264 pictures and AAC sound. */
export const MP4_CODECS = {
  video: ['avc1', 'avc3'],
  audio: ['mp4a'],
} as const satisfies Record<string, readonly string[]>;
