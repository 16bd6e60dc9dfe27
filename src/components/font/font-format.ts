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
