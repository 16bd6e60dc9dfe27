// The generic CSS family a library font falls back on in the web-font snippet.

/** 'serif' for 宋、明、楷、仿宋 and brush styles (by the category's Chinese label), else 'sans-serif'. */
export function genericFamily(categoryLabel: string): 'serif' | 'sans-serif' {
  return /宋|明|楷|仿|书法|行书|隶/.test(categoryLabel) ? 'serif' : 'sans-serif';
}
