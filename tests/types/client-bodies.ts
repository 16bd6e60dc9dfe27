// Compile-time check (run by `tsc --noEmit` in `npm run check`): what each browser client function
// sends is a body the API document accepts. The document's types (src/contract/openapi.gen.ts) are
// made from the routes' own zod schemas, and tests/unit/api-contract.test.ts fails when they are
// older than the routes, so a field renamed or retyped on the server fails here until the client
// follows. Client functions in src/api/account.ts and the message board take BodyOf<…> directly.
import type * as customFonts from '../../src/api/custom-fonts.ts';
import type * as fontTools from '../../src/api/font-tools.ts';
import type * as identify from '../../src/api/identify.ts';
import type * as submissions from '../../src/api/submissions.ts';
import type { BodyOf } from '../../src/api/types.ts';
import type * as userData from '../../src/api/user-data.ts';
import type * as wordCloud from '../../src/api/word-cloud.ts';

/** Compiles only when A is assignable to B. */
type Sends<A extends B, B> = [A, B];
type First<F extends (...args: never[]) => unknown> = Parameters<F>[0];

export type ClientBodies = [
  Sends<First<typeof fontTools.startConvert>, BodyOf<'/tools/api/convert', 'post'>>,
  Sends<First<typeof fontTools.startSubset>, BodyOf<'/tools/api/subset', 'post'>>,
  Sends<First<typeof fontTools.previewPixelFont>, BodyOf<'/tools/api/pixel/preview', 'post'>>,
  Sends<First<typeof fontTools.startPixelFont>, BodyOf<'/tools/api/pixel', 'post'>>,
  Sends<First<typeof fontTools.savePixelProject>, BodyOf<'/tools/api/pixel/projects', 'post'>>,
  Sends<First<typeof identify.findGlyphs>, BodyOf<'/tools/api/identify/glyphs', 'post'>>,
  Sends<First<typeof wordCloud.drawCloud>, BodyOf<'/tools/api/word-cloud', 'post'>>,
  Sends<First<typeof submissions.saveSubmission>, BodyOf<'/web/api/submission/saveSubmission', 'post'>>,
  Sends<First<typeof submissions.reviseSubmission>, BodyOf<'/web/api/contribute/updateContributeById', 'post'>>,
  Sends<First<typeof submissions.decideSubmission>, BodyOf<'/web/api/review/decide', 'post'>>,
  Sends<First<typeof userData.addFontGroup>, BodyOf<'/web/api/fontOverride/collection/add', 'post'>>,
  Sends<First<typeof userData.addFavoriteFont>, BodyOf<'/web/api/fontOverride/collection/addFont', 'post'>>,
  Sends<First<typeof userData.deleteFavoriteFont>, BodyOf<'/web/api/fontOverride/collection/deleteFont', 'post'>>,
  Sends<First<typeof userData.signAgreement>, BodyOf<'/web/api/signing', 'post'>>,
  Sends<First<typeof customFonts.sendCustomFontRequest>, BodyOf<'/web/api/dingzhi/request', 'post'>>,
];
