import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { eq, sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type {
  ContactThread,
  NotificationItem,
  NotificationSummary,
  SigningState,
  UserOverview,
} from '../../src/contract/messages.ts';
import { createAuthContext, setAuthContext } from '../../src/server/auth/context.ts';
import { replyToBoardMessage, saveBoardMessage } from '../../src/server/content/contact-board.ts';
import { contentSiteRoutes } from '../../src/server/content/site-routes.ts';
import { agreementSignatures, messageBoard, notifications } from '../../src/server/db/schema/index.ts';
import { type CatalogueEntry, FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import type { Page } from '../../src/server/fonts/catalogue.ts';
import { emailCopiesSent } from '../../src/server/messages/email-copies.ts';
import { announce, notify } from '../../src/server/messages/notifications.ts';
import { messageRoutes } from '../../src/server/messages/routes.ts';
import { signingRoutes } from '../../src/server/signing/routes.ts';
import { storage } from '../../src/server/storage/index.ts';
import { fileRoutes } from '../../src/server/storage/routes.ts';
import { userCentreRoutes } from '../../src/server/user-centre/routes.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
import { type RecordingSender, recordingSender } from '../helpers/account-harness.ts';
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

let library: LibraryFixture;
let app: Hono;
let alice: number;
let bob: number;
let mail: RecordingSender;

beforeAll(async () => {
  library = await openFixtureLibrary('user-centre');
  // The agreement is set in Noto Serif SC; its fixture holds the agreement's characters.
  const serif = FONT_CATALOGUE.find((entry) => entry.gno === 'noto-serif-sc') as CatalogueEntry;
  const seeded = await seedFonts({
    source: 'fixtures',
    fixturesDir: 'tests/fixtures/document-fonts',
    catalogue: [{ ...serif, source: { kind: 'fixture', dir: 'noto-serif-sc' } }],
  });
  expect(seeded.failed).toEqual([]);
  alice = await insertAccount(library.db, 'alice@example.com');
  bob = await insertAccount(library.db, 'bob@example.com');
  mail = recordingSender('mail');
  setAuthContext(createAuthContext({ email: mail, sms: recordingSender('sms') }));
  app = routesApp((routes) => {
    routes.route('/api/v1', messageRoutes({ account: headerAccount }));
    routes.route('/web/api', signingRoutes({ account: headerAccount }));
    routes.route('/web/api', userCentreRoutes({ account: headerAccount }));
    routes.route('/web/api', contentSiteRoutes({ account: headerAccount, consumeCaptcha: async () => false }));
    routes.route('/files', fileRoutes());
  });
});

afterAll(async () => {
  setAuthContext(undefined);
  await closeSubsetPool();
  await library.close();
});

beforeEach(async () => {
  await library.db.delete(notifications);
  mail.notices.length = 0;
});

describe('notifications', () => {
  test('lists a user’s messages by type, newest first, and never another user’s', async () => {
    await notify([alice], { type: 'system', title: '欢迎加入造字联盟' });
    await notify([alice, bob], { type: 'review', title: '投稿进入审核', link: '/user/submission/3' });
    await notify([bob], { type: 'reply', title: '给 Bob 的回复' });

    const all = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?current=1&size=10', as(alice));
    expect(all.data.total).toBe(2);
    expect(all.data.records.map((item) => item.title)).toEqual(['投稿进入审核', '欢迎加入造字联盟']);
    expect(all.data.records[0]).toMatchObject({ typeName: '审核进度', link: '/user/submission/3', readAt: null });

    const reviews = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?type=review', as(alice));
    expect(reviews.data.records.map((item) => item.type)).toEqual(['review']);
  });

  test('the badge counts unread messages, and reading one makes it drop', async () => {
    await notify([alice], { type: 'system', title: '一' });
    await notify([alice], { type: 'announcement', title: '二' });
    const before = await call<NotificationSummary>(app, '/api/v1/web/notify', as(alice));
    expect(before.data).toMatchObject({ unread: 2, byType: { system: 1, announcement: 1, review: 0, reply: 0 } });

    const first = before.data.latest.find((item) => item.title === '一') as NotificationItem;
    const read = await call<NotificationItem>(app, `/api/v1/web/notify/${first.id}/read`, as(alice));
    expect(read.status).toBe(200);
    expect(read.data.readAt).not.toBeNull();
    const after = await call<NotificationSummary>(app, '/api/v1/web/notify', as(alice));
    expect(after.data.unread).toBe(1);

    // Reading it again keeps the first reading's time.
    const again = await call<NotificationItem>(app, `/api/v1/web/notify/${first.id}/read`, as(alice));
    expect(again.data.readAt).toBe(read.data.readAt);
  });

  test('user B can neither read nor mark user A’s message', async () => {
    await notify([alice], { type: 'system', title: '只给 Alice' });
    const [row] = await library.db.select().from(notifications).where(eq(notifications.accountId, alice));
    const answer = await call(app, `/api/v1/web/notify/${row?.id}/read`, as(bob));
    expect(answer).toMatchObject({ status: 404, message: '消息不存在或已被删除' });
    const [still] = await library.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, row?.id ?? 0));
    expect(still?.readAt).toBeNull();
  });

  test('mark-all-read marks only the caller’s messages of the type asked', async () => {
    await notify([alice], { type: 'system', title: '系统' });
    await notify([alice], { type: 'reply', title: '回复' });
    await notify([bob], { type: 'system', title: 'Bob 的系统消息' });
    const answer = await call<{ marked: number }>(
      app,
      '/api/v1/web/notify/read-all',
      as(alice, json('POST', { type: 'system' })),
    );
    expect(answer.data.marked).toBe(1);
    const summary = await call<NotificationSummary>(app, '/api/v1/web/notify', as(alice));
    expect(summary.data.byType).toMatchObject({ system: 0, reply: 1 });
    expect((await call<NotificationSummary>(app, '/api/v1/web/notify', as(bob))).data.unread).toBe(1);
  });

  test.each([
    ['/api/v1/web/notifyList?size=101', 400],
    ['/api/v1/web/notifyList?type=spam', 400],
    ['/api/v1/web/notifyList?current=0', 400],
    ['/api/v1/web/notify/abc/read', 400],
    ['/api/v1/web/notify/99999999/read', 404],
  ])('answers %s with %i and a Chinese message', async (url, status) => {
    const answer = await call(app, url, as(alice));
    expect(answer.status).toBe(status);
    expect(answer.message).toMatch(/[\u4e00-\u9fff]/);
  });

  test('every call needs a login', async () => {
    for (const url of [
      '/api/v1/web/notifyList',
      '/api/v1/web/notify',
      '/api/v1/news/my-news',
      '/web/api/user/overview',
    ]) {
      expect((await call(app, url)).status).toBe(401);
    }
  });

  test('an announcement reaches every active account and no disabled one', async () => {
    const carol = await insertAccount(library.db, 'carol@example.com');
    await library.db.execute(sql`update accounts set disabled_at = now() where id = ${carol}`);
    const { recipients } = await announce({ title: '字体节活动', body: '本周六线上分享会。', link: '/news/1' });
    expect(recipients).toBeGreaterThanOrEqual(2);
    for (const account of [alice, bob]) {
      const page = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?type=announcement', as(account));
      expect(page.data.records).toEqual([expect.objectContaining({ title: '字体节活动', link: '/news/1' })]);
    }
    const carols = await library.db.select().from(notifications).where(eq(notifications.accountId, carol));
    expect(carols).toEqual([]);
  });

  test('e-mail copies go only to users who turned them on', async () => {
    const turnOn = await call(app, '/api/v1/web/notify/settings', as(alice, json('POST', { emailCopies: true })));
    expect(turnOn.status).toBe(200);
    await notify([alice, bob], { type: 'review', title: '你的投稿已通过初审', body: '请上传最终字体文件。' });
    await emailCopiesSent();
    expect(mail.notices.map((notice) => notice.to)).toEqual(['alice@example.com']);
    expect(mail.notices[0]?.text).toContain('你的投稿已通过初审');
    expect(mail.notices[0]?.text).toContain('请上传最终字体文件。');

    await call(app, '/api/v1/web/notify/settings', as(alice, json('POST', { emailCopies: false })));
    await notify([alice], { type: 'system', title: '第二条' });
    await emailCopiesSent();
    expect(mail.notices).toHaveLength(1);
  });

  test('e-mail copies cannot be turned on without an e-mail address', async () => {
    const noEmail = Number(
      (
        (await library.db.execute(
          sql`insert into accounts (mobile) values ('13900001111') returning id`,
        )) as unknown as {
          rows: Array<{ id: number }>;
        }
      ).rows[0]?.id,
    );
    const answer = await call(app, '/api/v1/web/notify/settings', as(noEmail, json('POST', { emailCopies: true })));
    expect(answer).toMatchObject({ status: 400, message: '请先在“个人资料”里绑定邮箱，再打开邮件提醒' });
  });

  test('favorite/token answers a clear 404', async () => {
    const answer = await call(app, '/api/v1/web/personal/favorite/token', as(alice));
    expect(answer.status).toBe(404);
    expect(answer.message).toContain('未启用');
  });
});

describe('contact board threads', () => {
  const limiter = { check: async () => ({ allowed: true as const }), hit: async () => ({ allowed: true as const }) };

  test('a reply reaches the writer as a message and shows under their own messages only', async () => {
    await library.db.delete(messageBoard);
    const { id } = await saveBoardMessage(
      { name: 'Alice', contact: 'alice@example.com', content: '想了解字体授权的流程。' },
      { ip: '203.0.113.9', accountId: alice },
      { consumeCaptcha: undefined, limiter: limiter as never },
    );
    const editor = await insertAccount(library.db, 'editor@example.com');
    await replyToBoardMessage(editor, id, '您好，授权流程请见“授权说明”页面。');

    const mine = await call<Page<ContactThread>>(app, '/web/api/messageBoard/mine', as(alice));
    expect(mine.data.records).toEqual([
      expect.objectContaining({
        id,
        content: '想了解字体授权的流程。',
        replies: [expect.objectContaining({ body: '您好，授权流程请见“授权说明”页面。' })],
      }),
    ]);
    expect((await call<Page<ContactThread>>(app, '/web/api/messageBoard/mine', as(bob))).data.records).toEqual([]);
    const messages = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?type=reply', as(alice));
    expect(messages.data.records[0]).toMatchObject({ title: '你的留言有了回复', link: `/user/contact#message-${id}` });
  });

  test('a signed-in writer needs no captcha; a visitor does', async () => {
    const body = json('POST', { name: 'Bob', contact: 'bob@example.com', content: '请问可以投稿手写字体吗？' });
    expect((await call(app, '/web/api/messageBoard/save', as(bob, body))).status).toBe(200);
    expect((await call(app, '/web/api/messageBoard/save', body)).status).toBe(400);
  });
});

/** A drawn signature: a few dark strokes on a transparent canvas, as the signing page sends it. */
async function drawnSignature(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="140">
    <path d="M20 100 C 80 10, 140 130, 200 40 S 320 120, 380 30" stroke="#111" stroke-width="6" fill="none"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const details = {
  legalName: '李墨白',
  creditName: '墨白字造',
  contact: '13812345678',
  address: '杭州市西湖区',
  agree: true,
};

describe('signing the contributor agreement', () => {
  beforeEach(async () => {
    await library.db.delete(agreementSignatures);
  });

  test('signs with a drawn signature, makes a PDF with the Chinese text, and only its owner can download it', async () => {
    const state = await call<SigningState>(app, '/web/api/signing', as(alice));
    expect(state.data).toMatchObject({ signed: null, title: '造字联盟字体投稿协议' });
    const signed = await call<SigningState['signed']>(
      app,
      '/web/api/signing',
      as(
        alice,
        json('POST', {
          ...details,
          version: state.data.version,
          signature: { kind: 'drawn', image: await drawnSignature() },
        }),
      ),
    );
    expect(signed.status).toBe(200);
    const pdfUrl = signed.data?.pdfUrl as string;

    const res = await app.request(pdfUrl, as(alice));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-')), 'signed.pdf');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    expect(text).toContain('造字联盟字体投稿协议');
    expect(text).toContain('投稿人（甲方）：李墨白');
    expect(text).toContain('署名：墨白字造');
    expect(text).toContain('原创与权利保证');
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/NotoSerifSC/);

    expect((await app.request(pdfUrl, as(bob))).status).toBe(404);
    expect((await app.request(pdfUrl)).status).toBe(401);

    const [row] = await library.db.select().from(agreementSignatures);
    expect(row).toMatchObject({ accountId: alice, signatureKind: 'drawn', legalName: '李墨白' });
    expect(row?.textSha256).toMatch(/^[0-9a-f]{64}$/);
    // The kept signature is the strokes on white, trimmed: ink inside, a white edge around it.
    const stored = await storage().get(row?.signatureKey as string);
    const { data, info } = await sharp(stored ? await buffer(stored.body) : Buffer.alloc(0))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.width).toBeLessThan(400);
    expect([data[0], data[info.width - 1], data[data.length - 1]]).toEqual([255, 255, 255]);
    expect(Math.min(...data)).toBeLessThan(64);
    // The signed files are never public.
    expect((await app.request(`/files/${row?.pdfKey}`)).status).toBe(404);
    expect((await app.request(`/files/${row?.signatureKey}`)).status).toBe(404);

    const overview = await call<UserOverview>(app, '/web/api/user/overview', as(alice));
    expect(overview.data.signing).toMatchObject({ signed: true, outdated: false });
    const message = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?type=system', as(alice));
    expect(message.data.records[0]?.title).toBe('你已签署投稿协议');
  }, 60_000);

  test('a typed signature is set in a brush face of the library', async () => {
    const signed = await call<SigningState['signed']>(
      app,
      '/web/api/signing',
      as(bob, json('POST', { ...details, legalName: '王大川', version: '2026.1', signature: { kind: 'typed' } })),
    );
    expect(signed.status).toBe(200);
    const res = await app.request(signed.data?.pdfUrl as string, as(bob));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-')), 'typed.pdf');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/MaShanZheng/i);
  }, 60_000);

  test.each([
    [{ agree: false }, '请先阅读并勾选同意协议'],
    [{ legalName: '李' }, '请填写真实姓名或工作室名称'],
    [{ contact: '12345' }, '联系方式格式不正确'],
    [{ signature: { kind: 'drawn', image: 'data:image/png;base64,AAAA' } }, '签名图片格式不正确'],
    [{ signature: { kind: 'drawn', image: 'data:image/jpeg;base64,AAAA' } }, '签名图片格式不正确'],
    [{ version: '2020.1' }, '协议已更新'],
  ])('refuses %j with a Chinese message and keeps nothing', async (change, message) => {
    const body = { ...details, version: '2026.1', signature: { kind: 'typed' }, ...change };
    const answer = await call(app, '/web/api/signing', as(alice, json('POST', body)));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.message).toContain(message);
    expect(await library.db.select().from(agreementSignatures)).toEqual([]);
  });

  test('a blank drawn signature is refused and leaves no file behind', async () => {
    const blank = await sharp({ create: { width: 400, height: 140, channels: 4, background: '#ffffff00' } })
      .png()
      .toBuffer();
    const before = await storage().list('private');
    const answer = await call(
      app,
      '/web/api/signing',
      as(
        alice,
        json('POST', {
          ...details,
          version: '2026.1',
          signature: { kind: 'drawn', image: `data:image/png;base64,${blank.toString('base64')}` },
        }),
      ),
    );
    expect(answer).toMatchObject({ status: 400, message: '签名是空白的，请在签名框里写下你的名字' });
    expect(await library.db.select().from(agreementSignatures)).toEqual([]);
    expect(await storage().list('private')).toEqual(before);
  });

  test('signing the same version twice is refused', async () => {
    const body = json('POST', { ...details, version: '2026.1', signature: { kind: 'typed' } });
    expect((await call(app, '/web/api/signing', as(alice, body))).status).toBe(200);
    const again = await call(app, '/web/api/signing', as(alice, body));
    expect(again).toMatchObject({ status: 400, message: '你已签署当前版本的协议，无需重复签署' });
  }, 60_000);
});

describe('overview', () => {
  test('answers the whole user centre home in one call', async () => {
    await notify([alice], { type: 'system', title: '概览里的消息' });
    const overview = await call<UserOverview>(app, '/web/api/user/overview', as(alice));
    expect(overview.status).toBe(200);
    expect(overview.data.account.email).toBe('alice@example.com');
    expect(overview.data.messages.unread).toBe(1);
    expect(overview.data.messages.latest[0]?.title).toBe('概览里的消息');
    expect(overview.data).toHaveProperty('favorites.fonts');
    expect(overview.data).toHaveProperty('downloads.total');
    expect(overview.data).toHaveProperty('submissions.total');
  });
});

describe('personal data', () => {
  test('my-news lists the articles the user keeps, and favorite/data counts what they keep', async () => {
    await library.db.execute(sql`delete from favorites where account_id = ${alice}`);
    await library.db.execute(
      sql`insert into favorites (account_id, target, family_id) select ${alice}, 'font', id from font_families where gno = 'noto-sans-sc'`,
    );
    const summary = await call<UserOverview['favorites']>(app, '/api/v1/web/personal/favorite/data', as(alice));
    expect(summary.data).toMatchObject({ fonts: 1, albums: 0, articles: 0 });
    expect(summary.data.latest).toEqual([expect.objectContaining({ kind: 'font', href: '/font/noto-sans-sc' })]);
    const news = await call<Page<unknown>>(app, '/api/v1/news/my-news?current=1&size=5', as(alice));
    expect(news.data).toMatchObject({ records: [], total: 0, current: 1, size: 5 });
    expect((await call(app, '/api/v1/news/my-news?size=500', as(alice))).status).toBe(400);
  });
});
