// Shapes shared by the API modules (DESIGN.md "Contracts every part keeps"); the answers' own shapes
// come from src/contract, which the server uses too.
import type { Envelope, Page } from '../contract/envelope.ts';

export type { Envelope, Page };

/** Paging parameters of list calls; `current` is 1-based. */
export interface PageQuery {
  current?: number;
  size?: number;
}

/** An identifier as the server sends it (numeric ids, or slugs such as a font's gno). */
export type Id = number | string;

/** Query parameters of a GET call. */
export type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;
