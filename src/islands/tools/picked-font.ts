// What the tools know about the font a visitor chose, whichever way they chose it.
import type { FontFormat, FontSource } from '../../api/font-tools.ts';

/** A chosen font: what to send to the server and what to show about it. */
export interface PickedFont {
  source: FontSource;
  /** The family name people know it by. */
  label: string;
  /** The file's format, known for uploads (library fonts are TrueType). */
  format?: FontFormat;
  /** Faces in the file: more than one only in a TTC collection. */
  faces: number;
}

/** The extensions the upload accepts, for the file dialog's filter. */
export const FONT_FILE_ACCEPT = '.ttf,.otf,.ttc,.woff,.woff2,.eot';

/** The message of a thrown value, for inline errors (API calls reject with Chinese messages). */
export function messageOf(error: unknown, fallback = '操作未成功，请稍后再试'): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** True for the rejection of a call the page cancelled itself. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** A time of day as 24-hour hh:mm, for expiry notes. */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('zh-CN', { hour: '2-digit', minute: '2-digit', hour12: false });
}
