// Writes the browser may send again when it heard no answer (a node died under it, the connection
// broke): each carries an `Idempotency-Key` made once per write, and the server answers a key it has
// seen with the first answer instead of doing the write twice (src/server/http/idempotency.ts).

/** The request header that names one write. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The answer header that says the answer is the one given to the first sending of this write. */
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';

/** What a key looks like: the browser sends a random UUID; other clients may send up to 100 such characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{8,100}$/;

/**
 * The writes the server keeps answers for, by method and path: the ones whose doubling would be felt
 * (a favourite kept, a favourites folder made, a submission saved or sent, a custom-font request, a
 * tool job started). The browser sends these again once after a network error.
 */
export const IDEMPOTENT_WRITES: readonly string[] = [
  ...['/web/api/favorite', '/web/api/collection'].flatMap((base) =>
    ['addColl', 'deleteColl', 'addArt', 'deleteArt'].map((call) => `POST ${base}/${call}`),
  ),
  ...['/web/api/collection', '/web/api/fontOverride/collection'].flatMap((base) =>
    ['addFont', 'deleteFont', 'add'].map((call) => `POST ${base}/${call}`),
  ),
  'POST /web/api/submission/saveSubmission',
  'POST /web/api/contribute/submit',
  'POST /web/api/contribute/updateContributeById',
  'POST /web/api/contribute/uploadContributeUltimatelyFont',
  'POST /web/api/dingzhi/request',
  'POST /tools/api/convert',
  'POST /tools/api/subset',
  'POST /tools/api/pixel',
];

const listed = new Set(IDEMPOTENT_WRITES);

/** Whether the server keeps the answer of this write by its key (the path without its query). */
export function isIdempotentWrite(method: string, path: string): boolean {
  return listed.has(`${method.toUpperCase()} ${path.split('?')[0]}`);
}
