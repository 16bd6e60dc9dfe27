import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type {
  CustomFontAction,
  CustomFontDetail,
  CustomFontPage,
  CustomFontQueue,
  CustomFontStage,
} from '../../src/contract/custom-fonts.ts';
import type { UploadTicket } from '../../src/contract/submissions.ts';
import { listEditorActions } from '../../src/server/audit/editor-log.ts';
import { setAuthContext } from '../../src/server/auth/context.ts';
import { readOutbox } from '../../src/server/auth/outbox.ts';
import { customFontRoutes } from '../../src/server/custom-fonts/routes.ts';
import {
  accounts,
  customFontRequestEvents,
  customFontRequestFiles,
  customFontRequests,
  notifications,
} from '../../src/server/db/schema/index.ts';
import { emailCopiesSent } from '../../src/server/messages/email-copies.ts';
import { storage } from '../../src/server/storage/index.ts';
import { fileRoutes } from '../../src/server/storage/routes.ts';
import {
  as,
  call,
  headerAccount,
  insertAccount,
  json,
  type LibraryFixture,
  openFixtureLibrary,
  routesApp,
} from '../helpers/font-library.ts';
import { makeZip, REGULAR, specimenPng } from '../helpers/submissions.ts';

let library: LibraryFixture;
let app: Hono;
let client: number;
let other: number;
let editor: number;

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

function tomorrow(): string {
  return new Date(Date.now() + 8 * 3600_000 + 24 * 3600_000).toISOString().slice(0, 10);
}

const FORM = {
  organisation: '青禾茶饮有限公司',
  contactName: '周宁',
  phone: '13800138000',
  email: 'zhouning@example.com',
  kind: 'brand',
  charset: 'gb2312',
  weights: 3,
  budget: '80k-200k',
  description: '为门店菜单、包装和线上广告定制一套品牌黑体，要求笔画圆润、与现有标志的弧度一致。',
};

beforeAll(async () => {
  library = await openFixtureLibrary('custom-fonts');
  // The real senders of a site without SMTP: e-mails land in DATA_DIR/outbox.
  setAuthContext(undefined);
  client = await insertAccount(library.db, 'client@example.com');
  other = await insertAccount(library.db, 'other@example.com');
  editor = await insertAccount(library.db, 'editor@example.com');
  await library.db.update(accounts).set({ role: 'editor', nickname: '商务编辑' }).where(eq(accounts.id, editor));
  app = routesApp((routes) => {
    routes.route('/web/api', customFontRoutes({ account: headerAccount }));
    routes.route('/files', fileRoutes());
  });
});

afterAll(async () => {
  await emailCopiesSent();
  setAuthContext(undefined);
  await library?.close();
});

beforeEach(async () => {
  await library.db.delete(customFontRequests);
  await library.db.delete(notifications);
});

const post = <T>(account: number, body: unknown) =>
  call<T>(app, '/web/api/dingzhi/request', as(account, json('POST', body)));
const get = <T>(account: number, url: string) => call<T>(app, `/web/api/dingzhi/${url}`, as(account));
const move = <T>(account: number, body: Record<string, string>, accept = 'application/json') =>
  app.request(
    '/web/api/dingzhi/move',
    as(account, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
      body: new URLSearchParams(body).toString(),
    }),
  ) as Promise<Response & { json(): Promise<{ code: string; message: string; data: T }> }>;

async function upload(account: number, bytes: Uint8Array, name: string, type = 'application/octet-stream') {
  const query = new URLSearchParams({ name, size: String(bytes.byteLength), type });
  const ticket = await get<UploadTicket>(account, `uploadTicket?${query}`);
  expect(ticket.status).toBe(200);
  const put = await app.request(ticket.data.url, {
    method: 'PUT',
    headers: ticket.data.headers,
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  expect(put.status).toBe(200);
  return { key: ticket.data.key, name };
}

async function rowCount(): Promise<number[]> {
  return [
    (await library.db.select().from(customFontRequests)).length,
    (await library.db.select().from(customFontRequestEvents)).length,
    (await library.db.select().from(customFontRequestFiles)).length,
  ];
}

async function newRequest(account = client): Promise<CustomFontDetail> {
  const answer = await post<CustomFontDetail>(account, { ...FORM, deadline: tomorrow() });
  expect(answer.status).toBe(200);
  return answer.data;
}

describe('sending a request', () => {
  test('stores the request with its attachments, told by their bytes, and confirms it by message and e-mail', async () => {
    const files = [
      await upload(client, await specimenPng(), '手写样张.png', 'image/png'),
      await upload(client, PDF, '品牌手册.pdf', 'application/pdf'),
      await upload(client, makeZip([{ name: 'scan-001.txt', data: new TextEncoder().encode('页 1') }]), '书页.zip'),
      await upload(client, REGULAR, '现用字体.ttf'),
    ];
    const answer = await post<CustomFontDetail>(client, { ...FORM, deadline: tomorrow(), attachments: files });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ stage: 'new', stageName: '待联系', kindName: '品牌定制字体', weights: 3 });
    expect(answer.data.files.map((file) => [file.name, file.type, file.url])).toEqual([
      ['手写样张.png', 'image', null],
      ['品牌手册.pdf', 'pdf', null],
      ['书页.zip', 'zip', null],
      ['现用字体.ttf', 'font', null],
    ]);
    // The uploads moved to the private folder: nothing is left in the incoming area.
    for (const file of files) expect(await storage().stat(file.key)).toBeUndefined();

    const [message] = await library.db.select().from(notifications).where(eq(notifications.accountId, client));
    expect(message).toMatchObject({ type: 'service', link: `/user/dingzhi/${answer.data.uid}` });
    expect(message?.title).toContain('已收到');
    await emailCopiesSent();
    const mails = (await readOutbox(path.join(library.dataDir, 'outbox'))).filter(
      (entry) => entry.recipient === 'zhouning@example.com',
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain('已收到');
    expect(mails[0]?.text).toContain(`/user/dingzhi/${answer.data.uid}`);
  });

  test.each([
    [{ organisation: '' }, '机构/公司名称（organisation）：请填写机构或公司名称（个人请填写姓名）'],
    [{ phone: '', email: '' }, '手机号（phone）：手机号和邮箱至少填写一项，方便我们联系你'],
    [{ phone: '12345' }, '手机号（phone）：手机号格式不正确'],
    [{ email: 'not-an-address' }, '邮箱（email）：邮箱格式不正确'],
    [{ kind: 'poster' }, '定制类型（kind）：请选择定制类型'],
    [{ charset: 'custom' }, '字数（customCount）：选择自定字数时，请填写需要的字数'],
    [{ weights: 40 }, '字重数量（weights）：最多 12 个字重'],
    [{ deadline: '2020-01-01' }, '期望交付日期（deadline）：期望交付日期应晚于今天'],
    [{ deadline: '2030-02-30' }, '期望交付日期（deadline）：日期格式不正确'],
    [{ budget: '1000000' }, '预算范围（budget）：请选择预算范围'],
    [{ description: '做字' }, '需求描述（description）：请简单描述用途和要求（至少 10 个字）'],
    [{ description: '字'.repeat(2001) }, '需求描述（description）：需求描述最多 2000 个字'],
  ])('refuses %o with a Chinese message and writes nothing', async (change, message) => {
    const answer = await post(client, { ...FORM, ...change });
    expect(answer).toMatchObject({ status: 400, message });
    expect(await rowCount()).toEqual([0, 0, 0]);
  });

  test('refuses text with NUL through the shared guard', async () => {
    const answer = await post(client, { ...FORM, description: `正常的描述文字\u0000还有更多` });
    expect(answer.status).toBe(400);
    expect(await rowCount()).toEqual([0, 0, 0]);
  });

  test('refuses a file that is not what it claims, someone else’s upload and a sixth attachment', async () => {
    const fake = await upload(client, new TextEncoder().encode('MZ this is a program, not a picture'), 'logo.png');
    const good = await upload(client, await specimenPng(), 'ok.png', 'image/png');
    const answer = await post(client, { ...FORM, attachments: [good, fake] });
    expect(answer.status).toBe(400);
    expect(answer.message).toContain('附件“logo.png”不是可以接收的文件');
    expect(await rowCount()).toEqual([0, 0, 0]);
    // Neither the refused file nor the good one stays in storage.
    expect(await storage().stat(fake.key)).toBeUndefined();
    expect(await storage().stat(good.key)).toBeUndefined();

    const theirs = await upload(other, PDF, 'a.pdf', 'application/pdf');
    expect(await post(client, { ...FORM, attachments: [theirs] })).toMatchObject({
      status: 400,
      message: '上传的文件不存在或不属于你，请重新上传',
    });
    const six = Array.from({ length: 6 }, () => theirs);
    expect(await post(other, { ...FORM, attachments: six })).toMatchObject({
      status: 400,
      message: '附件（attachments）：附件最多 5 个',
    });
    expect(await rowCount()).toEqual([0, 0, 0]);
  });

  test('refuses an attachment larger than the limit before anything is sent', async () => {
    const query = new URLSearchParams({ name: 'scan.tif', size: String(21 * 1024 * 1024), type: 'image/tiff' });
    expect(await get(client, `uploadTicket?${query}`)).toMatchObject({
      status: 400,
      message: '每个附件最大 20 MB，更大的资料请压缩或在沟通时另行发送',
    });
  });

  test('a visitor cannot send one, and one account sends at most five a day', async () => {
    expect((await call(app, '/web/api/dingzhi/request', json('POST', FORM))).status).toBe(401);
    for (let i = 0; i < 5; i++) await newRequest();
    const sixth = await post(client, FORM);
    expect(sixth.status).toBe(429);
    expect(sixth.message).toContain('一个账号一天最多提交 5 个定制需求');
    expect((await rowCount())[0]).toBe(5);
    // Another account is not affected.
    expect((await post(other, FORM)).status).toBe(200);
  });
});

describe('who sees a request', () => {
  test('the requester and editors see it; another account gets 404 and cannot download attachments', async () => {
    const pdf = await upload(client, PDF, '字表.pdf', 'application/pdf');
    const created = (await post<CustomFontDetail>(client, { ...FORM, attachments: [pdf] })).data;
    const mine = await get<CustomFontPage>(client, 'mine');
    expect(mine.data.records.map((record) => record.uid)).toEqual([created.uid]);
    expect((await get<CustomFontPage>(other, 'mine')).data.records).toEqual([]);
    expect((await get(other, `detail?uid=${created.uid}`)).status).toBe(404);

    const seen = await get<CustomFontDetail>(editor, `detail?uid=${created.uid}`);
    const url = seen.data.files[0]?.url ?? '';
    expect(url).toMatch(/^\/web\/api\/dingzhi\/attachment\?/);
    const download = await app.request(url, as(editor));
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''%E5%AD%97%E8%A1%A8.pdf");
    // Attachments are for the editors: not the requester, not another account, not by /files.
    expect((await app.request(url, as(client))).status).toBe(403);
    expect((await app.request(url, as(other))).status).toBe(403);
    const [row] = await library.db.select().from(customFontRequestFiles);
    expect((await app.request(`/files/${row?.fileKey}`)).status).toBe(404);
  });

  test('the queue is for editors, with the count of every stage', async () => {
    await newRequest();
    expect((await get(client, 'queue')).status).toBe(403);
    const queue = await get<CustomFontQueue>(editor, 'queue?filter=new');
    expect(queue.data.records).toHaveLength(1);
    expect(queue.data.counts).toMatchObject({ new: 1, contacted: 0, closed: 0 });
  });
});

describe('the lifecycle', () => {
  const moves: Array<[CustomFontAction, CustomFontStage, CustomFontStage, Record<string, string>]> = [
    ['contact', 'new', 'contacted', { note: '已电话沟通用途与字数' }],
    ['quote', 'contacted', 'quoted', { quote: '8 万–12 万元', note: '含三个字重，约 5 个月' }],
    ['quote', 'quoted', 'quoted', { quote: '9 万元', note: '按确认的字重修订' }],
    ['start', 'quoted', 'in_progress', {}],
    ['deliver', 'in_progress', 'delivered', { note: '字体文件和授权书已发送' }],
  ];

  async function at(stage: CustomFontStage): Promise<CustomFontDetail> {
    const created = await newRequest();
    await library.db.update(customFontRequests).set({ stage }).where(eq(customFontRequests.uid, created.uid));
    return created;
  }

  test.each(moves)(
    '%s moves %s to %s, with its event, log entry, message and e-mail',
    async (action, from, to, extra) => {
      const created = await at(from);
      const res = await move<CustomFontDetail>(editor, { uid: created.uid, action, from, ...extra });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.data.stage).toBe(to);
      const event = body.data.timeline.at(-1);
      expect(event).toMatchObject({ action, stage: to, note: extra['note'] ?? '', quote: extra['quote'] ?? '' });
      if (action === 'quote') expect(body.data.quote).toBe(extra['quote']);

      const log = await listEditorActions({ current: 1, size: 1 });
      expect(log.records[0]).toMatchObject({ action: `custom-font.${action}`, target: `custom-font:${created.uid}` });
      const messages = await library.db.select().from(notifications).where(eq(notifications.accountId, client));
      expect(messages).toHaveLength(2);
      const told = messages.find((message) => !message.title.includes('已收到'));
      expect(told?.type).toBe('service');
      if (extra['quote']) expect(told?.body).toContain(`报价：${extra['quote']}`);
      await emailCopiesSent();
      const mails = await readOutbox(path.join(library.dataDir, 'outbox'));
      // The outbox names files by the millisecond, so two mails of one test are found by subject, not order.
      expect(mails).toContainEqual(
        expect.objectContaining({ recipient: 'zhouning@example.com', subject: `造字联盟官网：${told?.title}` }),
      );
    },
  );

  test.each(['new', 'contacted', 'quoted', 'in_progress'] as const)(
    'close is allowed from %s with a reason',
    async (from) => {
      const created = await at(from);
      expect((await move(editor, { uid: created.uid, action: 'close' })).status).toBe(400);
      const res = await move<CustomFontDetail>(editor, {
        uid: created.uid,
        action: 'close',
        note: '客户预算调整，暂不制作',
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data.stage).toBe('closed');
    },
  );

  test.each([
    ['contact', 'contacted'],
    ['quote', 'new'],
    ['start', 'contacted'],
    ['deliver', 'quoted'],
    ['close', 'delivered'],
    ['close', 'closed'],
    ['contact', 'delivered'],
  ] as const)('%s from %s answers 409 and changes nothing', async (action, from) => {
    const created = await at(from);
    const res = await move(editor, { uid: created.uid, action, note: '说明原因', quote: '5 万元' });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/^需求当前为“.+”，不能/);
    const [row] = await library.db.select().from(customFontRequests).where(eq(customFontRequests.uid, created.uid));
    expect(row?.stage).toBe(from);
    expect(
      await library.db
        .select()
        .from(customFontRequestEvents)
        .where(eq(customFontRequestEvents.requestId, row?.id ?? 0)),
    ).toHaveLength(1);
  });

  test('the requester and another account may not move it (403), a quote needs an amount', async () => {
    const created = await newRequest();
    expect((await move(client, { uid: created.uid, action: 'contact' })).status).toBe(403);
    expect((await move(other, { uid: created.uid, action: 'contact' })).status).toBe(403);
    await move(editor, { uid: created.uid, action: 'contact' });
    const quote = await move(editor, { uid: created.uid, action: 'quote', note: '稍后给价' });
    expect(quote.status).toBe(400);
    expect((await quote.json()).message).toBe('报价时请填写金额或范围，例如“8 万–12 万元”');
  });

  test('two editors moving at once: one wins, the other gets 409; a stale page gets 409 too', async () => {
    const created = await newRequest();
    const answers = await Promise.all([
      move(editor, { uid: created.uid, action: 'contact' }),
      move(editor, { uid: created.uid, action: 'close', note: '重复的需求' }),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const events = await library.db.select().from(customFontRequestEvents);
    expect(events).toHaveLength(2);
    // A page that still shows 待联系 posts from 'new': refused whatever the move.
    const stale = await move(editor, { uid: created.uid, action: 'close', from: 'new', note: '旧页面' });
    expect(stale.status).toBe(409);
  });

  test('a form post from the editor page returns to it, with the refusal in the address', async () => {
    const created = await newRequest();
    const done = await move(editor, { uid: created.uid, action: 'contact', from: 'new' }, 'text/html');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/editor/dingzhi/${created.uid}?done=contact`);
    const refused = await move(editor, { uid: created.uid, action: 'deliver' }, 'text/html');
    expect(refused.status).toBe(303);
    expect(decodeURIComponent(refused.headers.get('location') ?? '')).toContain('error=需求当前为“已联系”，不能交付');
  });
});
