// The word-cloud calls (SPEC §7 Word cloud): the shape templates, text cut into words, a picture
// kept as a shape, and the cloud itself, answered as an image.
import type {
  CloudReport,
  CloudRequest,
  CloudTemplateImage,
  CloudTemplateType,
  CloudWord,
  UploadedMask,
} from '../contract/word-cloud.ts';
import { API_BASE, http, RequestError } from './http.ts';
import type { Page } from './types.ts';

export type { CloudReport, CloudRequest, CloudTemplateImage, CloudTemplateType, CloudWord, UploadedMask };

/** The template types (SPEC §9: page 1, size 100). */
export const getTemplateTypes = () =>
  http<Page<CloudTemplateType>>('/tools/api/word-cloud/template-types', {
    query: { type: 'font_cloud', current: 1, size: 100 },
    quiet: true,
  });

/** The shape templates of a type, or of every type. */
export const getTemplateImages = (typeId?: number) =>
  http<CloudTemplateImage[]>('/tools/api/word-cloud/images', { query: { typeId }, quiet: true });

/** Cuts text into its strongest words, with weights. */
export const cutWords = (text: string, limit: number, signal?: AbortSignal) =>
  http<{ words: CloudWord[] }>('/tools/api/word-cloud/words', {
    method: 'POST',
    body: { text, limit },
    quiet: true,
    ...(signal ? { signal } : {}),
  });

/** Keeps a picture on the server as a cloud's shape. */
export function uploadMask(file: File): Promise<UploadedMask> {
  const form = new FormData();
  form.append('file', file);
  return http<UploadedMask>('/tools/api/word-cloud/mask', { method: 'POST', body: form, quiet: true });
}

const wordsOf = (header: string | null): string[] => {
  try {
    return header ? (JSON.parse(decodeURIComponent(header)) as string[]) : [];
  } catch {
    return [];
  }
};

/**
 * Draws a cloud: answers the image and what it left out. The answer is the file itself (SPEC:
 * blob), so this call reads the report from its headers, which the JSON client cannot.
 */
export async function drawCloud(
  request: CloudRequest,
  signal?: AbortSignal,
): Promise<{ image: Blob; report: CloudReport }> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/tools/api/word-cloud`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'image/*, application/json' },
      body: JSON.stringify(request),
      credentials: 'include',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new RequestError('网络连接失败，请检查网络后重试');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
    throw new RequestError(body?.message || `生成失败（${response.status}），请稍后再试`, response.status, body?.code);
  }
  return {
    image: await response.blob(),
    report: {
      placed: Number(response.headers.get('X-Cloud-Placed') ?? 0),
      dropped: wordsOf(response.headers.get('X-Cloud-Dropped')),
      missing: wordsOf(response.headers.get('X-Cloud-Missing')),
    },
  };
}
