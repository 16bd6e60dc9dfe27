import { http, type RequestOptions } from './http.ts';

/** A value of a multipart field; arrays are sent as repeated `key[]` fields (SPEC §7). */
export type FormValue = string | number | boolean | Blob | null | undefined | (string | number | Blob)[];

/** What {@link uploadFile} sends. */
export interface UploadInput {
  file: Blob;
  /** The field that carries the file, `file` unless the endpoint says otherwise. */
  name?: string;
  filename?: string;
  data?: Record<string, FormValue>;
}

/** Builds multipart form data: arrays become `key[]` fields, null and undefined are left out. */
export function buildFormData(data: Record<string, FormValue>, form = new FormData()): FormData {
  for (const [key, value] of Object.entries(data)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value) form.append(`${key}[]`, item instanceof Blob ? item : String(item));
    } else {
      form.append(key, value instanceof Blob ? value : String(value));
    }
  }
  return form;
}

/** Uploads one file with optional extra fields through the main client. */
export function uploadFile<T>(path: string, input: UploadInput, options?: RequestOptions): Promise<T> {
  const form = buildFormData(input.data ?? {});
  const name = input.name ?? 'file';
  if (input.filename) form.append(name, input.file, input.filename);
  else form.append(name, input.file);
  return http<T>(path, { ...options, method: 'POST', body: form });
}

/** Posts plain fields as a multipart form. */
export function postForm<T>(path: string, data: Record<string, FormValue>, options?: RequestOptions): Promise<T> {
  return http<T>(path, { ...options, method: 'POST', body: buildFormData(data) });
}
