// What every API answer looks like, for the server that writes it and the browser that reads it.

/** Every answer of the API: `code` is the string '200' on success (SPEC §7). */
export interface Envelope<T> {
  code: string;
  message: string;
  data: T;
}

/** A page of records, the shape of every SPEC list answer. */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}
