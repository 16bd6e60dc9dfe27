// Shapes shared by the API modules (DESIGN.md "Contracts every part keeps").

/** Every answer of the API: `code` is the string '200' on success (SPEC §7). */
export interface Envelope<T> {
  code: string;
  message: string;
  data: T;
}

/** Paging parameters of list calls; `current` is 1-based. */
export interface PageQuery {
  current?: number;
  size?: number;
}

/** One page of records. */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** An identifier as the server sends it (numeric ids, or slugs such as a font's gno). */
export type Id = number | string;

/** Query parameters of a GET call. */
export type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;
