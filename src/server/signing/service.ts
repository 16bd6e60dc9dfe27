import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { SigningFields, SigningState, UserOverview } from '../../contract/messages.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { agreementSignatures, submissions } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { ApiError, badRequest, notFound } from '../http/envelope.ts';
import { log } from '../log.ts';
import { notify } from '../messages/notifications.ts';
import { storage } from '../storage/index.ts';
import { AGREEMENT, AGREEMENT_SHA256 } from './agreement.ts';
import { renderAgreementPdf, UnprintableText } from './pdf.ts';

/** A signature: drawn on the page (a PNG), or typed (the legal name, set in a brush face). */
export type SignatureInput = { kind: 'typed' } | { kind: 'drawn'; png: Uint8Array };

/** Where a signature came from, kept with it. */
export interface SignedFrom {
  ip: string | null;
  userAgent: string | null;
}

const PDF_PATH = '/web/api/signing/pdf';
// A drawn signature is a few strokes: enough dark pixels to be ink, few enough to be a name.
const MIN_INK_PIXELS = 150;
const MAX_SIGNATURE_SIDE = 2000;

type Row = typeof agreementSignatures.$inferSelect;

async function latestSignature(db: Db, accountId: number): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(agreementSignatures)
    .where(eq(agreementSignatures.accountId, accountId))
    .orderBy(desc(agreementSignatures.signedAt), desc(agreementSignatures.id))
    .limit(1);
  return row;
}

function signedOf(row: Row): NonNullable<SigningState['signed']> {
  return {
    id: row.id,
    version: row.version,
    outdated: row.version !== AGREEMENT.version,
    legalName: row.legalName,
    creditName: row.creditName,
    signedAt: row.signedAt.toISOString(),
    pdfUrl: `${PDF_PATH}?id=${row.id}`,
  };
}

/** The agreement and the account's latest signature (GET /web/api/signing). */
export async function signingState(accountId: number, database?: Db): Promise<SigningState> {
  const db = database ?? (await configuredDb());
  const row = await latestSignature(db, accountId);
  return {
    version: AGREEMENT.version,
    title: AGREEMENT.title,
    sections: AGREEMENT.sections.map((section) => ({ heading: section.heading, paragraphs: [...section.paragraphs] })),
    signed: row ? signedOf(row) : null,
  };
}

/** Whether the account has signed, and signed the current version (the overview, the submission flow). */
export async function signingStatus(accountId: number, database?: Db): Promise<UserOverview['signing']> {
  const db = database ?? (await configuredDb());
  const row = await latestSignature(db, accountId);
  return {
    signed: Boolean(row),
    outdated: Boolean(row && row.version !== AGREEMENT.version),
    signedAt: row?.signedAt.toISOString() ?? null,
  };
}

/**
 * Checks a drawn signature and makes a clean PNG of it: a real PNG of sensible size with ink on it,
 * flattened on white and trimmed to the strokes, so nothing but the signature reaches the PDF.
 */
async function cleanSignature(png: Uint8Array): Promise<Uint8Array> {
  const isPng = png.length > 8 && png[0] === 0x89 && png[1] === 0x50 && png[2] === 0x4e && png[3] === 0x47;
  if (!isPng) throw badRequest('签名图片格式不正确，请重新书写签名');
  try {
    const meta = await sharp(png).metadata();
    if (!meta.width || !meta.height || meta.width > MAX_SIGNATURE_SIDE || meta.height > MAX_SIGNATURE_SIDE) {
      throw badRequest('签名图片尺寸不正确，请重新书写签名');
    }
    const flat = sharp(png).flatten({ background: '#ffffff' }).greyscale();
    const { data } = await flat.clone().raw().toBuffer({ resolveWithObject: true });
    let ink = 0;
    for (const value of data) if (value < 160) ink++;
    if (ink < MIN_INK_PIXELS) throw badRequest('签名是空白的，请在签名框里写下你的名字');
    return new Uint8Array(
      await flat
        .trim({ threshold: 30 })
        .extend({ top: 8, bottom: 8, left: 8, right: 8, background: '#ffffff' })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    );
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest('签名图片无法读取，请重新书写签名');
  }
}

/**
 * Signs the current agreement: keeps the drawn signature, makes the PDF, then writes the record,
 * and tells the user by message. Files are written before the record and removed again if
 * anything fails, so there is never a record without its PDF.
 */
export async function signAgreement(
  accountId: number,
  input: SigningFields & { version: string; signature: SignatureInput },
  from: SignedFrom,
  database?: Db,
): Promise<NonNullable<SigningState['signed']>> {
  if (input.version !== AGREEMENT.version) {
    throw new ApiError(409, '409', '协议已更新，请刷新页面阅读新版本后再签署');
  }
  const db = database ?? (await configuredDb());
  const previous = await latestSignature(db, accountId);
  if (previous && previous.version === AGREEMENT.version) throw badRequest('你已签署当前版本的协议，无需重复签署');

  const signaturePng = input.signature.kind === 'drawn' ? await cleanSignature(input.signature.png) : null;
  const signedAt = new Date();
  const base = `private/signatures/${accountId}/${randomUUID()}`;
  const pdf = await agreementPdf({
    title: AGREEMENT.title,
    version: AGREEMENT.version,
    textSha256: AGREEMENT_SHA256,
    sections: AGREEMENT.sections,
    legalName: input.legalName,
    creditName: input.creditName,
    contact: input.contact,
    address: input.address,
    signedAt,
    ip: from.ip,
    signaturePng,
    siteTitle: env().SITE_TITLE,
  });
  const store = storage();
  const written: string[] = [];
  let signed: Row;
  try {
    if (signaturePng) {
      await store.put(`${base}.png`, signaturePng);
      written.push(`${base}.png`);
    }
    await store.put(`${base}.pdf`, pdf);
    written.push(`${base}.pdf`);
    const [row] = await db
      .insert(agreementSignatures)
      .values({
        accountId,
        version: AGREEMENT.version,
        textSha256: AGREEMENT_SHA256,
        legalName: input.legalName,
        creditName: input.creditName,
        contact: input.contact,
        address: input.address,
        signatureKind: input.signature.kind,
        signatureKey: signaturePng ? `${base}.png` : null,
        pdfKey: `${base}.pdf`,
        ip: from.ip,
        userAgent: from.userAgent?.slice(0, 300) ?? null,
        signedAt,
      })
      .returning();
    if (!row) throw new Error('agreement_signatures insert returned no row');
    signed = row;
  } catch (error) {
    await Promise.allSettled(written.map((key) => store.delete(key)));
    throw error;
  }
  const next = await waitingSubmission(db, accountId);
  await notify(
    [accountId],
    {
      type: 'system',
      title: '你已签署投稿协议',
      body: `你于 ${signedAt.toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' })} 签署了《${AGREEMENT.title}》（${AGREEMENT.version} 版）。${next.said}签署的 PDF 可随时在“签约”页面下载。`,
      link: next.link,
    },
    db,
  );
  return signedOf(signed);
}

/**
 * The agreement's PDF, or a refusal naming what it cannot show: a character of the signer's that
 * no library face has (400, naming the field), or one of the agreement's own (503: the library
 * lacks the faces the site's documents need).
 */
async function agreementPdf(input: Parameters<typeof renderAgreementPdf>[0]): Promise<Uint8Array> {
  try {
    return await renderAgreementPdf(input);
  } catch (error) {
    if (!(error instanceof UnprintableText)) throw error;
    const shown = [...error.characters].slice(0, 8).join('”“');
    if (error.fields.length > 0) {
      throw badRequest(
        `${error.fields.join('、')}里的“${shown}”在字体库的字体里都没有，协议 PDF 会显示成空白。请改用常用写法后再签署`,
      );
    }
    log().error({ characters: error.characters }, 'the library has no face for the agreement text');
    throw new ApiError(503, '503', `字体库暂时缺少生成协议 PDF 所需的字（“${shown}”），请稍后再试或联系我们`);
  }
}

/** The account's accepted submissions waiting for their final files (which need the agreement signed), newest first. */
export async function waitingForFinal(
  accountId: number,
  database?: Db,
): Promise<Array<{ uid: string; fontName: string }>> {
  const db = database ?? (await configuredDb());
  return db
    .select({ uid: submissions.uid, fontName: submissions.fontName })
    .from(submissions)
    .where(and(eq(submissions.accountId, accountId), eq(submissions.status, 'approved')))
    .orderBy(desc(submissions.updatedAt))
    .limit(5);
}

/** Where to go after signing: the accepted submission waiting for its final files, when there is one. */
async function waitingSubmission(db: Db, accountId: number): Promise<{ link: string; said: string }> {
  const waiting = await waitingForFinal(accountId, db);
  const [first] = waiting;
  if (waiting.length === 1 && first) {
    return { link: `/user/submission/${first.uid}`, said: `下一步：回到投稿《${first.fontName}》上传终稿。` };
  }
  if (waiting.length > 1) {
    return { link: '/user/submission?status=approved', said: '下一步：回到审核通过的投稿，分别上传终稿。' };
  }
  return { link: '/user/signing', said: '以后投稿审核通过时，可以直接上传终稿。' };
}

/** The PDF of one of the account's signatures; 404 for a signature that is not theirs. */
export async function signedPdf(
  accountId: number,
  id: number,
  database?: Db,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const db = database ?? (await configuredDb());
  const [row] = await db
    .select()
    .from(agreementSignatures)
    .where(and(eq(agreementSignatures.id, id), eq(agreementSignatures.accountId, accountId)))
    .limit(1);
  if (!row) throw notFound('签约记录不存在');
  const object = await storage().get(row.pdfKey);
  if (!object) throw notFound('签约文件不存在，请联系我们');
  const bytes = object.bytes ?? new Uint8Array(await buffer(object.body));
  return { bytes, fileName: `${AGREEMENT.title}-${row.legalName}-${row.version}.pdf` };
}
