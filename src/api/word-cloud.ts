// Word-cloud calls (SPEC §7 names them without paths; these are the paths this site serves).
import { http } from './http.ts';
import type { Id, Page, Query } from './types.ts';

/** SPEC §9: the template type list is read as page 1 of size 100 of type `font_cloud`. */
export const WORD_CLOUD_TEMPLATE_QUERY = { type: 'font_cloud', current: 1, size: 100 } as const;

/** A template type (a group of shape images). */
export interface WordCloudTemplateType {
  id: Id;
  name: string;
  [key: string]: unknown;
}

/** A shape image a word cloud is drawn into. */
export interface WordCloudImage {
  id: Id;
  url: string;
  [key: string]: unknown;
}

/** The template types. */
export const getWordCloudTemplateTypes = () =>
  http<Page<WordCloudTemplateType>>('/tools/api/word-cloud/template-types', { query: WORD_CLOUD_TEMPLATE_QUERY });

/** The shape images of one type. */
export const getWordCloudImages = (query: { type: Id } & Query) =>
  http<WordCloudImage[]>('/tools/api/word-cloud/images', { query });

/** Renders a word cloud; the answer is the image itself. */
export const renderWordCloud = (body: Record<string, unknown>) =>
  http<Blob>('/tools/api/word-cloud', { method: 'POST', body, responseType: 'blob' });
