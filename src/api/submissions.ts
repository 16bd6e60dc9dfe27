// The contribution flow's calls (SPEC §7 Common and Contribute, and the reviewers' review/*).
import type { SubmissionDetail, SubmissionFields, UploadPurpose, UploadTicket } from '../contract/submissions.ts';
import { API_BASE, get, post } from './http.ts';

const C = '/web/api/contribute';
// The forms show every refusal beside the field or step it concerns, so these calls raise no toast.
const QUIET = { quiet: true } as const;

/** A file put in storage, to name in a save. */
export interface UploadRef {
  key: string;
  name: string;
}

/** A field left blank: a draft may not have it yet. */
type Blankable<T> = { [K in keyof T]?: T[K] extends string ? T[K] | '' : T[K] };

/** What a save or a revision changes; a blank field is not filled in yet. */
export interface SubmissionChanges {
  fields?: Blankable<SubmissionFields>;
  font?: UploadRef;
  images?: UploadRef[];
  dropFiles?: number[];
}

export const getUploadTicket = (query: { purpose: UploadPurpose; name: string; size: number; type: string }) =>
  get<UploadTicket>(`${C}/getSTSToken`, query, QUIET);

/**
 * Sends a file straight to storage with its ticket, reporting progress (0–1). Browsers set
 * Content-Length themselves (from the body, so it matches the signed size) and refuse to be told it.
 */
export function putWithTicket(
  ticket: UploadTicket,
  file: Blob,
  onProgress?: (fraction: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(ticket.method, /^https?:/.test(ticket.url) ? ticket.url : `${API_BASE}${ticket.url}`);
    for (const [name, value] of Object.entries(ticket.headers)) {
      if (name.toLowerCase() !== 'content-length') xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress?.(event.loaded / event.total);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(uploadError(xhr))));
    xhr.onerror = () => reject(new Error('上传中断，请检查网络后重试'));
    xhr.send(file);
  });
}

function uploadError(xhr: XMLHttpRequest): string {
  try {
    return (JSON.parse(xhr.responseText) as { message?: string }).message ?? '上传失败，请重试';
  } catch {
    return '上传失败，请重试';
  }
}

/** Asks for a ticket and uploads the file with it; answers what to name in a save. */
export async function uploadFile(
  purpose: UploadPurpose,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<UploadRef> {
  const ticket = await getUploadTicket({ purpose, name: file.name, size: file.size, type: file.type });
  await putWithTicket(ticket, file, onProgress);
  return { key: ticket.key, name: file.name };
}

export const saveSubmission = (body: SubmissionChanges & { uid?: string }) =>
  post<SubmissionDetail>('/web/api/submission/saveSubmission', body, QUIET);
export const submitSubmission = (uid: string, note = '') => post<SubmissionDetail>(`${C}/submit`, { uid, note }, QUIET);
export const reviseSubmission = (body: SubmissionChanges & { uid: string }) =>
  post<SubmissionDetail>(`${C}/updateContributeById`, body, QUIET);
/** The final files; `rereview` sends files that changed the design back to review instead of refusing them. */
export const uploadFinalFont = (uid: string, file: UploadRef, rereview = false) =>
  post<SubmissionDetail>(`${C}/uploadContributeUltimatelyFont`, { uid, file, rereview }, QUIET);
export const deleteDraft = (uid: string) => post<null>(`${C}/deleteContributeById`, { uid }, QUIET);
export const withdrawSubmission = (uid: string, note: string) =>
  post<SubmissionDetail>(`${C}/withdrawContributeById`, { uid, note }, QUIET);

/** The URL of a preview WOFF2 of a submitted face (owner and reviewers; sent with the login cookie). */
export const previewUrl = (uid: string, file: number, face: number, text: string) =>
  `${API_BASE}${C}/preview?${new URLSearchParams({ uid, file: String(file), face: String(face), text })}`;

export const claimSubmission = (uid: string) => post<SubmissionDetail>('/web/api/review/claim', { uid }, QUIET);
export const decideSubmission = (body: {
  uid: string;
  action: 'request_changes' | 'accept' | 'reject';
  note: string;
  comments: Array<{ item: string; body: string }>;
}) => post<SubmissionDetail>('/web/api/review/decide', body, QUIET);
export const publishSubmission = (uid: string) => post<SubmissionDetail>('/web/api/review/publish', { uid }, QUIET);
