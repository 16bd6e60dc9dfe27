// The font-identification calls (/tools/api/identify): a picture kept for a while, its glyphs with
// suggested characters (SPEC §7 workflow task 125), characters for changed boxes, and the library's
// faces ranked against the confirmed glyphs.
import type {
  CharacterSuggestion,
  FoundGlyphs,
  GlyphBox,
  GlyphToMatch,
  IdentifyResult,
  PictureView,
  UploadedPicture,
} from '../contract/identify.ts';
import { http } from './http.ts';

export type { CharacterSuggestion, FoundGlyphs, GlyphBox, GlyphToMatch, IdentifyResult, PictureView, UploadedPicture };

/** Keeps a picture (PNG, JPEG or WebP, at most 10 MB) on the server for a while. */
export function uploadPicture(file: Blob, name = 'picture'): Promise<UploadedPicture> {
  const form = new FormData();
  form.append('file', file, name);
  return http<UploadedPicture>('/tools/api/identify/picture', { method: 'POST', body: form, quiet: true });
}

/** The glyph boxes of the (cropped, turned) picture, each with suggested characters. */
export const findGlyphs = (view: PictureView) =>
  http<FoundGlyphs>('/tools/api/identify/glyphs', { method: 'POST', body: view, quiet: true });

/** Suggested characters for boxes the person drew or changed. */
export const readCharacters = (view: PictureView, boxes: GlyphBox[]) =>
  http<{ suggestions: CharacterSuggestion[][] }>('/tools/api/identify/characters', {
    method: 'POST',
    body: { ...view, boxes },
    quiet: true,
  });

/** The library's faces ranked against the glyphs. */
export const matchFonts = (view: PictureView, glyphs: GlyphToMatch[], limit = 12) =>
  http<IdentifyResult>('/tools/api/identify/match', { method: 'POST', body: { ...view, glyphs, limit }, quiet: true });
