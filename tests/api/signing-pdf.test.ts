import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { NotificationItem, SigningState } from '../../src/contract/messages.ts';
import { agreementSignatures, notifications, submissions } from '../../src/server/db/schema/index.ts';
import { type CatalogueEntry, FONT_CATALOGUE } from '../../src/server/db/seed/font-catalogue.ts';
import { seedFonts } from '../../src/server/db/seed/fonts.ts';
import type { Page } from '../../src/server/fonts/catalogue.ts';
import { messageRoutes } from '../../src/server/messages/routes.ts';
import { AGREEMENT, AGREEMENT_SHA256 } from '../../src/server/signing/agreement.ts';
import { signingRoutes } from '../../src/server/signing/routes.ts';
import { storage } from '../../src/server/storage/index.ts';
import { closeSubsetPool } from '../../src/server/webfont/subset.ts';
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
import {
  darkPixelsIn,
  inkOutside,
  overlaps,
  pdfFile,
  pdfFonts,
  pdfLines,
  pdfText,
  renderPage,
} from '../helpers/pdf.ts';

// The signed agreement's PDF says exactly what was signed: every field copies out as typed (Latin
// that fonts set with ligatures included), the fingerprint whole, no character blank whichever
// faces the library has, and the signature in a box of its own that hides no text.

let library: LibraryFixture;
let app: Hono;
let signer: number;

beforeAll(async () => {
  // The fixture library: 思源黑体, 马善政 and 站酷快乐体, and no 思源宋体.
  library = await openFixtureLibrary('signing-pdf');
  app = routesApp((routes) => {
    routes.route('/web/api', signingRoutes({ account: headerAccount }));
    routes.route('/api/v1', messageRoutes({ account: headerAccount }));
  });
});

afterAll(async () => {
  await closeSubsetPool();
  await library.close();
});

beforeEach(async () => {
  signer = await insertAccount(library.db, `signer-${Math.random().toString(36).slice(2)}@example.com`);
});

/** A drawn signature as tall as it is wide, thick strokes from edge to edge, as the signing page sends it. */
async function squareSignature(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300">
    <path d="M20 280 L150 20 L280 280 M60 180 L240 180" stroke="#000" stroke-width="16" fill="none"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const FIELDS = {
  legalName: '王大川',
  creditName: 'Staff Office',
  contact: 'office.staff@example.org',
  address: '会稽山阴 affine 大道 1 号 waffle first',
  agree: true,
  version: AGREEMENT.version,
};

async function sign(body: Record<string, unknown>) {
  return call<SigningState['signed']>(app, '/web/api/signing', as(signer, json('POST', body)));
}

async function signedPdf(body: Record<string, unknown>): Promise<string> {
  const signed = await sign(body);
  expect(signed.message).toBe('签署成功，协议 PDF 已生成');
  const res = await app.request(signed.data?.pdfUrl as string, as(signer));
  return pdfFile(await res.arrayBuffer());
}

describe('without 思源宋体 in the library', () => {
  test('the agreement is set whole in 思源黑体: every character of it copies out, none is blank', async () => {
    const file = await signedPdf({ ...FIELDS, signature: { kind: 'typed' } });
    const text = pdfText(file).replace(/\s+/g, '');
    for (const section of AGREEMENT.sections) {
      expect(text).toContain(section.heading);
      for (const paragraph of section.paragraphs) expect(text).toContain(paragraph.replace(/\s+/g, ''));
    }
    expect(pdfFonts(file)).toMatch(/NotoSansSC/);
  });

  test('a name no face of the library has refuses the signing, naming the field, and keeps nothing', async () => {
    // 李 and 墨 are in none of the fixture faces.
    const before = await storage().list('private');
    const answer = await sign({ ...FIELDS, legalName: '李墨白', signature: { kind: 'typed' } });
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(
      '姓名或名称里的“李”“墨”在字体库的字体里都没有，协议 PDF 会显示成空白。请改用常用写法后再签署',
    );
    expect(
      await library.db.select().from(agreementSignatures).where(eq(agreementSignatures.accountId, signer)),
    ).toEqual([]);
    expect(await storage().list('private')).toEqual(before);
  });

  test('a character 思源黑体 lacks is set, run by run, in another library face that has it', async () => {
    // A Song face the PDF does not ask for by name, holding 李 and 墨.
    const serif = FONT_CATALOGUE.find((entry) => entry.gno === 'noto-serif-sc') as CatalogueEntry;
    const seeded = await seedFonts({
      source: 'fixtures',
      fixturesDir: 'tests/fixtures/document-fonts',
      catalogue: [
        { ...serif, gno: 'zz-test-song', nameZh: '测试宋体', source: { kind: 'fixture', dir: 'noto-serif-sc' } },
      ],
    });
    expect(seeded.failed).toEqual([]);
    const file = await signedPdf({ ...FIELDS, legalName: '李墨白', signature: { kind: 'typed' } });
    expect(pdfText(file)).toContain('投稿人（甲方）：李墨白');
    const fonts = pdfFonts(file);
    expect(fonts).toMatch(/NotoSansSC/);
    expect(fonts).toMatch(/NotoSerifSC/);
  });
});

describe('with 思源宋体 and a face that has rarer characters', () => {
  beforeAll(async () => {
    // The document fixture: a Noto Serif SC subset holding the agreement, as 思源宋体.
    const serif = FONT_CATALOGUE.find((entry) => entry.gno === 'noto-serif-sc') as CatalogueEntry;
    const seeded = await seedFonts({
      source: 'fixtures',
      fixturesDir: 'tests/fixtures/document-fonts',
      catalogue: [{ ...serif, source: { kind: 'fixture', dir: 'noto-serif-sc' } }],
    });
    expect(seeded.failed).toEqual([]);
    await closeSubsetPool();
  });

  test('every field copies out as typed, ligature-prone Latin included, and the fingerprint whole', async () => {
    const file = await signedPdf({ ...FIELDS, signature: { kind: 'drawn', image: await squareSignature() } });
    const lines = pdfText(file)
      .split('\n')
      .map((line) => line.trim());
    expect(lines).toContain('投稿人（甲方）：王大川');
    expect(lines).toContain('署名：Staff Office');
    expect(lines).toContain('联系方式：office.staff@example.org');
    expect(lines).toContain('地址：会稽山阴 affine 大道 1 号 waffle first');
    expect(lines).toContain(`协议版本：${AGREEMENT.version}`);
    expect(lines).toContain(AGREEMENT_SHA256);
    expect(pdfFonts(file)).toMatch(/NotoSerifSC/);
  });

  test('the drawn signature sits in its own box: it covers no line and every line still shows', async () => {
    const file = await signedPdf({ ...FIELDS, signature: { kind: 'drawn', image: await squareSignature() } });
    const lines = pdfLines(file);
    const signingPage = (lines.find((line) => line.text.includes('签署信息')) ?? { page: 0 }).page;
    expect(signingPage).toBeGreaterThan(0);
    const onPage = lines.filter((line) => line.page === signingPage);
    const pixels = await renderPage(file, signingPage);
    // The strokes are the only near-black ink that is not text (rules and the box's border are grey).
    const signature = inkOutside(pixels, onPage, 80);
    expect(signature).toBeDefined();
    expect((signature?.yMax ?? 0) - (signature?.yMin ?? 0)).toBeGreaterThan(40);
    for (const line of onPage) {
      expect(overlaps(signature as NonNullable<typeof signature>, line), line.text).toBe(false);
      // Nothing white is drawn over a line either: each still has its ink.
      expect(darkPixelsIn(pixels, line, 160), line.text).toBeGreaterThan(0);
    }
  });

  test('after signing, the message leads back to the accepted submission waiting for its final files', async () => {
    const [waiting] = await library.db
      .insert(submissions)
      .values({ accountId: signer, fontName: '墨香黑', status: 'approved' })
      .returning();
    await signedPdf({ ...FIELDS, signature: { kind: 'typed' } });
    const messages = await call<Page<NotificationItem>>(app, '/api/v1/web/notifyList?type=system', as(signer));
    expect(messages.data.records[0]).toMatchObject({
      title: '你已签署投稿协议',
      link: `/user/submission/${waiting?.uid}`,
    });
    expect(messages.data.records[0]?.body).toContain('下一步：回到投稿《墨香黑》上传终稿。');
    await library.db.delete(notifications);
  });
});
