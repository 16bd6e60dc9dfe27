/** Why a font given by a user cannot be used; each reason has one message for the user. */
export type FontInputProblem =
  | 'not-font'
  | 'truncated'
  | 'corrupt'
  | 'too-large'
  | 'mtx'
  | 'encrypted'
  | 'face-index'
  | 'incompatible'
  | 'not-image';

const MESSAGES: Record<FontInputProblem, string> = {
  'not-font': '这不是字体文件，请上传 TTF、OTF、TTC、WOFF、WOFF2 或 EOT 格式的字体',
  truncated: '字体文件不完整（可能上传中断或文件已损坏），请重新上传完整的文件',
  corrupt: '字体文件已损坏，无法读取其中的字形数据',
  'too-large': '字体解压后的数据过大，已拒绝处理（可能是恶意构造的压缩文件）',
  mtx: '这是 MicroType Express 压缩的 EOT 字体，暂不支持，请改用 TTF、WOFF 或 WOFF2 原文件',
  encrypted: '字体数据已加密，无法读取',
  'face-index': '字体集合中没有这个序号的字体',
  incompatible: '无法转换为所选格式',
  'not-image': '图片无法读取，请上传 PNG、JPEG、WebP 或 SVG 图片',
};

/**
 * Thrown by the font engine for input a user sent that cannot be used. `message` is the Chinese
 * sentence shown to the user; `detail` (English) goes to the log only.
 */
export class FontInputError extends Error {
  override name = 'FontInputError';
  readonly problem: FontInputProblem;
  readonly detail: string;

  constructor(problem: FontInputProblem, detail = '', message = MESSAGES[problem]) {
    super(message);
    this.problem = problem;
    this.detail = detail;
  }
}
