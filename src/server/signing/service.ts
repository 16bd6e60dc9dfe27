import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { SigningFields, SigningState, UserOverview } from '../../contract/messages.ts';
import { db as configuredDb, type Db } from '../db/client.ts';
import { agreementSignatures } from '../db/schema/index.ts';
import { env } from '../env.ts';
import { ApiError, badRequest, notFound } from '../http/envelope.ts';
import { notify } from '../messages/notifications.ts';
import { storage } from '../storage/index.ts';
import { AGREEMENT, AGREEMENT_SHA256 } from './agreement.ts';
import { renderAgreementPdf } from './pdf.ts';

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
  const pdf = await renderAgreementPdf({
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
  await notify(
    [accountId],
    {
      type: 'system',
      title: '你已签署投稿协议',
      body: `你于 ${signedAt.toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' })} 签署了《${AGREEMENT.title}》（${AGREEMENT.version} 版），现在可以上传最终字体文件。签署的 PDF 可随时在“签约”页面下载。`,
      link: '/user/signing',
    },
    db,
  );
  return signedOf(signed);
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
