import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from 'pdf-lib';
import { subsetToTtf } from '../webfont/subset.ts';
import type { AgreementSection } from './agreement.ts';

/** Library fonts the PDF is set in, best first: a Song (serif) face for the text, a brush face for a typed signature. */
const TEXT_FONTS = ['noto-serif-sc', 'noto-sans-sc'];
const SIGNATURE_FONTS = ['ma-shan-zheng', 'zhi-mang-xing', 'liu-jian-mao-cao', 'noto-serif-sc', 'noto-sans-sc'];

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 64;
const INK = rgb(0.12, 0.12, 0.14);
const MUTED = rgb(0.42, 0.42, 0.46);

// Marks that may not start a line in Chinese typesetting (避头点); they stay at the end of the line before.
const NO_LINE_START = new Set('，。、；：？！）》」』”’,.;:?!)]】〉…');

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

/** Breaks text into lines that fit `width`, character by character, keeping closing marks off line starts. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const char of text) {
    const next = line + char;
    if (line && font.widthOfTextAtSize(next, size) > width && !NO_LINE_START.has(char)) {
      lines.push(line);
      line = char;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
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
  readonly font: PDFFont;
  page: PDFPage;
  y: number;
  constructor(doc: PDFDocument, font: PDFFont) {
    this.doc = doc;
    this.font = font;
    this.page = doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  paragraph(text: string, size: number, options: { gap?: number; color?: typeof INK; indent?: boolean } = {}): void {
    const lineHeight = size * 1.75;
    const first = options.indent ? '\u3000\u3000' : '';
    for (const line of wrap(first + text, this.font, size, A4[0] - 2 * MARGIN)) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      this.page.drawText(line, { x: MARGIN, y: this.y, size, font: this.font, color: options.color ?? INK });
    }
    this.y -= options.gap ?? 0;
  }
  centred(text: string, size: number): void {
    this.ensure(size * 2);
    this.y -= size * 1.6;
    const x = (A4[0] - this.font.widthOfTextAtSize(text, size)) / 2;
    this.page.drawText(text, { x, y: this.y, size, font: this.font, color: INK });
    this.y -= size * 0.8;
  }
}

/**
 * The signed agreement as a PDF: the whole text, then the signer's details, the signature and the
 * text's fingerprint. The Chinese text is set in a subset of a library font made for exactly the
 * characters used (so the file stays small and every character is the font's own), embedded whole.
 */
export async function renderAgreementPdf(input: SignedAgreementPdf): Promise<Uint8Array> {
  const details = [
    `投稿人（甲方）：${input.legalName}`,
    `署名：${input.creditName}`,
    `联系方式：${input.contact}`,
    ...(input.address ? [`地址：${input.address}`] : []),
    `签署时间：${beijingTime(input.signedAt)}`,
    ...(input.ip ? [`签署 IP：${input.ip}`] : []),
    `协议版本：${input.version}`,
    `协议文本 SHA-256：${input.textSha256}`,
  ];
  const footer = `乙方：造字联盟　本文件由${input.siteTitle}在签署时生成，可在“个人中心 › 签约”随时重新下载。`;
  const bodyText = [
    input.title,
    ...input.sections.flatMap((section) => [section.heading, ...section.paragraphs]),
    '签署信息',
    '签名：',
    ...details,
    footer,
    '\u3000',
  ].join('');

  const [text, brush] = await Promise.all([
    subsetToTtf(TEXT_FONTS, bodyText),
    input.signaturePng ? Promise.resolve(null) : subsetToTtf(SIGNATURE_FONTS, input.legalName),
  ]);

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
  // The subsets hold only what is drawn, so pdf-lib embeds them as they are.
  const font = await doc.embedFont(text.ttf, { subset: false });
  const brushFont = brush ? await doc.embedFont(brush.ttf, { subset: false }) : null;
  const image: PDFImage | null = input.signaturePng ? await doc.embedPng(input.signaturePng) : null;

  const writer = new Writer(doc, font);
  writer.centred(input.title, 20);
  writer.y -= 12;
  for (const section of input.sections) {
    writer.ensure(60);
    writer.paragraph(section.heading, 12.5, { gap: 2 });
    for (const paragraph of section.paragraphs) writer.paragraph(paragraph, 10.5, { indent: true, gap: 2 });
    writer.y -= 6;
  }

  writer.ensure(260);
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

  writer.ensure(90);
  writer.y -= 24;
  writer.page.drawText('签名：', { x: MARGIN, y: writer.y, size: 10.5, font, color: INK });
  const signX = MARGIN + font.widthOfTextAtSize('签名：', 10.5) + 8;
  if (image) {
    const scale = Math.min(200 / image.width, 64 / image.height);
    writer.page.drawImage(image, {
      x: signX,
      y: writer.y - 12,
      width: image.width * scale,
      height: image.height * scale,
    });
  } else if (brushFont) {
    writer.page.drawText(input.legalName, { x: signX, y: writer.y - 6, size: 30, font: brushFont, color: INK });
  }
  writer.y -= 40;
  writer.paragraph(footer, 9, { color: MUTED });
  return doc.save();
}
