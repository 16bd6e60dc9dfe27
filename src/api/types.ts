// Shapes shared by the API modules (DESIGN.md "Contracts every part keeps"); the answers' own shapes
// come from src/contract, which the server uses too.
import type { Envelope, Page } from '../contract/envelope.ts';
import type { paths } from '../contract/openapi.gen.ts';

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

/** A path of the API's OpenAPI document (src/contract/openapi.gen.ts, made from the routes' schemas). */
export type ApiPath = keyof paths;

/**
 * The JSON body the API document gives `method` on `path`: client functions type what they send
 * with it, so a field renamed or retyped in a route's schema fails the type check here (after
 * `npm run api:types`, which a test requires to be current).
 */
export type BodyOf<P extends ApiPath, M extends 'post' | 'put'> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
