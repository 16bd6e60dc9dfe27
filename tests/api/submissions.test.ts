import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NotificationItem } from '../../src/contract/messages.ts';
import type {
  SubmissionDetail,
  SubmissionEvent,
  SubmissionPage,
  SubmissionStatusView,
  UploadTicket,
} from '../../src/contract/submissions.ts';
import { listEditorActions } from '../../src/server/audit/editor-log.ts';
import { searchContent } from '../../src/server/content/search.ts';
import {
  agreementSignatures,
  fontFamilies,
  fonts,
  submissionFiles,
  submissions,
} from '../../src/server/db/schema/index.ts';
import { AGREEMENT, AGREEMENT_SHA256 } from '../../src/server/signing/agreement.ts';
import { storage } from '../../src/server/storage/index.ts';
import { TICKETS_PER_TEN_MINUTES } from '../../src/server/storage/uploads.ts';
import { subsetFonts } from '../../src/server/webfont/subset.ts';
import { as, call, insertAccount, json, type LibraryFixture } from '../helpers/font-library.ts';
import { passesOts } from '../helpers/font-oracle.ts';
import { insertReviewer, openSubmissionSuite, type SubmissionSuite } from '../helpers/submission-suite.ts';
import {
  BOLD,
  FIELDS,
  familyZip,
  LICENSE_ENTRY,
  makeZip,
  REGULAR,
  specimenPng,
  uploadAs,
} from '../helpers/submissions.ts';

let suite: SubmissionSuite;
let library: LibraryFixture;
let app: Hono;
let designer: number;
let other: number;
let editor: number;

beforeAll(async () => {
  suite = await openSubmissionSuite('submissions');
  ({ library, app } = suite);
  designer = await insertAccount(library.db, 'designer@example.com');
  other = await insertAccount(library.db, 'other@example.com');
  editor = await insertReviewer(library.db, 'editor@example.com');
});

afterAll(async () => suite?.close());

const post = <T>(account: number, path: string, body: unknown) =>
  call<T>(app, `/web/api/${path}`, as(account, json('POST', body)));
const get = <T>(account: number, path: string) => call<T>(app, `/web/api/${path}`, as(account));

describe('uploads straight to storage', () => {
  test('a ticket is a presigned PUT for one key, size and type; anything else is refused', async () => {
    const query = new URLSearchParams({
      purpose: 'font',
      name: '墨香黑.ttf',
      size: String(REGULAR.byteLength),
      type: 'font/ttf',
    });
    const ticket = await call<UploadTicket>(app, `/web/api/contribute/getSTSToken?${query}`, as(designer));
    expect(ticket.status).toBe(200);
    expect(ticket.data.url).toMatch(
      /^\/files\/tools\/incoming\/\d+-[0-9a-f-]{36}\/upload\.ttf\?X-Amz-Algorithm=AWS4-HMAC-SHA256&/,
    );
    expect(ticket.data.headers).toEqual({ 'content-length': String(REGULAR.byteLength), 'content-type': 'font/ttf' });
    const body = REGULAR as Uint8Array<ArrayBuffer>;

    // Tampered signature, another key, a different type: refused, nothing stored.
    const tampered = ticket.data.url.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_, c) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`,
    );
    expect((await app.request(tampered, { method: 'PUT', headers: ticket.data.headers, body })).status).toBe(403);
    const elsewhere = ticket.data.url.replace('/upload.ttf', '/other.ttf');
    expect((await app.request(elsewhere, { method: 'PUT', headers: ticket.data.headers, body })).status).toBe(403);
    const retyped = await app.request(ticket.data.url, {
      method: 'PUT',
      headers: { ...ticket.data.headers, 'content-type': 'image/png' },
      body,
    });
    expect(retyped.status).toBe(403);
    expect(await storage().stat(ticket.data.key)).toBeUndefined();

    const put = await app.request(ticket.data.url, { method: 'PUT', headers: ticket.data.headers, body });
    expect(put.status).toBe(200);
    expect((await storage().stat(ticket.data.key))?.size).toBe(REGULAR.byteLength);
    // The incoming area is never served.
    expect((await app.request(`/files/${ticket.data.key}`)).status).toBe(404);
  });

  test('an account taking ticket after ticket is slowed down with a Chinese 429', async () => {
    const flood = await insertAccount(library.db, 'flood@example.com');
    const query = new URLSearchParams({ purpose: 'image', name: 'a.png', size: '100', type: 'image/png' });
    const answers = [];
    for (let i = 0; i <= TICKETS_PER_TEN_MINUTES; i++) {
      answers.push(await call(app, `/web/api/contribute/getSTSToken?${query}`, as(flood)));
    }
    expect(answers.slice(0, -1).every((answer) => answer.status === 200)).toBe(true);
    expect(answers.at(-1)).toMatchObject({ status: 429, message: '上传太频繁，请稍后再试' });
    // Another account is not affected.
    expect((await call(app, `/web/api/contribute/getSTSToken?${query}`, as(other))).status).toBe(200);
  });

  test('a 2 GB file and a visitor are refused before anything is sent', async () => {
    const big = new URLSearchParams({
      purpose: 'font',
      name: 'huge.ttf',
      size: String(2 * 1024 ** 3),
      type: 'font/ttf',
    });
    const refused = await call(app, `/web/api/contribute/getSTSToken?${big}`, as(designer));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain('字体文件最大 80 MB');
    const visitor = await call(app, `/web/api/contribute/getSTSToken?${big}`);
    expect(visitor.status).toBe(401);
  });
});

describe('the sheets and templates of /tougao', () => {
  test('the GB 2312 sheet lists its 6763 characters in lines of 50, numbered', async () => {
    const res = await app.request('/web/api/contributeTemplate/file?name=gb2312-6763');
    expect(res.headers.get('content-disposition')).toContain("filename*=UTF-8''GB2312-6763");
    const lines = (await res.text()).split('\n').filter((line) => /^\d{4} {2}/.test(line));
    const chars = lines.flatMap((line) => [...line.slice(6)]);
    expect(chars).toHaveLength(6763);
    expect(new Set(chars).size).toBe(6763);
    expect(chars.slice(0, 3).join('')).toBe('啊阿埃');
    expect((await call(app, '/web/api/contributeTemplate/file?name=passwd')).status).toBe(400);
  });
});

describe('bad files get a clear reason and leave nothing behind', () => {
  async function firstSave(bytes: Uint8Array, name: string) {
    const ref = await uploadAs(app, designer, 'font', bytes, name);
    const answer = await post<SubmissionDetail>(designer, 'submission/saveSubmission', {
      fields: { fontName: '坏文件' },
      font: ref,
    });
    expect(await storage().stat(ref.key)).toBeUndefined();
    return answer;
  }

  test.each([
    ['a PNG renamed .otf', async () => specimenPng(), 'fake.otf', '不是字体文件'],
    ['a font cut short', async () => REGULAR.slice(0, 3000), 'cut.ttf', '字体文件'],
    [
      'a zip with a path out of the archive',
      async () => makeZip([{ name: '../evil.ttf', data: REGULAR }]),
      'slip.zip',
      '包外',
    ],
    [
      'a zip bomb',
      async () => makeZip([{ name: 'bomb.ttf', data: new Uint8Array(70 * 1024 * 1024), deflate: true }]),
      'bomb.zip',
      '过大',
    ],
    [
      'a zip whose entry lies about its size',
      async () =>
        makeZip([{ name: 'liar.ttf', data: new Uint8Array(8 * 1024 * 1024), deflate: true, declaredSize: 1000 }]),
      'liar.zip',
      '',
    ],
    [
      'a zip without fonts',
      async () => makeZip([{ name: 'readme.txt', data: new TextEncoder().encode('hi') }]),
      'empty.zip',
      '没有',
    ],
  ])('%s', async (_, make, name, reason) => {
    const before = await library.db.select().from(submissions);
    const answer = await firstSave(await make(), name);
    expect(answer.status).toBe(400);
    expect(answer.message).toMatch(/[\u4e00-\u9fff]/);
    if (reason) expect(answer.message).toContain(reason);
    expect(await library.db.select().from(submissions)).toEqual(before);
    expect(await storage().list('private/submissions')).toEqual([]);
  });
});

describe('from draft to library font', () => {
  let uid: string;
  let fontFileId: number;

  test('a draft is saved step by step and resumed; the zip of weights is checked and described', async () => {
    const zip = makeZip([
      { name: 'MoXiangHei/MoXiangHei-Regular.ttf', data: REGULAR, deflate: true },
      { name: 'MoXiangHei/MoXiangHei-Bold.ttf', data: BOLD, deflate: true },
      { name: 'MoXiangHei/OFL.txt', data: new TextEncoder().encode('Copyright 2026 林墨\nSIL Open Font License 1.1') },
      { name: '__MACOSX/._MoXiangHei-Regular.ttf', data: new Uint8Array(10) },
    ]);
    const first = await post<SubmissionDetail>(designer, 'submission/saveSubmission', {
      fields: { fontName: '墨香黑' },
    });
    expect(first.status).toBe(200);
    expect(first.data.status).toBe('draft');
    uid = first.data.uid;

    const font = await uploadAs(app, designer, 'font', zip, '墨香黑.zip');
    const withFont = await post<SubmissionDetail>(designer, 'submission/saveSubmission', { uid, font });
    expect(withFont.status).toBe(200);
    const [file] = withFont.data.fonts;
    fontFileId = file?.id ?? 0;
    expect(file?.faces.map((face) => [face.weight, face.format, face.fullName])).toEqual([
      [400, 'ttf', 'Mo Xiang Hei Regular'],
      [700, 'ttf', 'Mo Xiang Hei Bold'],
    ]);
    expect(file?.faces[0]?.coverage.gb2312).toBeGreaterThan(0);

    // The specimen is a real picture, shown to the designer and to nobody else but reviewers.
    const specimen = await app.request(file?.faces[0]?.specimenUrl ?? '', as(designer));
    expect(specimen.headers.get('content-type')).toBe('image/png');
    expect((await app.request(file?.faces[0]?.specimenUrl ?? '', as(other))).status).toBe(404);

    const image = await uploadAs(app, designer, 'image', await specimenPng(), '样张.png');
    const withImage = await post<SubmissionDetail>(designer, 'submission/saveSubmission', { uid, images: [image] });
    expect(withImage.data.images).toHaveLength(1);
    expect(withImage.data.images[0]?.width).toBe(800);

    const resumed = await get<SubmissionDetail>(designer, 'contribute/queryUserLastContributeFont');
    expect(resumed.data.uid).toBe(uid);
    expect(resumed.data.fonts).toHaveLength(1);

    // A preview of the submitted face, through the subset workers.
    const preview = await app.request(
      `/web/api/contribute/preview?uid=${uid}&file=${fontFileId}&face=1&text=永和`,
      as(designer),
    );
    expect(preview.headers.get('content-type')).toBe('font/woff2');
    // 𠀀 is not in the face: the answer says so, and the page boxes it instead of a fallback's glyph.
    const lacking = await app.request(
      `/web/api/contribute/preview?uid=${uid}&file=${fontFileId}&text=${encodeURIComponent('永𠀀')}`,
      as(designer),
    );
    expect(decodeURIComponent(lacking.headers.get('x-missing-characters') ?? '')).toBe('𠀀');
    expect(passesOts(new Uint8Array(await preview.arrayBuffer()))).toBe(true);
  });

  test('submitting says what is missing, then moves the draft into review', async () => {
    const early = await post(designer, 'contribute/submit', { uid });
    expect(early.status).toBe(400);
    expect(early.message).toMatch(/^还缺少：风格分类、适用文字、设计师署名/);
    const bad = await post(designer, 'submission/saveSubmission', { uid, fields: { nameEn: '墨香' } });
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('英文名称');
    expect((await post(designer, 'submission/saveSubmission', { uid, fields: FIELDS })).status).toBe(200);
    const submitted = await post<SubmissionDetail>(designer, 'contribute/submit', { uid });
    expect(submitted.status).toBe(200);
    expect(submitted.data.status).toBe('submitted');
    expect(submitted.data.round).toBe(1);
    expect((await post(designer, 'submission/saveSubmission', { uid, fields: { fontName: '改名' } })).status).toBe(409);
    const status = await get<SubmissionStatusView>(designer, `contribute/queryStatusByid?uid=${uid}`);
    expect(status.data).toEqual({ uid, status: 'submitted', statusName: '待审核' });
  });

  test('only reviewers review; other designers do not even see it', async () => {
    expect((await post(designer, 'review/claim', { uid })).status).toBe(403);
    expect((await post(other, 'review/claim', { uid })).status).toBe(403);
    expect((await get(other, `contribute/queryContributeFontInfoByUid?uid=${uid}`)).status).toBe(404);
    expect((await get(designer, 'review/queue')).status).toBe(403);
    const queue = await get<SubmissionPage>(editor, 'review/queue');
    expect(queue.data.records.map((record) => record.uid)).toEqual([uid]);
  });

  test('the reviewer claims, comments per item and sends it back; the designer is told', async () => {
    const claimed = await post<SubmissionDetail>(editor, 'review/claim', { uid });
    expect(claimed.data.status).toBe('reviewing');
    expect(claimed.data.reviewer).toBe('审稿人');
    // Accepting needs no note, but sending back needs at least one comment.
    expect((await post(editor, 'review/decide', { uid, action: 'request_changes' })).status).toBe(400);
    const back = await post<SubmissionDetail>(editor, 'review/decide', {
      uid,
      action: 'request_changes',
      comments: [
        { item: `font:${fontFileId}`, body: '粗体的“永”字捺笔过重，请调整。' },
        { item: 'field:description', body: '请补充适用场景。' },
      ],
    });
    expect(back.data.status).toBe('needs_revision');
    expect(back.data.comments.map((c) => [c.item, c.round])).toEqual([
      [`font:${fontFileId}`, 1],
      ['field:description', 1],
    ]);
    const messages = await call<{ records: NotificationItem[] }>(
      app,
      '/api/v1/web/notifyList?current=1&size=10&type=review',
      as(designer),
    );
    expect(messages.data.records[0]?.title).toBe('你的投稿《墨香黑》待修改');
    expect(messages.data.records[0]?.link).toBe(`/user/submission/${uid}`);
  });

  test('the designer re-uploads and resubmits; the old file stays in history', async () => {
    const font = await uploadAs(app, designer, 'font', familyZip(), '墨香黑-v2.zip');
    const revised = await post<SubmissionDetail>(designer, 'contribute/updateContributeById', {
      uid,
      font,
      fields: { description: `${FIELDS.description}适用于网页正文与电子书。` },
    });
    expect(revised.status).toBe(200);
    expect(revised.data.fonts[0]?.name).toBe('墨香黑-v2.zip');
    const rows = await library.db.select().from(submissionFiles).where(eq(submissionFiles.kind, 'font'));
    expect(rows.filter((row) => row.replacedAt !== null)).toHaveLength(1);
    const again = await post<SubmissionDetail>(designer, 'contribute/submit', { uid, note: '已按意见修改' });
    expect(again.data.status).toBe('resubmitted');
    expect(again.data.round).toBe(2);
  });

  test('accepted, the designer must sign before the final files; publishing makes a library font', async () => {
    await post(editor, 'review/claim', { uid });
    expect((await post<SubmissionDetail>(editor, 'review/decide', { uid, action: 'accept' })).data.status).toBe(
      'approved',
    );

    const final = await uploadAs(app, designer, 'final', familyZip(), '墨香黑-终稿.zip');
    const unsigned = await post(designer, 'contribute/uploadContributeUltimatelyFont', { uid, file: final });
    expect(unsigned.status).toBe(403);
    expect(unsigned.message).toContain('签署');
    expect((await post(editor, 'review/publish', { uid })).status).toBe(409);

    await library.db.insert(agreementSignatures).values({
      accountId: designer,
      version: AGREEMENT.version,
      textSha256: AGREEMENT_SHA256,
      legalName: '林墨',
      creditName: '林墨',
      contact: 'designer@example.com',
      signatureKind: 'typed',
      pdfKey: 'private/signing/test.pdf',
    });
    const again = await uploadAs(app, designer, 'final', familyZip([LICENSE_ENTRY]), '墨香黑-终稿.zip');
    const finalized = await post<SubmissionDetail>(designer, 'contribute/uploadContributeUltimatelyFont', {
      uid,
      file: again,
    });
    expect(finalized.status).toBe(200);
    expect(finalized.data.status).toBe('finalized');
    expect((await get<unknown[]>(designer, `contribute/queryContributeUltimatelyByUid?uid=${uid}`)).data).toHaveLength(
      1,
    );

    // Searches have been answered from an index built before the font existed.
    const before = await searchContent({ keyword: '墨香黑', current: 1, size: 10 });
    expect(before.records.map((record) => record.url)).not.toContain('/font/mo-xiang-hei');
    const published = await post<SubmissionDetail>(editor, 'review/publish', { uid });
    expect(published.status).toBe(200);
    expect(published.data.status).toBe('published');
    expect(published.data.publishedGno).toBe('mo-xiang-hei');
    const [family] = await library.db.select().from(fontFamilies).where(eq(fontFamilies.gno, 'mo-xiang-hei'));
    expect(family).toMatchObject({ nameZh: '墨香黑', designer: '林墨', license: 'OFL-1.1', published: true });
    expect(family?.licenseText).toContain('Copyright 2026 林墨');
    const faces = await library.db
      .select()
      .from(fonts)
      .where(eq(fonts.familyId, family?.id ?? -1));
    expect(faces.map((face) => face.gno).sort()).toEqual(['mo-xiang-hei-400', 'mo-xiang-hei-700']);
    for (const face of faces) {
      const stored = await storage().get(face.fileKey);
      if (!stored) throw new Error(`missing ${face.fileKey}`);
      expect(passesOts(new Uint8Array(await buffer(stored.body)))).toBe(true);
    }
    // The very first search after publishing finds it.
    const found = await searchContent({ keyword: '墨香黑', current: 1, size: 10 });
    expect(found.records[0]?.url).toBe('/font/mo-xiang-hei');
    const [preview] = await subsetFonts([{ gno: 'mo-xiang-hei-700', text: '永和' }]);
    expect(preview?.missing).toBe('');
  });

  test('the timeline records every move with who and why', async () => {
    const timeline = await get<SubmissionEvent[]>(designer, `contribute/queryContributesProcessByUid?uid=${uid}`);
    expect(timeline.data.map((event) => [event.action, event.status, event.byReviewer])).toEqual([
      ['create', 'draft', false],
      ['submit', 'submitted', false],
      ['claim', 'reviewing', true],
      ['request_changes', 'needs_revision', true],
      ['resubmit', 'resubmitted', false],
      ['claim', 'reviewing', true],
      ['accept', 'approved', true],
      ['finalize', 'finalized', false],
      ['publish', 'published', true],
    ]);
    expect(timeline.data[4]?.note).toBe('已按意见修改');
    // Each reviewer move is in the editing area's log too.
    const log = await listEditorActions({ current: 1, size: 20 }, library.db);
    expect(log.records.map((record) => record.action).reverse()).toEqual([
      'submission.claim',
      'submission.request_changes',
      'submission.claim',
      'submission.accept',
      'submission.publish',
    ]);
    expect(new Set(log.records.map((record) => record.editor))).toEqual(new Set(['审稿人']));
    const mine = await post<SubmissionPage>(designer, 'contribute/queryContributeFontsByAccountIdPage', {
      current: 1,
      size: 10,
    });
    expect(mine.data.records.map((record) => [record.uid, record.status])).toEqual([[uid, 'published']]);
    expect(
      (await post<SubmissionPage>(other, 'contribute/queryContributeFontsByAccountIdPage', { current: 1, size: 10 }))
        .data.total,
    ).toBe(0);
  });
});
