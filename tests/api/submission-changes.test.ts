import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NotificationItem } from '../../src/contract/messages.ts';
import {
  isRequired,
  type PlainField,
  SUBMISSION_FIELD_RULES,
  type SubmissionDetail,
  type SubmissionPage,
} from '../../src/contract/submissions.ts';
import { submissionEvents, submissionFiles, submissions } from '../../src/server/db/schema/index.ts';
import type { Page } from '../../src/server/fonts/catalogue.ts';
import { storage } from '../../src/server/storage/index.ts';
import { as, call, insertAccount, json, type LibraryFixture } from '../helpers/font-library.ts';
import { insertReviewer, openSubmissionSuite, type SubmissionSuite } from '../helpers/submission-suite.ts';
import { acceptedSubmission, FIELDS, familyZip, specimenPng, uploadAs } from '../helpers/submissions.ts';

// A designer can change their mind: delete a draft with its files, withdraw a submission before it
// is published. Every refusal names the field by its Chinese label; what the form marks 必填 is
// what the server requires; the messages say what to do next and lead to the submission.

let suite: SubmissionSuite;
let library: LibraryFixture;
let app: Hono;
let designer: number;
let stranger: number;
let reviewer: number;
let otherReviewer: number;

beforeAll(async () => {
  suite = await openSubmissionSuite('submission-changes');
  ({ library, app } = suite);
  designer = await insertAccount(library.db, 'changes-designer@example.com');
  stranger = await insertAccount(library.db, 'changes-stranger@example.com');
  reviewer = await insertReviewer(library.db, 'changes-reviewer@example.com');
  otherReviewer = await insertReviewer(library.db, 'changes-reviewer-2@example.com');
});

afterAll(async () => suite?.close());

const post = <T>(account: number, path: string, body: unknown) =>
  call<T>(app, `/web/api/${path}`, as(account, json('POST', body)));
const latestMessage = async (account: number) =>
  (await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?current=1&size=1&type=review', as(account))).data
    .records[0];

async function draftWithFiles(): Promise<string> {
  const saved = await post<SubmissionDetail>(designer, 'submission/saveSubmission', {
    fields: { fontName: '墨香黑' },
    font: await uploadAs(app, designer, 'font', familyZip(), '墨香黑.zip'),
    images: [await uploadAs(app, designer, 'image', await specimenPng(), '样张.png')],
  });
  expect(saved.status).toBe(200);
  return saved.data.uid;
}

describe('deleting a draft', () => {
  test('takes the draft, its rows and its files away; only its designer can, and only a draft', async () => {
    const uid = await draftWithFiles();
    expect((await storage().list(`private/submissions/${uid}`)).length).toBeGreaterThan(0);
    expect((await post(stranger, 'contribute/deleteContributeById', { uid })).status).toBe(404);

    const deleted = await post(designer, 'contribute/deleteContributeById', { uid });
    expect(deleted).toMatchObject({ status: 200, message: '草稿已删除' });
    expect(await library.db.select().from(submissions).where(eq(submissions.uid, uid))).toEqual([]);
    expect(await storage().list(`private/submissions/${uid}`)).toEqual([]);
    expect((await call(app, `/web/api/contribute/queryStatusByid?uid=${uid}`, as(designer))).status).toBe(404);
  });

  test('a submitted one is not deleted but may be withdrawn', async () => {
    const uid = await acceptedSubmission(app, designer, reviewer);
    const refused = await post(designer, 'contribute/deleteContributeById', { uid });
    expect(refused).toMatchObject({
      status: 409,
      message: '投稿当前为“审核通过”，只有草稿可以删除；已提交的投稿可以撤回',
    });
  });

  test('the sixth draft is refused with the way out, which now exists', async () => {
    const uids = [];
    for (let i = 0; i < 5; i++) {
      uids.push(
        (await post<SubmissionDetail>(designer, 'submission/saveSubmission', { fields: { fontName: `草稿${i}` } })).data
          .uid,
      );
    }
    const sixth = await post(designer, 'submission/saveSubmission', { fields: { fontName: '第六份' } });
    expect(sixth.status).toBe(400);
    expect(sixth.message).toContain('请先提交或删除草稿');
    expect((await post(designer, 'contribute/deleteContributeById', { uid: uids[0] })).status).toBe(200);
    expect((await post(designer, 'submission/saveSubmission', { fields: { fontName: '第六份' } })).status).toBe(200);
    for (const uid of uids.slice(1)) await post(designer, 'contribute/deleteContributeById', { uid });
  });
});

describe('withdrawing a submission', () => {
  test('in review: the state is withdrawn, the reviewer is told, the files are kept', async () => {
    const uid = await draftWithFiles();
    expect((await post(designer, 'submission/saveSubmission', { uid, fields: FIELDS })).status).toBe(200);
    expect((await post(designer, 'contribute/submit', { uid })).status).toBe(200);
    expect((await post(reviewer, 'review/claim', { uid })).status).toBe(200);
    const [row] = await library.db.select().from(submissions).where(eq(submissions.uid, uid));
    const filesBefore = await library.db
      .select()
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, row?.id ?? -1));
    const storedBefore = await storage().list(`private/submissions/${uid}`);

    expect((await post(stranger, 'contribute/withdrawContributeById', { uid })).status).toBe(404);
    expect((await post(reviewer, 'contribute/withdrawContributeById', { uid })).status).toBe(404);
    const withdrawn = await post<SubmissionDetail>(designer, 'contribute/withdrawContributeById', {
      uid,
      note: '想再打磨一年',
    });
    expect(withdrawn).toMatchObject({ status: 200, message: '投稿已撤回，审核员会收到通知' });
    expect(withdrawn.data).toMatchObject({ status: 'withdrawn', statusName: '已撤回' });
    expect(withdrawn.data.can).toMatchObject({ withdraw: false, delete: false, edit: false });

    // Kept for the record: the rows and the stored files.
    expect(
      await library.db
        .select()
        .from(submissionFiles)
        .where(eq(submissionFiles.submissionId, row?.id ?? -1)),
    ).toEqual(filesBefore);
    expect(await storage().list(`private/submissions/${uid}`)).toEqual(storedBefore);
    const [event] = await library.db.select().from(submissionEvents).where(eq(submissionEvents.action, 'withdraw'));
    expect(event).toMatchObject({ status: 'withdrawn', note: '想再打磨一年' });

    // The reviewer who had it is told, with the designer's reason and a link to it; the other is not.
    expect(await latestMessage(reviewer)).toMatchObject({
      title: '投稿《墨香黑》已被设计师撤回',
      link: `/editor/submission/${uid}`,
    });
    expect((await latestMessage(reviewer))?.body).toContain('想再打磨一年');
    expect(await latestMessage(otherReviewer)).toBeUndefined();

    // Nothing moves it any more, and it has left the reviewers' open queue.
    expect((await post(reviewer, 'review/decide', { uid, action: 'accept' })).status).toBe(409);
    expect((await post(designer, 'contribute/withdrawContributeById', { uid })).status).toBe(409);
    const open = await call<SubmissionPage>(app, '/web/api/review/queue', as(reviewer));
    expect(open.data.records.map((record) => record.uid)).not.toContain(uid);
    const gone = await call<SubmissionPage>(app, '/web/api/review/queue?filter=withdrawn', as(reviewer));
    expect(gone.data.records.map((record) => record.uid)).toContain(uid);
  });

  test('waiting for a reviewer: every reviewer is told', async () => {
    const uid = await draftWithFiles();
    await post(designer, 'submission/saveSubmission', { uid, fields: FIELDS });
    await post(designer, 'contribute/submit', { uid });
    expect((await post<SubmissionDetail>(designer, 'contribute/withdrawContributeById', { uid })).data.status).toBe(
      'withdrawn',
    );
    for (const account of [reviewer, otherReviewer]) {
      expect(await latestMessage(account)).toMatchObject({ title: '投稿《墨香黑》已被设计师撤回' });
    }
  });

  test('a draft is deleted, not withdrawn', async () => {
    const uid = await draftWithFiles();
    const refused = await post(designer, 'contribute/withdrawContributeById', { uid });
    expect(refused).toMatchObject({ status: 409, message: '草稿还没有提交，不需要撤回；不想要的草稿可以直接删除' });
    await post(designer, 'contribute/deleteContributeById', { uid });
  });
});

describe('what the forms say', () => {
  test('saving the first step with only the Chinese name keeps a draft, as the form sends it', async () => {
    const saved = await post<SubmissionDetail>(designer, 'submission/saveSubmission', {
      fields: { fontName: '只填了名字', designer: '', description: '' },
    });
    expect(saved.status).toBe(200);
    expect(saved.data.missing).toEqual([
      '英文名称',
      '风格分类',
      '适用文字',
      '设计师署名',
      '字体介绍（至少 20 个字）',
      '授权方式',
      '设计说明',
      '字体文件',
      '至少一张展示图',
    ]);
    await post(designer, 'contribute/deleteContributeById', { uid: saved.data.uid });
  });

  test.each([
    [{ fontName: '' }, '中文名称（fontName）：不能为空'],
    [
      { fontName: '墨', nameEn: '墨香' },
      '英文名称（nameEn）：以字母开头，只用字母、数字、空格和连字符，2 到 48 个字符',
    ],
    [{ fontName: '墨', category: '宋' }, '风格分类（category）：请从列表中选择'],
    [{ fontName: '墨', designer: '林'.repeat(41) }, '设计师署名（designer）：最多 40 个字'],
    [{ fontName: '墨', license: 'GPL' }, '授权方式（license）：请从列表中选择'],
    [
      { fontName: '墨', design: { ...FIELDS.design, origin: 'derived', baseFont: '' } },
      '原字体名称与许可证（baseFont）：基于开源字体修改的作品，请填写原字体名称',
    ],
    [{ fontName: '墨', design: { ...FIELDS.design, usage: 'poster' } }, '主要用途（usage）：请从列表中选择'],
  ])('%j is refused naming the field in Chinese', async (fields, message) => {
    const answer = await post(designer, 'submission/saveSubmission', { fields });
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(message);
  });

  // Every field the form marks 必填 is one a submission cannot go to review without, and the reverse.
  test.each(Object.keys(SUBMISSION_FIELD_RULES) as PlainField[])(
    '%s: 必填 on the form as the server requires',
    async (field) => {
      const rule = SUBMISSION_FIELD_RULES[field];
      const answer = await post(designer, 'submission/saveSubmission', { fields: { ...FIELDS, [field]: '' } });
      if (rule.need === 'draft') {
        expect(answer.status).toBe(400);
        expect(answer.message).toContain(rule.label);
        expect(isRequired(rule)).toBe(true);
        return;
      }
      const uid = (answer.data as SubmissionDetail).uid;
      const submitted = await post(designer, 'contribute/submit', { uid });
      expect(submitted.status === 400 && submitted.message.includes(rule.label)).toBe(isRequired(rule));
      await post(designer, 'contribute/deleteContributeById', { uid });
    },
  );

  test('the English name must be the family name in the font', async () => {
    const uid = await draftWithFiles();
    const saved = await post<SubmissionDetail>(designer, 'submission/saveSubmission', {
      uid,
      fields: { ...FIELDS, nameEn: 'Qiuyue Hei' },
    });
    expect(saved.data.problems).toEqual(['英文名称“Qiuyue Hei”与字体文件里的家族名“Mo Xiang Hei”不一致，请改成一致']);
    const refused = await post(designer, 'contribute/submit', { uid });
    expect(refused).toMatchObject({ status: 400, message: saved.data.problems[0] });
    // Spacing and case are not the name: “mo-xiang-hei” is the same family.
    await post(designer, 'submission/saveSubmission', { uid, fields: { nameEn: 'mo-xiang-hei' } });
    expect((await post(designer, 'contribute/submit', { uid })).status).toBe(200);
  });
});

describe('messages that say what to do next', () => {
  test('accepted: sign, then upload the final files, from a link to the submission', async () => {
    const uid = await acceptedSubmission(app, designer, reviewer);
    const message = await latestMessage(designer);
    expect(message).toMatchObject({ title: '你的投稿《墨香黑》审核通过', link: `/user/submission/${uid}` });
    expect(message?.body).toContain('下一步：先签署投稿协议（约两分钟），再在投稿页面上传终稿');
  });
});
