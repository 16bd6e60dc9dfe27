// Small formatting helpers shared by the font pages (server-rendered).

/** Bytes as people read them: '93.4 KB', '10.2 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const WEIGHT_NAMES: Record<number, string> = {
  100: '极细',
  200: '特细',
  300: '细体',
  400: '常规',
  500: '中等',
  600: '半粗',
  700: '粗体',
  800: '特粗',
  900: '黑体',
};

/** A weight in Chinese with its number: '常规 400'. */
/** The Chinese name of a standard weight (常规, 粗体 …), undefined for others. */
export function weightName(weight: number): string | undefined {
  return WEIGHT_NAMES[weight];
}

export function weightLabel(weight: number, italic = false): string {
  return `${WEIGHT_NAMES[weight] ?? '字重'} ${weight}${italic ? ' 斜体' : ''}`;
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('zh-CN');
}

/** The default sample text of the library and detail pages. */
export const SAMPLE_TEXT = '永和九年，岁在癸丑，暮春之初';
/** Most characters a visitor's own sample text may have (the subset service caps distinct characters). */
export const SAMPLE_MAX = 60;

/** A visitor's sample text from the URL, trimmed to SAMPLE_MAX characters, or the default line. */
export function sampleFrom(value: string | null): string {
  const text = [...(value ?? '').trim()].slice(0, SAMPLE_MAX).join('');
  return text || SAMPLE_TEXT;
}

/** A preview size in px from the URL, kept between 16 and 96. */
export function sizeFrom(value: string | null, fallback = 36): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 16 && n <= 96 ? Math.round(n) : fallback;
}
