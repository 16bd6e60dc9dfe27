// The font-creation service's calls (字体定制, /dingzhi): attachments go straight to storage with a
// ticket, then the request names them.
import type { CustomFontDetail, CustomFontPage, CustomFontRequestInput } from '../contract/custom-fonts.ts';
import type { UploadTicket } from '../contract/submissions.ts';
import { get, post } from './http.ts';
import { putWithTicket, type UploadRef } from './submissions.ts';

const D = '/web/api/dingzhi';
// The form shows every refusal beside the field it concerns, so these calls raise no toast.
const QUIET = { quiet: true } as const;

export const getAttachmentTicket = (query: { name: string; size: number; type: string }) =>
  get<UploadTicket>(`${D}/uploadTicket`, query, QUIET);

/** Asks for a ticket and uploads one attachment with it; answers what to name in the request. */
export async function uploadAttachment(file: File, onProgress?: (fraction: number) => void): Promise<UploadRef> {
  const ticket = await getAttachmentTicket({ name: file.name, size: file.size, type: file.type });
  await putWithTicket(ticket, file, onProgress);
  return { key: ticket.key, name: file.name };
}

export const sendCustomFontRequest = (body: CustomFontRequestInput) =>
  post<CustomFontDetail>(`${D}/request`, body, QUIET);
export const listMyCustomFontRequests = (query: { current?: number; size?: number } = {}) =>
  get<CustomFontPage>(`${D}/mine`, query);
export const getCustomFontRequest = (uid: string) => get<CustomFontDetail>(`${D}/detail`, { uid });
