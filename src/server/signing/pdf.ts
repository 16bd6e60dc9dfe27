import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFImage, type PDFPage, rgb } from 'pdf-lib';
import { documentFaces } from '../webfont/subset.ts';
import type { AgreementSection } from './agreement.ts';
import { Typesetter } from './pdf-type.ts';

/**
 * Library fonts the PDF's text is set in, best first: Song (serif) faces, then Hei, Simplified
 * Chinese forms before Traditional and Japanese; a character none of them has falls back to any
 * library face that has it (webfont/subset.ts documentFaces).
 */
const TEXT_FONTS = [
  'noto-serif-sc',
  'noto-sans-sc',
  'noto-serif-tc',
  'noto-sans-tc',
  'noto-serif-hk',
  'noto-sans-hk',
  'noto-serif-jp',
  'noto-sans-jp',
];
/** Brush faces for a typed signature, best first. */
const SIGNATURE_FONTS = ['ma-shan-zheng', 'zhi-mang-xing', 'liu-jian-mao-cao', ...TEXT_FONTS];

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 64;
const WIDTH = A4[0] - 2 * MARGIN;
const INK = rgb(0.12, 0.12, 0.14);
const MUTED = rgb(0.42, 0.42, 0.46);
const RULE = rgb(0.78, 0.78, 0.8);
/** The signature's own box: nothing else is drawn in it, and it is drawn where nothing else is. */
const SIGNATURE_BOX = { width: 240, height: 84, padding: 8 };

/** What the signed agreement's PDF shows. */
export interface SignedAgreementPdf {
  title: string;
  version: string;
  textSha256: string;
  sections: readonly AgreementSection[];
  legalName: string;
  creditName: string;
  contact: string;
  address: string;
  signedAt: Date;
  ip: string | null;
  /** A PNG the signer drew; without it the legal name is set in a brush face. */
  signaturePng: Uint8Array | null;
  siteTitle: string;
}

/** The signer's fields, by their labels on the signing form, for saying which one holds a character. */
const SIGNER_FIELDS = [
  ['legalName', '姓名或名称'],
  ['creditName', '署名'],
  ['contact', '联系方式'],
  ['address', '地址'],
] as const;

/** Characters no face in the library has: the PDF would show them as blanks, so it is not made. */
export class UnprintableText extends Error {
  override name = 'UnprintableText';
  /** The characters, and the signer's fields that hold them (none: the agreement's own text). */
  readonly characters: string;
  readonly fields: string[];

  constructor(characters: string, fields: string[]) {
    super(`No library face has ${characters}`);
    this.characters = characters;
    this.fields = fields;
  }
}

/** Beijing time, written as a Chinese date. */
function beijingTime(date: Date): string {
  const parts = new Intl.DateTimeFormat('zh-CN', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}年${part('month')}月${part('day')}日 ${part('hour')}:${part('minute')}:${part('second')}（北京时间）`;
}

/** A cursor that writes lines down the pages, starting a new page when one is full. */
class Writer {
  readonly doc: PDFDocument;
  readonly type: Typesetter;
  page: PDFPage;
  y: number;
  constructor(doc: PDFDocument, type: Typesetter) {
    this.doc = doc;
    this.type = type;
    this.page = doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  /** A paragraph; `indent` sets its first line in by two characters, as Chinese paragraphs are. */
  paragraph(text: string, size: number, options: { gap?: number; color?: typeof INK; indent?: boolean } = {}): void {
    const lineHeight = size * 1.75;
    const indent = options.indent ? size * 2 : 0;
    for (const [i, line] of this.type.wrap(text, size, WIDTH, WIDTH - indent).entries()) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      this.type.draw(this.page, line, MARGIN + (i === 0 ? indent : 0), this.y, size, options.color ?? INK);
    }
    this.y -= options.gap ?? 0;
  }
  centred(text: string, size: number): void {
    this.ensure(size * 2);
    this.y -= size * 1.6;
    this.type.draw(this.page, text, (A4[0] - this.type.width(text, size)) / 2, this.y, size, INK);
    this.y -= size * 0.8;
  }
}

/** The lines of the signer's details, the fingerprint apart (it is set on a line of its own). */
function detailLines(input: SignedAgreementPdf): string[] {
  return [
    `投稿人（甲方）：${input.legalName}`,
    `署名：${input.creditName}`,
    `联系方式：${input.contact}`,
    ...(input.address ? [`地址：${input.address}`] : []),
    `签署时间：${beijingTime(input.signedAt)}`,
    ...(input.ip ? [`签署 IP：${input.ip}`] : []),
    `协议版本：${input.version}`,
  ];
}

const FINGERPRINT_LABEL = '协议文本 SHA-256：';
const footerOf = (siteTitle: string) =>
  `乙方：造字联盟　本文件由${siteTitle}在签署时生成，可在“个人中心 › 签约”随时重新下载。`;

/** Throws UnprintableText when some characters have no face, naming the signer's fields that hold them. */
function refuseMissing(missing: readonly number[], input: SignedAgreementPdf): void {
  if (missing.length === 0) return;
  const characters = String.fromCodePoint(...missing);
  const fields = SIGNER_FIELDS.filter(([key]) => [...input[key]].some((ch) => characters.includes(ch))).map(
    ([, label]) => label,
  );
  throw new UnprintableText(characters, fields);
}

/**
 * The signed agreement as a PDF: the whole text, then the signer's details, the fingerprint of the
 * text, and the signature in a box of its own. The text is set in subsets of library faces holding
 * exactly the characters used, embedded whole, with a ToUnicode map, so every field copies and
 * searches as typed. Throws UnprintableText rather than leave a character blank.
 */
export async function renderAgreementPdf(input: SignedAgreementPdf): Promise<Uint8Array> {
  const details = detailLines(input);
  const footer = footerOf(input.siteTitle);
  const bodyText = [
    input.title,
    ...input.sections.flatMap((section) => [section.heading, ...section.paragraphs]),
    '签署信息签名：',
    ...details,
    FINGERPRINT_LABEL,
    input.textSha256,
    footer,
  ].join('');
  const [text, brush] = await Promise.all([
    documentFaces(TEXT_FONTS, bodyText),
    input.signaturePng ? Promise.resolve(null) : documentFaces(SIGNATURE_FONTS, input.legalName),
  ]);
  refuseMissing([...new Set([...(brush?.missing ?? []), ...text.missing])], input);

  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`${input.title}（${input.legalName}）`);
  doc.setAuthor(input.legalName);
  doc.setSubject(`${input.title} ${input.version}`);
  doc.setProducer(input.siteTitle);
  doc.setCreator(input.siteTitle);
  doc.setLanguage('zh-CN');
  doc.setCreationDate(input.signedAt);
  doc.setModificationDate(input.signedAt);
  const type = await Typesetter.embed(doc, text);
  const brushType = brush ? await Typesetter.embed(doc, brush) : null;
  const image: PDFImage | null = input.signaturePng ? await doc.embedPng(input.signaturePng) : null;

  const writer = new Writer(doc, type);
  writer.centred(input.title, 20);
  writer.y -= 12;
  for (const section of input.sections) {
    writer.ensure(60);
    writer.paragraph(section.heading, 12.5, { gap: 2 });
    for (const paragraph of section.paragraphs) writer.paragraph(paragraph, 10.5, { indent: true, gap: 2 });
    writer.y -= 6;
  }

  // The signing block stays on one page: details, fingerprint, signature box and footer.
  writer.ensure(details.length * 18.4 + 60 + SIGNATURE_BOX.height + 60);
  writer.y -= 10;
  writer.page.drawLine({
    start: { x: MARGIN, y: writer.y },
    end: { x: A4[0] - MARGIN, y: writer.y },
    thickness: 0.6,
    color: MUTED,
  });
  writer.y -= 4;
  writer.paragraph('签署信息', 12.5, { gap: 4 });
  for (const line of details) writer.paragraph(line, 10.5, { color: line.startsWith('协议') ? MUTED : INK });
  writer.paragraph(FINGERPRINT_LABEL, 10.5, { color: MUTED });
  // The fingerprint on a line of its own, small enough never to be broken: it copies whole.
  const hashSize = Math.min(9, (9 * WIDTH) / type.width(input.textSha256, 9));
  writer.y -= hashSize * 1.75;
  type.draw(writer.page, input.textSha256, MARGIN, writer.y, hashSize, MUTED);

  // The signature box starts below the last line's descenders and ends above the footer.
  writer.y -= 18;
  const label = '签名：';
  const box = {
    x: MARGIN + type.width(label, 10.5) + 8,
    top: writer.y,
    bottom: writer.y - SIGNATURE_BOX.height,
  };
  type.draw(writer.page, label, MARGIN, box.top - 16, 10.5, INK);
  writer.page.drawRectangle({
    x: box.x,
    y: box.bottom,
    width: SIGNATURE_BOX.width,
    height: SIGNATURE_BOX.height,
    borderColor: RULE,
    borderWidth: 0.6,
  });
  const inner = {
    width: SIGNATURE_BOX.width - 2 * SIGNATURE_BOX.padding,
    height: SIGNATURE_BOX.height - 2 * SIGNATURE_BOX.padding,
  };
  if (image) {
    // However tall or wide the drawing, it is fitted inside the box.
    const scale = Math.min(inner.width / image.width, inner.height / image.height);
    const height = image.height * scale;
    writer.page.drawImage(image, {
      x: box.x + SIGNATURE_BOX.padding,
      y: box.bottom + SIGNATURE_BOX.padding + (inner.height - height) / 2,
      width: image.width * scale,
      height,
    });
  } else if (brushType) {
    const size = Math.min(30, (30 * inner.width) / brushType.width(input.legalName, 30));
    brushType.draw(writer.page, input.legalName, box.x + SIGNATURE_BOX.padding, box.bottom + 26, size, INK);
  }
  writer.y = box.bottom - 8;
  writer.paragraph(footer, 9, { color: MUTED });
  return doc.save();
}
