import { listContributeTemplates } from '../content/site-blocks.ts';
import { coverageSets } from '../engine/charsets.ts';
import { notFound } from '../http/envelope.ts';

// The files /tougao offers: the character-set sheets a designer draws from (in their standard
// order: GB 2312 by its code table, 通用规范汉字表 level 1 by its own numbering) and the
// templates an editor keeps on the site (contributeTemplate), as text to fill in.

/** The downloads, by the name in their URL. */
export const TEMPLATE_FILES = {
  'gb2312-6763': { title: 'GB 2312 汉字表（6763 字）', file: 'GB2312-6763字.txt' },
  'tongyong-3500': { title: '通用规范汉字表一级字表（3500 字）', file: '通用规范汉字表-一级3500字.txt' },
  license: { title: '授权声明模板', file: '授权声明模板.txt' },
  'font-info': { title: '字体信息表说明', file: '字体信息表说明.txt' },
} as const;
export type TemplateFileName = keyof typeof TEMPLATE_FILES;

/** Characters in lines of 50, numbered every line, so a designer can tick them off. */
function sheet(title: string, codePoints: Iterable<number>): string {
  const chars = Array.from(codePoints, (cp) => String.fromCodePoint(cp));
  const lines = [`${title}`, `共 ${chars.length} 字，每行 50 字。`, ''];
  for (let i = 0; i < chars.length; i += 50) {
    lines.push(`${String(i + 1).padStart(4, '0')}  ${chars.slice(i, i + 50).join('')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The HTML of a template as text to edit: paragraphs and items on their own lines. */
function textOf(html: string): string {
  return html
    .replace(/<li>/g, '- ')
    .replace(/<\/(p|li|h\d|blockquote)>|<br\s*\/?>|<hr\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The text of a download; a template an editor has not written answers 404. */
export async function templateFile(name: TemplateFileName): Promise<string> {
  const sets = coverageSets();
  if (name === 'gb2312-6763') return sheet(TEMPLATE_FILES[name].title, sets.gb2312);
  if (name === 'tongyong-3500') return sheet(TEMPLATE_FILES[name].title, sets.tongyong);
  const [template] = await listContributeTemplates(name);
  if (!template) throw notFound('模板不存在');
  return `${template.title}\n\n${textOf(template.contentHtml)}\n`;
}
