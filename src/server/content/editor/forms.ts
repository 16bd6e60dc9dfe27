import { z } from 'zod';
import { ARTICLE_KINDS } from '../../db/schema/index.ts';
import { chineseIssues } from '../../http/validate.ts';
import type { AlbumInput, ArticleInput, CaseInput } from './save.ts';

// The editing area posts plain HTML forms; these schemas turn them into service inputs and say
// in Chinese what is wrong with a field.

const title = z.string().trim().min(1, '请填写标题').max(120, '标题最多 120 个字');
const summary = z.string().trim().max(300, '摘要最多 300 个字').default('');
const body = z.string().max(100_000, '正文太长了，请分成几篇').default('');
// A field the form may leave out or empty.
const short = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label}最多 ${max} 个字`)
    .optional()
    .transform((value) => value || undefined);

const articleForm = z.object({
  kind: z.enum(ARTICLE_KINDS, { error: '请选择文章类型' }),
  title,
  summary,
  body,
  author: short(40, '作者'),
  source: short(80, '来源'),
  tag: short(20, '分类'),
  videoUrl: short(500, '视频地址'),
});

const fontList = z
  .string()
  .max(2000)
  .default('')
  .transform((value) =>
    value
      .split(/[\s,，、]+/)
      .map((gno) => gno.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[a-z0-9-]{1,100}$/, '字体编号只能包含小写字母、数字和连字符')).max(50));

const albumForm = z.object({ title, summary, body, fonts: fontList });
const caseForm = z.object({ title, summary, body, client: short(60, '客户'), font: short(100, '字体') });

/** A form's values as the service takes them, or the first problem per field. */
export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

function parse<T>(schema: z.ZodType<T>, form: FormData): FormResult<T> {
  const raw = Object.fromEntries(
    [...form.entries()].map(([key, value]) => [key, typeof value === 'string' ? value : '']),
  );
  const result = schema.safeParse(raw, { error: chineseIssues });
  if (result.success) return { ok: true, value: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** Reads the article form. */
export function parseArticleForm(form: FormData): FormResult<ArticleInput> {
  return parse(articleForm, form) as FormResult<ArticleInput>;
}

/** Reads the album form; fonts are family gnos separated by spaces, commas or new lines. */
export function parseAlbumForm(form: FormData): FormResult<AlbumInput> {
  return parse(albumForm, form) as FormResult<AlbumInput>;
}

/** Reads the case form. */
export function parseCaseForm(form: FormData): FormResult<CaseInput> {
  return parse(caseForm, form) as FormResult<CaseInput>;
}
