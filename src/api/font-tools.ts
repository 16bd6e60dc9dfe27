// The font tools' calls (issue 7): upload a font for a while, start a conversion or a subset, and
// read the job that does the work. Uploads go through XMLHttpRequest because fetch cannot report
// upload progress in every browser yet.

import type {
  FontFormat,
  PixelEdit,
  PixelOptions,
  PixelPreview,
  PixelProject,
  PixelProjectData,
  PixelProjectSummary,
  SubsetCharset,
  SubsetFormat,
  UploadedFont,
} from '../contract/tools.ts';
import type { JobView } from '../lib/tools-types.ts';
import { showToast } from '../stores/toast.ts';
import { $token } from '../stores/user.ts';
import { httpErrorMessage, NETWORK_MESSAGE } from './errors.ts';
import { API_BASE, http, RequestError, SUCCESS_CODE, TOKEN_HEADER } from './http.ts';

export type { FontFormat, PixelEdit, PixelOptions, PixelPreview, SubsetCharset, SubsetFormat, UploadedFont };

/** Formats the converter writes. */
export type ConvertFormat = 'ttf' | 'otf' | 'woff' | 'woff2' | 'eot' | 'svg';
/** Character sets the subset generator knows by name. */

/** Where a tool reads its font from: an upload, or a font of the library. */
export type FontSource = { fileId: string } | { fontId: number };

/** What the conversion call takes. */
export interface ConvertRequest {
  source: FontSource;
  formats: ConvertFormat[];
  faceIndex?: number;
}

/** What the subset call takes. */
export interface SubsetRequest {
  source: FontSource;
  text?: string;
  charsets?: SubsetCharset[];
  formats: SubsetFormat[];
}

/** Starts a conversion; the answer names the job to poll. */
export const startConvert = (request: ConvertRequest) =>
  http<{ jobId: string }>('/tools/api/convert', { method: 'POST', body: request });

/** Starts a subset; the answer names the job to poll. */
export const startSubset = (request: SubsetRequest) =>
  http<{ jobId: string }>('/tools/api/subset', { method: 'POST', body: request });

/** Reads a job. Quiet: the poller decides what a failed read means. */
export const getJob = (jobId: string, signal?: AbortSignal) =>
  http<JobView>(`/tools/api/jobs/${encodeURIComponent(jobId)}`, { quiet: true, ...(signal ? { signal } : {}) });

function envelopeOf(text: string): { code?: unknown; message?: unknown; data?: unknown } | undefined {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Uploads a font for the tools, reporting progress as a share of the bytes sent (0 to 1). A failure
 * rejects with a RequestError whose message is the server's Chinese text (too large, not a font …)
 * and shows it as a toast, like every other call.
 */
export function uploadFont(file: File, onProgress: (share: number) => void, signal?: AbortSignal) {
  return new Promise<UploadedFont>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const fail = (message: string, status?: number, code?: string) => {
      showToast(message, 'error');
      reject(new RequestError(message, status, code));
    };
    xhr.open('POST', `${API_BASE}/tools/api/upload`);
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const token = $token.get();
    if (token) xhr.setRequestHeader(TOKEN_HEADER, token);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const body = envelopeOf(xhr.responseText);
      const message = typeof body?.message === 'string' ? body.message : undefined;
      if (xhr.status >= 200 && xhr.status < 300 && String(body?.code) === SUCCESS_CODE) {
        resolve(body?.data as UploadedFont);
      } else if (xhr.status >= 200 && xhr.status < 300) {
        fail(message || '上传未成功，请稍后再试', xhr.status, body?.code ? String(body.code) : undefined);
      } else {
        fail(httpErrorMessage(xhr.status, message), xhr.status, body?.code ? String(body.code) : undefined);
      }
    });
    xhr.addEventListener('error', () => fail(NETWORK_MESSAGE));
    xhr.addEventListener('abort', () => reject(new DOMException('上传已取消', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** What the pixel-font maker's calls take besides the text: the font and how to draw it. */
export interface PixelRequestBase {
  source: FontSource;
  options: PixelOptions;
  /** Glyphs redrawn by hand; they replace the drawn ones. */
  edits?: PixelEdit[];
}

/** Draws a line as the pixel font will look (task 146). Quiet: the tool shows the error inline. */
export const previewPixelFont = (request: PixelRequestBase & { text: string }, signal?: AbortSignal) =>
  http<PixelPreview>('/tools/api/pixel/preview', {
    method: 'POST',
    body: request,
    quiet: true,
    ...(signal ? { signal } : {}),
  });

/** Starts making the pixel font (task 143); the answer names the job to poll. */
export const startPixelFont = (
  request: PixelRequestBase & { charsets?: SubsetCharset[]; text?: string; family: string; weight: number },
) => http<{ jobId: string }>('/tools/api/pixel', { method: 'POST', body: request });

/** The signed-in user's saved pixel-font projects. */
export const listPixelProjects = () => http<PixelProjectSummary[]>('/tools/api/pixel/projects');

/** One saved project, whole. */
export const getPixelProject = (id: number) => http<PixelProject>(`/tools/api/pixel/projects/${id}`);

/** Saves a project: a new one, or over the project `id`. */
export const savePixelProject = (project: PixelProjectData & { name: string }, id?: number) =>
  id === undefined
    ? http<PixelProjectSummary>('/tools/api/pixel/projects', { method: 'POST', body: project })
    : http<PixelProjectSummary>(`/tools/api/pixel/projects/${id}`, { method: 'PUT', body: project });
