import fs from 'node:fs';
import zlib from 'node:zlib';
import type { Hono } from 'hono';
import sharp from 'sharp';
import type { SubmissionDetail, UploadPurpose, UploadTicket } from '../../src/contract/submissions.ts';
import { as, call, json } from './font-library.ts';
import { renamedByFontTools } from './font-writers.ts';

const NOTO_REGULAR = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'));
const NOTO_BOLD = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/noto-sans-sc/NotoSansSC_700Bold.ttf'));

/**
 * The family the submission tests send, as a designer would: two weights of the small Noto Sans SC
 * subset renamed “Mo Xiang Hei” by fontTools (the English name of the submission must be the font's).
 */
export const REGULAR = renamedByFontTools(NOTO_REGULAR, 'Noto Sans SC', 'Mo Xiang Hei');
export const BOLD = renamedByFontTools(NOTO_BOLD, 'Noto Sans SC', 'Mo Xiang Hei');

/**
 * A zip of stored (uncompressed) or deflated entries, written by hand so a test can put in what no
 * archiver would: names that climb out ('../x.ttf') and sizes that lie.
 */
export function makeZip(
  entries: Array<{ name: string; data: Uint8Array; deflate?: boolean; declaredSize?: number }>,
): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const body = entry.deflate ? zlib.deflateRawSync(entry.data) : Buffer.from(entry.data);
    const crc = zlib.crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.byteLength;
    const header = (central: boolean) => {
      const b = Buffer.alloc(central ? 46 : 30);
      let p = 0;
      b.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, p);
      p += 4;
      if (central) {
        b.writeUInt16LE(20, p);
        p += 2;
      }
      b.writeUInt16LE(20, p); // version needed
      b.writeUInt16LE(0x0800, p + 2); // UTF-8 names
      b.writeUInt16LE(entry.deflate ? 8 : 0, p + 4);
      b.writeUInt32LE(0, p + 6); // time and date
      b.writeUInt32LE(crc, p + 10);
      b.writeUInt32LE(body.byteLength, p + 14);
      b.writeUInt32LE(size, p + 18);
      b.writeUInt16LE(name.byteLength, p + 22);
      b.writeUInt16LE(0, p + 24);
      if (central) {
        b.writeUInt16LE(0, p + 26); // comment
        b.writeUInt16LE(0, p + 28); // disk
        b.writeUInt16LE(0, p + 30); // internal attributes
        b.writeUInt32LE(0, p + 32); // external attributes
        b.writeUInt32LE(offset, p + 36);
      }
      return b;
    };
    const local = Buffer.concat([header(false), name, body]);
    centrals.push(Buffer.concat([header(true), name]));
    locals.push(local);
    offset += local.byteLength;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, central, end]));
}

/** An OFL licence file of the fixture family's designer, as a zip entry. */
export const LICENSE_ENTRY = {
  name: 'OFL.txt',
  data: new TextEncoder().encode('Copyright 2026 林墨\nSIL Open Font License 1.1'),
};

/** A zip of the fixture family's two weights, plus any `extra` entries (a licence, stray files). */
export function familyZip(extra: Parameters<typeof makeZip>[0] = [], deflate = false): Uint8Array {
  return makeZip([
    { name: 'MoXiangHei-Regular.ttf', data: REGULAR, deflate },
    { name: 'MoXiangHei-Bold.ttf', data: BOLD, deflate },
    ...extra,
  ]);
}

/** A specimen picture with some ink on it. */
export async function specimenPng(width = 800, height = 500): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><rect x="40" y="40" width="${width / 2}" height="${height / 3}" fill="#222"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** Asks for a ticket and PUTs the bytes as the browser would; answers the key to name in saveSubmission. */
export async function uploadAs(
  app: Hono,
  account: number,
  purpose: UploadPurpose,
  bytes: Uint8Array,
  name: string,
  type = purpose === 'image' ? 'image/png' : 'application/octet-stream',
): Promise<{ key: string; name: string }> {
  const query = new URLSearchParams({ purpose, name, size: String(bytes.byteLength), type });
  const ticket = await call<UploadTicket>(app, `/web/api/contribute/getSTSToken?${query}`, as(account));
  if (ticket.status !== 200) throw new Error(`ticket refused: ${ticket.message}`);
  const put = await app.request(ticket.data.url, {
    method: 'PUT',
    headers: ticket.data.headers,
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  if (put.status !== 200) throw new Error(`upload refused: ${put.status} ${await put.text()}`);
  return { key: ticket.data.key, name };
}

/** The information of the test family's submission, complete. */
export const FIELDS = {
  fontName: '墨香黑',
  nameEn: 'Mo Xiang Hei',
  category: '黑体',
  script: '简体',
  designer: '林墨',
  description: '一款为屏幕正文设计的黑体，笔画端口略带弧度，小字号下依然清楚，适合长篇阅读。',
  license: 'OFL-1.1',
  design: { origin: 'derived', baseFont: '思源黑体', method: 'digital', usage: 'text', notes: '历时两年。' },
};

/**
 * Takes a complete submission of `font` (a zip of the test family unless given) through review to
 * accepted, as its designer and a reviewer do over the API; answers its uid.
 */
export async function acceptedSubmission(
  app: Hono,
  designer: number,
  reviewer: number,
  font: Uint8Array = familyZip(),
  fields: Record<string, unknown> = FIELDS,
): Promise<string> {
  const post = async (account: number, url: string, body: unknown) => {
    const answer = await call<SubmissionDetail>(app, `/web/api/${url}`, as(account, json('POST', body)));
    if (answer.status !== 200) throw new Error(`${url} refused: ${answer.message}`);
    return answer.data;
  };
  const draft = await post(designer, 'submission/saveSubmission', {
    fields,
    font: await uploadAs(app, designer, 'font', font, '墨香黑.zip'),
    images: [await uploadAs(app, designer, 'image', await specimenPng(), '样张.png')],
  });
  await post(designer, 'contribute/submit', { uid: draft.uid });
  await post(reviewer, 'review/claim', { uid: draft.uid });
  await post(reviewer, 'review/decide', { uid: draft.uid, action: 'accept' });
  return draft.uid;
}
