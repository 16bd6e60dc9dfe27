import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NotificationItem } from '../../src/contract/messages.ts';
import { FINAL_CHANGED_CODE, type SubmissionDetail, type SubmissionEvent } from '../../src/contract/submissions.ts';
import { agreementSignatures, submissionFiles, submissions } from '../../src/server/db/schema/index.ts';
import type { Page } from '../../src/server/fonts/catalogue.ts';
import { AGREEMENT, AGREEMENT_SHA256 } from '../../src/server/signing/agreement.ts';
import { storage } from '../../src/server/storage/index.ts';
import { as, call, insertAccount, json, type LibraryFixture } from '../helpers/font-library.ts';
import { redrawnByFontTools, renamedByFontTools, withoutCharactersByFontTools } from '../helpers/font-writers.ts';
import { insertReviewer, openSubmissionSuite, type SubmissionSuite } from '../helpers/submission-suite.ts';
import { acceptedSubmission, BOLD, makeZip, REGULAR, uploadAs } from '../helpers/submissions.ts';

// What is published is what was reviewed: the final files of an accepted submission must be the
// same family, the same weights, at least the same characters and the same outlines as the font
// the reviewers accepted. Each kind of change is made here from the fixture family with fontTools,
// as a designer's tools would make it.

let suite: SubmissionSuite;
let library: LibraryFixture;
let app: Hono;
let designer: number;
let reviewer: number;

beforeAll(async () => {
  suite = await openSubmissionSuite('submission-final');
  ({ library, app } = suite);
  designer = await insertAccount(library.db, 'final-designer@example.com');
  reviewer = await insertReviewer(library.db, 'final-reviewer@example.com');
  await library.db.insert(agreementSignatures).values({
    accountId: designer,
    version: AGREEMENT.version,
    textSha256: AGREEMENT_SHA256,
    legalName: '林墨',
    creditName: '林墨',
    contact: 'final-designer@example.com',
    signatureKind: 'typed',
    pdfKey: 'private/signing/test.pdf',
  });
});

afterAll(async () => suite?.close());

const zip = (regular: Uint8Array | null, bold: Uint8Array | null) =>
  makeZip([
    ...(regular ? [{ name: 'MoXiangHei-Regular.ttf', data: regular }] : []),
    ...(bold ? [{ name: 'MoXiangHei-Bold.ttf', data: bold }] : []),
  ]);

async function uploadFinal(uid: string, bytes: Uint8Array, rereview?: boolean) {
  const file = await uploadAs(app, designer, 'final', bytes, '墨香黑-终稿.zip');
  return call<SubmissionDetail>(
    app,
    '/web/api/contribute/uploadContributeUltimatelyFont',
    as(designer, json('POST', { uid, file, ...(rereview === undefined ? {} : { rereview }) })),
  );
}

const finalRows = async (uid: string) => {
  const [row] = await library.db.select().from(submissions).where(eq(submissions.uid, uid));
  return library.db
    .select()
    .from(submissionFiles)
    .where(and(eq(submissionFiles.submissionId, row?.id ?? -1), eq(submissionFiles.kind, 'final')));
};

describe('final files that are not the reviewed design are refused, saying how they differ', () => {
  test.each([
    [
      'another family',
      () =>
        zip(
          renamedByFontTools(REGULAR, 'Mo Xiang Hei', 'Another Family Check'),
          renamedByFontTools(BOLD, 'Mo Xiang Hei', 'Another Family Check'),
        ),
      '家族名是“Another Family Check”，审核通过的是“Mo Xiang Hei”',
    ],
    ['a missing weight', () => zip(REGULAR, null), '缺少字重 Bold（700）'],
    [
      'a face with fewer glyphs',
      () => zip(REGULAR, withoutCharactersByFontTools(BOLD, '永和九')),
      'Bold（700）少了 3 个审核时有的字：九、和、永',
    ],
    [
      'a redrawn sample character',
      () => zip(redrawnByFontTools(REGULAR, '永', 0.8, 0), BOLD),
      '个字形与审核时不同：永（',
    ],
  ])('%s', async (_, make, difference) => {
    const uid = await acceptedSubmission(app, designer, reviewer);
    const before = await storage().list(`private/submissions/${uid}`);
    const answer = await uploadFinal(uid, make());
    expect(answer.status).toBe(409);
    expect(answer.code).toBe(FINAL_CHANGED_CODE);
    expect(answer.message).toMatch(/^终稿与审核通过的版本不一致：/);
    expect(answer.message).toContain(difference);
    expect(answer.message).toContain('作为新版本重新送审');
    // Nothing changed: still accepted, no final files, nothing left in storage; it cannot be published.
    const status = await call<{ status: string }>(app, `/web/api/contribute/queryStatusByid?uid=${uid}`, as(designer));
    expect(status.data.status).toBe('approved');
    expect(await finalRows(uid)).toEqual([]);
    expect(await storage().list(`private/submissions/${uid}`)).toEqual(before);
    expect((await call(app, '/web/api/review/publish', as(reviewer, json('POST', { uid })))).status).toBe(409);
  });
});

describe('final files that are the reviewed design', () => {
  test('re-saved by another tool, every point moved by a few units, they are the same design', async () => {
    const uid = await acceptedSubmission(app, designer, reviewer);
    const answer = await uploadFinal(
      uid,
      zip(redrawnByFontTools(REGULAR, '', 1, 4), redrawnByFontTools(BOLD, '', 1, 4)),
    );
    expect(answer.message).toBe('终稿已上传，等待编辑上架');
    expect(answer.data.status).toBe('finalized');
    expect(await finalRows(uid)).toHaveLength(1);
  });
});

describe('a changed design goes back to review when its designer sends it', () => {
  test('the changed files become the font under review, the reviewer is told why, and once accepted they are final', async () => {
    const uid = await acceptedSubmission(app, designer, reviewer);
    const redrawn = zip(redrawnByFontTools(REGULAR, '永', 0.8, 0), BOLD);
    const sent = await uploadFinal(uid, redrawn, true);
    expect(sent.status).toBe(200);
    expect(sent.message).toBe('改动后的终稿已重新送审，审核员会收到通知');
    expect(sent.data).toMatchObject({ status: 'resubmitted', round: 2 });
    expect(sent.data.fonts.map((font) => font.name)).toEqual(['墨香黑-终稿.zip']);
    expect(sent.data.finals).toEqual([]);

    const timeline = await call<SubmissionEvent[]>(
      app,
      `/web/api/contribute/queryContributesProcessByUid?uid=${uid}`,
      as(designer),
    );
    const last = timeline.data.at(-1);
    expect(last).toMatchObject({ action: 'rereview', status: 'resubmitted', byReviewer: false });
    expect(last?.note).toContain('永（');
    const told = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?type=review', as(reviewer));
    expect(told.data.records[0]).toMatchObject({
      title: '投稿《墨香黑》的终稿有改动，重新送审',
      link: `/editor/submission/${uid}`,
    });
    expect(told.data.records[0]?.body).toContain('永（');

    // Reviewed and accepted again, the changed files are now the reviewed design.
    await call(app, '/web/api/review/claim', as(reviewer, json('POST', { uid })));
    await call(app, '/web/api/review/decide', as(reviewer, json('POST', { uid, action: 'accept' })));
    const final = await uploadFinal(uid, redrawn);
    expect(final.data.status).toBe('finalized');
  });
});
