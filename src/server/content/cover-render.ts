import type { SKRSContext2D } from '@napi-rs/canvas';
import { type SettingFace, Typesetter } from '../engine/text/typeset.ts';
import { loadCanvas } from '../native.ts';

/** The kinds of items that get a cover, each with its label on the seal. */
export const COVER_LABELS = {
  news: '新闻',
  baike: '百科',
  zixun: '咨询',
  album: '专辑',
  heji: '合集',
  case: '案例',
  promotion: '活动',
  ad: '推荐',
} as const;
/** A kind of item that gets a cover. */
export type CoverKind = keyof typeof COVER_LABELS;

/** What a cover shows. */
export interface CoverSpec {
  kind: CoverKind;
  title: string;
  /**
   * The faces the cover is set in, the item's own first: each character in the first that has it.
   * A character none has is left out (and answered in `missing`), never drawn as a box.
   */
  faces: readonly SettingFace[];
  /** The Chinese name of the first face's family, printed small in the corner. */
  fontName: string | undefined;
  siteTitle: string;
}

/** Every text a cover draws, for choosing the faces it needs before drawing. */
export function coverText(spec: Pick<CoverSpec, 'kind' | 'title' | 'fontName' | 'siteTitle'>): string {
  return [
    COVER_LABELS[spec.kind],
    spec.title,
    '…',
    spec.siteTitle,
    spec.fontName ? `字体 · ${spec.fontName}` : '',
  ].join('');
}

// A calm paper-and-ink palette; only the seal changes colour with the kind of item.
const PAPER = '#f4eee2';
const PAPER_EDGE = '#e4d9c5';
const INK = '#23201c';
const MUTED = '#7b6f60';
const SEALS: Record<CoverKind, string> = {
  news: '#b23a2a',
  baike: '#8a3326',
  zixun: '#2f5d62',
  album: '#3a4868',
  heji: '#6a4c2c',
  case: '#4b5e3a',
  promotion: '#b23a2a',
  ad: '#8a3326',
};

/** The full cover size (OpenGraph) and the thumbnail lists use. */
export const COVER_SIZE = { width: 1200, height: 630 } as const;
/** The thumbnail size: half the cover in each direction. */
export const THUMB_SIZE = { width: 600, height: 315 } as const;

const NO_LINE_START = /^[，。、：；！？）》」』”’,.:;!?)]/u;

/** Breaks a title into lines that fit `maxWidth`, between characters (Chinese) or at spaces (Latin words). */
function wrapTitle(ctx: SKRSContext2D, setter: Typesetter, title: string, size: number, maxWidth: number): string[] {
  const units = title.match(/[A-Za-z0-9'’.-]+\s*|\s+|./gu) ?? [];
  const lines: string[] = [];
  let line = '';
  for (const unit of units) {
    const next = line + unit;
    // Closing punctuation never starts a line (kinsoku); it hangs at the end of the previous one.
    if (line && !NO_LINE_START.test(unit) && setter.measure(ctx, next.trimEnd(), size) > maxWidth) {
      lines.push(line.trimEnd());
      line = unit.trimStart();
    } else {
      line = next;
    }
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

const LINE_HEIGHT = 1.3;

/** Chooses the largest title size (within bounds) at which the title fits in three lines. */
function fitTitle(
  ctx: SKRSContext2D,
  setter: Typesetter,
  spec: CoverSpec,
  maxWidth: number,
  maxHeight: number,
): { size: number; lines: string[] } {
  for (let size = 92; size >= 44; size -= 4) {
    const lines = wrapTitle(ctx, setter, spec.title, size, maxWidth);
    if (lines.length <= 3 && lines.length * size * LINE_HEIGHT <= maxHeight) return { size, lines };
  }
  const lines = wrapTitle(ctx, setter, spec.title, 44, maxWidth).slice(0, 3);
  const last = lines.length - 1;
  lines[last] = `${Array.from(lines[last] ?? '')
    .slice(0, -1)
    .join('')}…`;
  return { size: 44, lines };
}

function drawSeal(ctx: SKRSContext2D, setter: Typesetter, spec: CoverSpec): void {
  const label = COVER_LABELS[spec.kind];
  const x = 84;
  const y = 76;
  const side = 92;
  ctx.fillStyle = SEALS[spec.kind];
  ctx.beginPath();
  ctx.roundRect(x, y, side, side, 8);
  ctx.fill();
  ctx.fillStyle = PAPER;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Two characters stacked, as a seal is read top to bottom.
  setter.fill(ctx, label.charAt(0), x + side / 2, y + side * 0.3, 34);
  setter.fill(ctx, label.charAt(1), x + side / 2, y + side * 0.72, 34);
}

function drawCover(ctx: SKRSContext2D, setter: Typesetter, spec: CoverSpec): void {
  const { width, height } = COVER_SIZE;
  ctx.fillStyle = PAPER;
  ctx.fillRect(0, 0, width, height);

  // The first character of the title, large and faint, like a model character behind the text.
  const watermark = Array.from(spec.title.trim())[0] ?? '';
  ctx.save();
  ctx.beginPath();
  ctx.rect(40, 40, width - 80, height - 80);
  ctx.clip();
  ctx.fillStyle = 'rgba(120, 92, 60, 0.075)';
  ctx.textAlign = 'right';
  ctx.textBaseline = 'alphabetic';
  setter.fill(ctx, watermark, width - 40, height - 40, 560);
  ctx.restore();

  // A thin double frame, as on a mounted scroll.
  ctx.strokeStyle = PAPER_EDGE;
  ctx.lineWidth = 2;
  ctx.strokeRect(28, 28, width - 56, height - 56);
  ctx.lineWidth = 1;
  ctx.strokeRect(40, 40, width - 80, height - 80);

  drawSeal(ctx, setter, spec);

  const left = 84;
  const maxWidth = width - left * 2;
  // The title sits between the seal and the footer rule, centred in that band.
  const bandTop = 196;
  const bandHeight = height - 140 - bandTop;
  const { size, lines } = fitTitle(ctx, setter, spec, maxWidth, bandHeight);
  const lineHeight = Math.round(size * LINE_HEIGHT);
  const top = bandTop + Math.max(0, (bandHeight - lineHeight * lines.length) / 2);
  ctx.fillStyle = INK;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  lines.forEach((line, index) => {
    setter.fill(ctx, line, left, top + index * lineHeight, size);
  });

  ctx.fillStyle = PAPER_EDGE;
  ctx.fillRect(left, height - 118, maxWidth, 2);
  ctx.fillStyle = MUTED;
  ctx.textBaseline = 'alphabetic';
  setter.fill(ctx, spec.siteTitle, left, height - 72, 28);
  if (spec.fontName) {
    ctx.textAlign = 'right';
    setter.fill(ctx, `字体 · ${spec.fontName}`, width - left, height - 72, 28);
  }
}

/**
 * Draws an item's cover on paper-coloured ground: a seal naming the kind, the title in the item's
 * library font, a faint giant first character, the site name and the font's name. Answers the
 * 1200×630 OpenGraph image and the 600×315 thumbnail as WebP (the encoding runs off the main
 * thread), and the characters no face had, which were left out.
 */
export async function renderCoverImages(spec: CoverSpec): Promise<{ cover: Buffer; thumb: Buffer; missing: string[] }> {
  const { createCanvas } = loadCanvas();
  const setter = new Typesetter(spec.faces);
  const full = createCanvas(COVER_SIZE.width, COVER_SIZE.height);
  const fullContext = full.getContext('2d');
  fullContext.lang = 'zh-CN';
  drawCover(fullContext, setter, spec);
  // The thumbnail is drawn, not scaled down, so that its text stays sharp.
  const small = createCanvas(THUMB_SIZE.width, THUMB_SIZE.height);
  const smallContext = small.getContext('2d');
  smallContext.lang = 'zh-CN';
  smallContext.scale(THUMB_SIZE.width / COVER_SIZE.width, THUMB_SIZE.height / COVER_SIZE.height);
  drawCover(smallContext, setter, spec);
  const [cover, thumb] = await Promise.all([full.encode('webp', 84), small.encode('webp', 80)]);
  return { cover, thumb, missing: setter.missing };
}
