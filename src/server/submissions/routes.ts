import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  DESIGN_METHODS,
  DESIGN_ORIGINS,
  DESIGN_RULES,
  DESIGN_USAGES,
  type FieldRule,
  fieldProblem,
  type PlainField,
  SUBMISSION_FIELD_RULES,
  SUBMISSION_STATUS_NAMES,
  SUBMISSION_STATUSES,
} from '../../contract/submissions.ts';
import { type AccountResolver, requireAccount, sessionAccount, signedIn } from '../auth/current-account.ts';
import { readSfnt } from '../engine/sfnt.ts';
import { cmapOf } from '../engine/sfnt-info.ts';
import { contentDisposition } from '../fonts/download-routes.ts';
import { notFound, ok } from '../http/envelope.ts';
import { listChoice, listChoiceOr, pageQuery, validate } from '../http/validate.ts';
import { storage } from '../storage/index.ts';
import { codePointsOf } from '../webfont/subset.ts';
import { subsetPool } from '../webfont/subset-pool.ts';
import { callerOf, findVisible } from './access.ts';
import { assetKey, uploadTicket } from './files.ts';
import { uploadFinal } from './final.ts';
import { publishSubmission } from './publish.ts';
import { claimSubmission, decide, reviewQueue } from './review.ts';
import { reviseSubmission, saveDraft, submitSubmission } from './service.ts';
import { TEMPLATE_FILES, templateFile } from './templates.ts';
import { detailOf, fileOf, lastDraft, listOwn, timelineOf } from './views.ts';
import { deleteDraft, withdrawSubmission } from './withdraw.ts';

const keys = <T extends Record<string, unknown>>(record: T) =>
  Object.keys(record) as [keyof T & string, ...(keyof T & string)[]];

const uid = z
  .string()
  .trim()
  .regex(/^[0-9a-f-]{36}$/, '投稿编号格式不正确')
  .meta({ label: '投稿编号' });
const upload = z.object({
  key: z.string().max(300).meta({ label: '上传文件' }),
  name: z.string().trim().min(1).max(200).meta({ label: '文件名' }),
});
/** A plain information field, checked by the rules the submit form also reads (one source). */
function plainField(field: PlainField) {
  const rule: FieldRule = SUBMISSION_FIELD_RULES[field];
  const checked = z
    .string()
    .max(4000)
    .trim()
    .superRefine((value, context) => {
      const problem = fieldProblem(field, value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
  // Choices are listed for the API document; a blank one clears the field of a draft.
  const schema = rule.kind === 'choice' ? z.enum(['', ...rule.choices], '请从列表中选择').pipe(checked) : checked;
  return schema.meta({ label: rule.label });
}

const fields = z
  .object({
    ...(Object.fromEntries(
      (Object.keys(SUBMISSION_FIELD_RULES) as PlainField[]).map((field) => [field, plainField(field)]),
    ) as Record<PlainField, ReturnType<typeof plainField>>),
    design: z
      .object({
        origin: z.enum(keys(DESIGN_ORIGINS), '请从列表中选择').meta({ label: DESIGN_RULES.origin.label }),
        baseFont: z
          .string()
          .trim()
          .max(DESIGN_RULES.baseFont.max, `最多 ${DESIGN_RULES.baseFont.max} 个字`)
          .default('')
          .meta({ label: DESIGN_RULES.baseFont.label }),
        method: z.enum(keys(DESIGN_METHODS), '请从列表中选择').meta({ label: DESIGN_RULES.method.label }),
        usage: z.enum(keys(DESIGN_USAGES), '请从列表中选择').meta({ label: DESIGN_RULES.usage.label }),
        notes: z
          .string()
          .trim()
          .max(DESIGN_RULES.notes.max, `最多 ${DESIGN_RULES.notes.max} 个字`)
          .default('')
          .meta({ label: DESIGN_RULES.notes.label }),
      })
      .refine((design) => design.origin !== 'derived' || design.baseFont.length > 0, {
        message: '基于开源字体修改的作品，请填写原字体名称',
        path: ['baseFont'],
      })
      .meta({ label: DESIGN_RULES.label }),
  })
  .partial();
const changes = z.object({
  fields: fields.optional(),
  font: upload.optional(),
  images: z.array(upload).max(3, '展示图最多 3 张').optional(),
  dropFiles: z.array(z.number().int().min(1).max(2_147_483_647)).max(10).optional(),
});
const saveBody = changes.extend({ uid: uid.optional() });
const reviseBody = changes.extend({ uid });
const uidQuery = z.object({ uid });
const submitBody = z.object({
  uid,
  note: z.string().trim().max(500, '最多 500 个字').default('').meta({ label: '说明' }),
});
const finalBody = z.object({
  uid,
  file: upload,
  // Final files that changed the design go back to review instead of being refused.
  rereview: z.boolean().default(false).meta({ label: '重新送审' }),
});
const ticketQuery = z.object({
  purpose: z.enum(['font', 'image', 'final']).meta({ label: '用途' }),
  name: z.string().trim().min(1).max(200).meta({ label: '文件名' }),
  size: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ label: '文件大小' }),
  type: z.string().max(100).default('').meta({ label: '文件类型' }),
});
const listBody = pageQuery.extend({ status: listChoice(SUBMISSION_STATUSES, '状态') });
const assetQuery = z.object({
  uid,
  file: z.coerce.number().int().min(1).max(2_147_483_647).meta({ label: '文件编号' }),
  part: z
    .string()
    .regex(/^(image|specimen-\d{1,2}|face-\d{1,2})$/)
    .meta({ label: '文件部分' }),
});
const previewQuery = assetQuery.omit({ part: true }).extend({
  face: z.coerce.number().int().min(0).max(20).default(0).meta({ label: '字重' }),
  text: z.string().min(1, '预览文字不能为空').max(400, '预览文字最多 400 个字').meta({ label: '预览文字' }),
});
const templateQuery = z.object({ name: z.enum(keys(TEMPLATE_FILES), '没有这个模板').meta({ label: '模板' }) });
const queueQuery = pageQuery.extend({ filter: listChoiceOr(['open', ...SUBMISSION_STATUSES], 'open', '队列') });
const decideBody = z.object({
  uid,
  action: z.enum(['request_changes', 'accept', 'reject']).meta({ label: '审核结论' }),
  note: z.string().trim().max(2000, '审核意见最多 2000 个字').default('').meta({ label: '审核意见' }),
  comments: z
    .array(
      z.object({
        item: z
          .string()
          .regex(/^(general|field:[a-zA-Z]{1,30}|(font|image):\d{1,10})$/, '意见所属的项目不正确')
          .meta({ label: '项目' }),
        body: z.string().trim().max(1000, '每条意见最多 1000 个字').meta({ label: '意见' }),
      }),
    )
    .max(40, '一次最多 40 条意见')
    .default([]),
});

/**
 * The contribution flow (投稿), mounted at /web/api: SPEC §7 Common (contribute/getSTSToken,
 * submission/saveSubmission) and Contribute calls for designers, the asset and preview reads that
 * owners and reviewers share, and review/* for the editor role. Every call needs a login.
 */
export function submissionRoutes(options: { account?: AccountResolver } = {}): Hono {
  const resolve = options.account ?? sessionAccount;
  const routes = new Hono();
  const caller = async (c: Parameters<AccountResolver>[0]) => callerOf(await requireAccount(resolve, c));

  // The sheets and templates of /tougao, open to everyone.
  routes.get('/contributeTemplate/file', validate('query', templateQuery), async (c) => {
    const { name } = c.req.valid('query');
    const text = await templateFile(name);
    return c.body(`\ufeff${text}`, 200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Disposition': contentDisposition(TEMPLATE_FILES[name].file, `${name}.txt`),
      'Cache-Control': 'public, max-age=3600',
    });
  });

  routes.get('/contribute/getSTSToken', validate('query', ticketQuery), async (c) => {
    const { accountId } = await caller(c);
    return c.json(ok(await uploadTicket(accountId, c.req.valid('query'))));
  });
  routes.post('/submission/saveSubmission', signedIn(resolve), validate('json', saveBody), async (c) => {
    const { uid: id, ...rest } = c.req.valid('json');
    return c.json(ok(await saveDraft(await caller(c), id, rest), '草稿已保存'));
  });
  routes.get('/contribute/queryUserLastContributeFont', async (c) => c.json(ok(await lastDraft(await caller(c)))));
  routes.post('/contribute/submit', signedIn(resolve), validate('json', submitBody), async (c) => {
    const { uid: id, note } = c.req.valid('json');
    const detail = await submitSubmission(await caller(c), id, note);
    return c.json(
      ok(
        detail,
        detail.status === 'resubmitted' ? '已重新提交，审核员会尽快查看' : '已提交审核，约 5 个工作日内给出初审结果',
      ),
    );
  });
  routes.post(
    '/contribute/queryContributeFontsByAccountIdPage',
    signedIn(resolve),
    validate('json', listBody),
    async (c) => {
      const { current, size, status } = c.req.valid('json');
      return c.json(ok(await listOwn((await caller(c)).accountId, { current, size }, status)));
    },
  );
  routes.get('/contribute/queryContributesProcessByUid', validate('query', uidQuery), async (c) => {
    const row = await findVisible(await caller(c), c.req.valid('query').uid);
    return c.json(ok(await timelineOf(row)));
  });
  routes.get('/contribute/queryContributeFontInfoByUid', validate('query', uidQuery), async (c) => {
    const who = await caller(c);
    return c.json(ok(await detailOf(who, await findVisible(who, c.req.valid('query').uid))));
  });
  routes.get('/contribute/queryContributeUltimatelyByUid', validate('query', uidQuery), async (c) => {
    const who = await caller(c);
    return c.json(ok((await detailOf(who, await findVisible(who, c.req.valid('query').uid))).finals));
  });
  routes.get('/contribute/queryStatusByid', validate('query', uidQuery), async (c) => {
    const row = await findVisible(await caller(c), c.req.valid('query').uid);
    return c.json(ok({ uid: row.uid, status: row.status, statusName: SUBMISSION_STATUS_NAMES[row.status] }));
  });
  routes.post('/contribute/updateContributeById', signedIn(resolve), validate('json', reviseBody), async (c) => {
    const { uid: id, ...rest } = c.req.valid('json');
    return c.json(ok(await reviseSubmission(await caller(c), id, rest), '修改已保存'));
  });
  routes.post(
    '/contribute/uploadContributeUltimatelyFont',
    signedIn(resolve),
    validate('json', finalBody),
    async (c) => {
      const { uid: id, file, rereview } = c.req.valid('json');
      const detail = await uploadFinal(await caller(c), id, file, { rereview });
      return c.json(
        ok(
          detail,
          detail.status === 'resubmitted' ? '改动后的终稿已重新送审，审核员会收到通知' : '终稿已上传，等待编辑上架',
        ),
      );
    },
  );
  routes.post('/contribute/deleteContributeById', signedIn(resolve), validate('json', uidQuery), async (c) => {
    await deleteDraft(await caller(c), c.req.valid('json').uid);
    return c.json(ok(null, '草稿已删除'));
  });
  routes.post('/contribute/withdrawContributeById', signedIn(resolve), validate('json', submitBody), async (c) => {
    const { uid: id, note } = c.req.valid('json');
    return c.json(ok(await withdrawSubmission(await caller(c), id, note), '投稿已撤回，审核员会收到通知'));
  });

  // Pictures and faces of a submission, to its designer and the reviewers only.
  routes.get('/contribute/asset', validate('query', assetQuery), async (c) => {
    const { uid: id, file, part } = c.req.valid('query');
    const row = await findVisible(await caller(c), id);
    const asset = assetKey(await fileOf(row, file), part);
    const object = asset && (await storage().get(asset.key));
    if (!asset || !object) throw notFound('文件不存在');
    return c.body(Readable.toWeb(object.body) as ReadableStream, 200, {
      'Content-Type': asset.type,
      'Content-Length': String(object.size),
      'Cache-Control': 'private, max-age=3600',
    });
  });
  // A preview of a submitted face: a WOFF2 of just the text, made by the subset service's workers.
  routes.get('/contribute/preview', validate('query', previewQuery), async (c) => {
    const { uid: id, file, face, text } = c.req.valid('query');
    const row = await findVisible(await caller(c), id);
    const stored = await fileOf(row, file);
    const found = stored.report?.kind === 'font' ? stored.report.faces[face] : undefined;
    if (!found) throw notFound('字体不存在');
    const codePoints = codePointsOf(text);
    const { ttf, woff2 } = await subsetPool().run({ fontId: found.sha256, key: found.faceKey, codePoints, quality: 5 });
    // The characters the face lacks, so the page marks them instead of letting another font draw them.
    const mapped = cmapOf(readSfnt(ttf));
    const missing = String.fromCodePoint(...codePoints.filter((cp) => !mapped.has(cp) && cp !== 0x20 && cp !== 0x3000));
    return c.body(woff2 as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'font/woff2',
      'Cache-Control': 'private, max-age=3600',
      'X-Missing-Characters': encodeURIComponent(missing),
    });
  });

  // The reviewers' side (editor role).
  routes.get('/review/queue', validate('query', queueQuery), async (c) => {
    const { filter, current, size } = c.req.valid('query');
    return c.json(ok(await reviewQueue(await caller(c), filter, { current, size })));
  });
  routes.post('/review/claim', signedIn(resolve), validate('json', uidQuery), async (c) => {
    return c.json(ok(await claimSubmission(await caller(c), c.req.valid('json').uid), '已开始审核'));
  });
  routes.post('/review/decide', signedIn(resolve), validate('json', decideBody), async (c) => {
    const { uid: id, action, note, comments } = c.req.valid('json');
    const detail = await decide(await caller(c), id, action, note, comments);
    const said = {
      request_changes: '已退回修改，设计师会收到通知',
      accept: '已通过审核，等待设计师签约并上传终稿',
      reject: '已标记为未通过',
    };
    return c.json(ok(detail, said[action]));
  });
  routes.post('/review/publish', signedIn(resolve), validate('json', uidQuery), async (c) => {
    const detail = await publishSubmission(await caller(c), c.req.valid('json').uid);
    return c.json(ok(detail, '已上架到字体库'));
  });
  return routes;
}
