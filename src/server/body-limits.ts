import { IDENTIFY_MAX_BYTES } from '../contract/identify.ts';
import { VIDEO_CAPTIONS_MAX_BYTES, VIDEO_POSTER_MAX_BYTES } from '../contract/videos.ts';
import { AVATAR_MAX_BYTES } from './accounts/avatar.ts';
import { env } from './env.ts';
import type { BodyPolicy } from './http/body-limit.ts';
import { MAX_MASK_BYTES } from './tools/wordcloud/masks.ts';

// Every request body the API takes, by route, in one table: what a caller may send, and what the
// body gate (http/body-limit.ts) holds each request to while it is read. Most calls take a few
// hundred bytes of JSON or form fields; the limits below leave room for the largest input each
// route's own schema accepts, written the way a client sends it (UTF-8 JSON, or a page's form with
// every CJK character percent-encoded as 9 bytes). Uploads stream to storage or a temporary file and
// are held to their file's limit by their own reader; the gate adds the room their form needs.
// tests/unit/body-limits.test.ts checks that every route the app answers with a body is listed.

const KB = 1024;
const MB = 1024 * KB;
/**
 * Room for multipart framing and the small fields around an uploaded file, and a little more: an
 * upload's own reader refuses a file over its limit in its own words (文件太大…), and the gate is the
 * backstop behind it.
 */
const FORM_SLACK = 1 * MB + 256 * KB;

const data = (maxBytes: number): BodyPolicy => ({ kind: 'data', maxBytes });
const upload = (maxBytes: number): BodyPolicy => ({ kind: 'upload', maxBytes: maxBytes + FORM_SLACK });

/** A body for a call that takes an id or nothing at all. */
const ID = data(4 * KB);
/** Account forms, codes, a contact message (1000 characters), a move with its note. */
const FORM = data(16 * KB);
/** Texts of a few thousand characters: drafts, review notes, requests, announcements sent as page forms. */
const TEXT = data(64 * KB);

/** The body policy of each route, keyed 'METHOD path' as the app's routes write their paths. */
export function bodyPolicies(): Readonly<Record<string, BodyPolicy>> {
  const config = env();
  const favorites = (prefix: string) => ({
    [`POST ${prefix}/collection/addFont`]: ID,
    [`POST ${prefix}/collection/deleteFont`]: ID,
    [`POST ${prefix}/collection/add`]: ID,
    [`PUT ${prefix}/collection/update`]: ID,
    [`DELETE ${prefix}/collection/delete`]: ID,
  });
  return {
    ...favorites('/web/api'),
    ...favorites('/web/api/fontOverride'),
    // Up to 200 000 characters whose coverage the library is asked for.
    'POST /web/api/font/coverage': data(1 * MB),
    'POST /api/v1/web/notify/:id/read': ID,
    'POST /api/v1/web/notify/read-all': ID,
    'POST /api/v1/web/notify/settings': ID,
    'POST /web/api/messageBoard/save': FORM,
    'POST /web/api/collection/addColl': ID,
    'POST /web/api/collection/deleteColl': ID,
    'POST /web/api/collection/addArt': ID,
    'POST /web/api/collection/deleteArt': ID,
    'POST /web/api/favorite/addColl': ID,
    'POST /web/api/favorite/deleteColl': ID,
    'POST /web/api/favorite/addArt': ID,
    'POST /web/api/favorite/deleteArt': ID,
    'POST /web/api/editor/video': upload(
      config.VIDEO_MAX_UPLOAD_MB * MB + VIDEO_POSTER_MAX_BYTES + VIDEO_CAPTIONS_MAX_BYTES,
    ),
    'POST /web/api/editor/video/:id': TEXT,
    'POST /web/api/editor/video/:id/delete': ID,
    'POST /web/api/editor/rebuild': ID,
    'POST /web/api/editor/messageBoard/:id/reply': data(32 * KB),
    'POST /web/api/editor/announcement': TEXT,
    // An article of up to 100 000 characters, sent as the editor page's form.
    'POST /web/api/editor/:type/:id': data(2 * MB),
    'POST /web/api/login': FORM,
    'POST /web/api/sms-login': FORM,
    'POST /web/api/logout': ID,
    'POST /web/api/account/sendCode': FORM,
    'POST /web/api/account/register/phone': FORM,
    'POST /web/api/account/register/email': FORM,
    'POST /web/api/account/rest-code-verify': FORM,
    'PUT /web/api/account/rest-pwd': FORM,
    'PUT /web/api/account/update-account-pwd': FORM,
    'PUT /web/api/account/bind-account': FORM,
    'PUT /web/api/account/unbind-account': FORM,
    'POST /web/api/account/update-account-info': upload(AVATAR_MAX_BYTES),
    // A drawn signature is a PNG of up to 700 000 characters.
    'POST /web/api/signing': data(1 * MB),
    'POST /web/api/submission/saveSubmission': TEXT,
    'POST /web/api/contribute/submit': FORM,
    'POST /web/api/contribute/queryContributeFontsByAccountIdPage': ID,
    'POST /web/api/contribute/updateContributeById': TEXT,
    'POST /web/api/contribute/uploadContributeUltimatelyFont': ID,
    'POST /web/api/contribute/deleteContributeById': ID,
    'POST /web/api/contribute/withdrawContributeById': FORM,
    'POST /web/api/review/claim': ID,
    'POST /web/api/review/decide': data(256 * KB),
    'POST /web/api/review/publish': ID,
    'POST /web/api/dingzhi/request': TEXT,
    'POST /web/api/dingzhi/move': FORM,
    'POST /web/api/wechat/authorize': ID,
    'POST /web/api/wechat/callback': ID,
    'POST /captcha/get': ID,
    // A drag track of up to 24 KB, encrypted and encoded (auth/captcha.ts).
    'POST /captcha/check': data(48 * KB),
    // Up to 60 fonts with 5 000 characters of preview text each.
    'POST /webfont/http': data(1 * MB),
    'POST /tools/api/upload': upload(config.TOOLS_MAX_UPLOAD_MB * MB),
    'POST /tools/api/convert': ID,
    // Up to 20 000 characters to keep.
    'POST /tools/api/subset': data(128 * KB),
    'POST /tools/api/pixel/preview': data(1 * MB),
    'POST /tools/api/pixel': data(1 * MB),
    'POST /tools/api/pixel/projects': data(1 * MB),
    'PUT /tools/api/pixel/projects/:id': data(1 * MB),
    'DELETE /tools/api/pixel/projects/:id': ID,
    // Up to 50 000 characters of text, or 500 words.
    'POST /tools/api/word-cloud/words': data(384 * KB),
    'POST /tools/api/word-cloud/mask': upload(MAX_MASK_BYTES),
    'POST /tools/api/word-cloud': data(384 * KB),
    'POST /tools/api/identify/picture': upload(IDENTIFY_MAX_BYTES),
    'POST /tools/api/identify/glyphs': ID,
    'POST /tools/api/identify/characters': FORM,
    'POST /tools/api/identify/match': FORM,
    // A presigned upload: its size is part of its signature, checked before the body is read.
    'PUT /files/:key{.+}': { kind: 'signed', maxBytes: Number.MAX_SAFE_INTEGER },
  };
}
