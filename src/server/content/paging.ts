import type { Page } from '../fonts/catalogue.ts';

export type { Page } from '../fonts/catalogue.ts';

/** Paging of a list: `current` is 1-based, `size` at most 100 (checked by the routes). */
export interface PageRequest {
  current: number;
  size: number;
}

/** Wraps one page of records in the SPEC list shape. */
export function toPage<T>(records: T[], total: number, request: PageRequest): Page<T> {
  return { records, total, size: request.size, current: request.current, pages: Math.ceil(total / request.size) };
}

/** The row offset of a page. */
export function offsetOf(request: PageRequest): number {
  return (request.current - 1) * request.size;
}

/** A neighbour of a detail page: the item shown before or after it in its list. */
export interface Neighbour {
  id: number;
  title: string;
}

/** A time as ISO-8601 UTC, or null. */
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}
