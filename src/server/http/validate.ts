import type { Context, MiddlewareHandler, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import { type ZodType, z } from 'zod';
import { validateAccount } from '../../lib/validate.ts';
import { ApiError, badRequest } from './envelope.ts';
import { refuseForbiddenText } from './text-guard.ts';

// Messages go to users, so zod speaks Chinese here (and only here: logs stay English). zod's own
// Chinese locale names the schema's types and operators ("数值过大：期望 string <=50 字符", "期望 int，
// 实际接收 数字"); every issue is said here the way a form says it instead, with the limit in words.
// A message a schema writes itself (`.min(1, '请指定字体')`, a refine) is kept as written.
const TYPE_NAMES: Record<string, string> = {
  string: '文字',
  number: '数字',
  int: '整数',
  bigint: '整数',
  boolean: '是或否',
  array: '列表',
  object: '一组字段',
  date: '日期',
};

/** A list of allowed values, when it is short enough to read; otherwise null. */
function choices(values: readonly unknown[]): string | null {
  if (values.length === 0 || values.length > 12) return null;
  if (!values.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) return null;
  return values.map((value) => String(value)).join('、');
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>): string {
  const max = String(issue.maximum);
  const strict = issue.inclusive === false;
  switch (issue.origin) {
    case 'string':
      return strict ? `应少于 ${max} 个字` : `不能超过 ${max} 个字`;
    case 'array':
    case 'set':
      return strict ? `应少于 ${max} 项` : `最多 ${max} 项`;
    case 'file':
      return `文件不能超过 ${max} 字节`;
    case 'date':
      return `不能晚于 ${new Date(Number(issue.maximum)).toISOString().slice(0, 10)}`;
    default:
      return strict ? `应小于 ${max}` : `不能大于 ${max}`;
  }
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>): string {
  const min = String(issue.minimum);
  const strict = issue.inclusive === false;
  switch (issue.origin) {
    case 'string':
      if (Number(issue.minimum) <= 1 && !strict) return '不能为空';
      return strict ? `应多于 ${min} 个字` : `至少 ${min} 个字`;
    case 'array':
    case 'set':
      if (Number(issue.minimum) <= 1 && !strict) return '至少选一项';
      return strict ? `应多于 ${min} 项` : `至少 ${min} 项`;
    case 'file':
      return '文件是空的';
    case 'date':
      return `不能早于 ${new Date(Number(issue.minimum)).toISOString().slice(0, 10)}`;
    default:
      return strict ? `应大于 ${min}` : `不能小于 ${min}`;
  }
}

const FORMAT_NAMES: Record<string, string> = {
  email: '邮箱格式不正确',
  url: '网址格式不正确',
  datetime: '时间格式不正确',
  date: '日期格式不正确',
  time: '时间格式不正确',
  uuid: '编号格式不正确',
};

const zhCN: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '') return '不能为空';
      if (issue.expected === 'int' && typeof issue.input === 'number') return '应为整数';
      if (issue.expected === 'number' && typeof issue.input === 'number') {
        return Number.isNaN(issue.input) ? '格式不正确，应为数字' : '数字太大';
      }
      return `格式不正确，应为${TYPE_NAMES[issue.expected] ?? '正确的格式'}`;
    case 'too_big':
      return tooBig(issue);
    case 'too_small':
      return tooSmall(issue);
    case 'invalid_format':
      return FORMAT_NAMES[issue.format] ?? '格式不正确';
    case 'invalid_value': {
      const allowed = choices(issue.values);
      if (!allowed) return '不是可以选的值';
      return issue.values.length === 1 ? `只能是 ${allowed}` : `只能是 ${allowed} 之一`;
    }
    case 'not_multiple_of':
      return `应为 ${String(issue.divisor)} 的整数倍`;
    case 'unrecognized_keys':
      return `不认识的字段：${issue.keys.join('、')}`;
    default:
      // invalid_union, invalid_key, invalid_element, and a custom check that wrote no message.
      return '格式不正确';
  }
};

function labelOf(schema: unknown): string | undefined {
  return schema ? (z.globalRegistry.get(schema as ZodType)?.['label'] as string | undefined) : undefined;
}

/**
 * The schema inside optional, nullable, default, catch, readonly and pipe wrappers, and the first
 * label met on the way in (`.partial()` and `.optional()` wrap a labelled schema; `.meta()` may also
 * label the wrapper itself).
 */
function unwrapped(schema: unknown): { inner: unknown; label: string | undefined } {
  let node = schema;
  let label: string | undefined;
  for (let depth = 0; node && depth < 8; depth++) {
    label ??= labelOf(node);
    const def = (
      node as { def?: { innerType?: unknown; in?: { def?: { type?: string } }; out?: unknown; type?: string } }
    ).def;
    // A pipe is `schema.transform()` (the schema goes in) or `z.preprocess()` (the schema comes out).
    const piped = def?.in?.def?.type === 'transform' ? def.out : def?.in;
    const next = def?.innerType ?? (def?.type === 'pipe' ? piped : undefined);
    if (!next) break;
    node = next;
  }
  return { inner: node, label };
}

/** A field's Chinese label, on the field itself or on what it wraps. */
function labelAt(node: unknown): string | undefined {
  return unwrapped(node).label;
}

/**
 * Names a field for the user: schemas give fields a Chinese label with `.meta({ label })`,
 * otherwise the parameter name itself is shown, and a label that names its parameter already
 * ("字体（family）") is not followed by it again. Array items are counted from 1 after the list
 * they belong to, e.g. "条目（items）第 2 项的文字（text）"; a top-level list is "第 2 项的文字（text）".
 * A field without a label of its own is placed by the labelled group it is in ("来源（source）的fontId"); a
 * labelled field is named alone, as the form shows it.
 */
function fieldLabel(schema: ZodType, path: PropertyKey[]): string {
  const named = (label: string | undefined, name: string) => {
    if (!name) return label ?? '';
    if (!label) return name;
    return label.includes(`（${name}）`) || label.includes(`(${name})`) ? label : `${label}（${name}）`;
  };
  let node: unknown = schema;
  const parts: Array<{ text: string; group?: boolean }> = [];
  let name = '';
  let listLabel: string | undefined;
  for (const key of path) {
    if (typeof key === 'number') {
      listLabel = labelAt(node);
      parts.push({ text: `${named(listLabel, name)}第 ${key + 1} 项` });
      name = '';
      node = (unwrapped(node).inner as { element?: unknown } | undefined)?.element;
    } else {
      // A labelled object on the way may say where the field is.
      const label = name ? labelAt(node) : undefined;
      if (label) parts.push({ text: named(label, name), group: true });
      name = String(key);
      // A field inside an optional, defaulted or transformed group is reached through its wrappers.
      node = (unwrapped(node).inner as { shape?: Record<PropertyKey, unknown> } | undefined)?.shape?.[key];
    }
  }
  // An item labelled like its list ("字符集" in 字符集（charsets）) is not named a second time.
  const last = labelAt(node);
  const where = parts.filter((part) => !(part.group && last)).map((part) => part.text);
  return [...where, name || last !== listLabel ? named(last, name) : ''].filter(Boolean).join('的');
}

/** Turns a failed parse into one Chinese sentence that names the field, e.g. "页码（current）：…". */
export function describeIssues(schema: ZodType, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '请求参数不正确';
  const label = issue.path.length > 0 ? fieldLabel(schema, issue.path) : (labelOf(schema) ?? '请求参数');
  return `${label}：${issue.message}`;
}

/**
 * Parses what a handler read by hand (formOrJsonFields, a multipart form) with zod's issues in
 * Chinese: the data, or one sentence for the first field that is wrong. A message the schema wrote
 * itself ('回复至少 2 个字') is a whole sentence already and is kept as written; any other names the field.
 */
export function parseInChinese<S extends ZodType>(
  schema: S,
  value: unknown,
): { success: true; data: z.output<S> } | { success: false; message: string } {
  const result = schema.safeParse(value, { error: zhCN });
  if (result.success) return { success: true, data: result.data as z.output<S> };
  const issue = result.error.issues[0];
  const own = issue && issue.message !== zhCN(issue as never);
  return { success: false, message: own ? issue.message : describeIssues(schema, result.error) };
}

/** zod's issues said in Chinese (this module's error map), for forms that show each field's own message. */
export const chineseIssues: z.core.$ZodErrorMap = (issue) => zhCN(issue);

/** What a validating middleware checks: the part of the request and its schema. */
export interface Validation {
  target: keyof ValidationTargets;
  schema: ZodType;
}

// The schema of every validating middleware, by the middleware: the OpenAPI document and the
// hostile-input test read a route's schemas from the app itself, so they cannot drift from it.
const validations = new WeakMap<object, Validation>();

/** The validation a middleware performs, when it is one that `validate` made. */
export function validationOf(handler: unknown): Validation | undefined {
  return typeof handler === 'function' ? validations.get(handler) : undefined;
}

/**
 * Validates one part of the request with a zod schema; failure answers 400 with a Chinese
 * message naming the field, success hands the parsed value to the handler via `c.req.valid()`.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
): MiddlewareHandler<
  Record<string, never>,
  string,
  { in: { [K in Target]: z.input<Schema> }; out: { [K in Target]: z.output<Schema> } }
> {
  const middleware = validator(target, (value: unknown, _c: Context) => {
    refuseForbiddenText(value);
    const result = schema.safeParse(value, { error: zhCN });
    if (!result.success) throw badRequest(describeIssues(schema, result.error));
    return result.data;
  });
  validations.set(middleware, { target, schema });
  return middleware as never;
}

/** The paging query of SPEC lists: `current` is 1-based, `size` is capped at 100. */
export const pageQuery = z.object({
  current: z.coerce.number().int().min(1).max(100_000).default(1).meta({ label: '页码' }),
  size: z.coerce.number().int().min(1).max(100).default(20).meta({ label: '每页条数' }),
});

const blankIsAbsent = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * A choice a list call is filtered by: blank, as a form with an empty select sends it, counts as
 * absent, which means every choice.
 */
export const listChoice = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z
    .preprocess(blankIsAbsent, z.enum(values, `只能是 ${values.join('、')} 之一，或留空表示全部`).optional())
    .meta({ label });

/** A choice of which list to answer, with a default: blank counts as absent, so it is the default. */
export const listChoiceOr = <const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
  label: string,
) => z.preprocess(blankIsAbsent, z.enum(values, `只能是 ${values.join('、')} 之一`).default(fallback)).meta({ label });

/** A mobile number or an e-mail address to reach a person at (the contact form, the signed agreement). */
export const contactAddress = z
  .string()
  .trim()
  .min(1, '请填写手机号或邮箱')
  .max(100)
  .refine((value) => validateAccount(value) === null, '联系方式格式不正确，请填写手机号或邮箱')
  .meta({ label: '联系方式' });

/** The fields of a plain form post or of a JSON call (pages post forms, scripts JSON); anything else is empty. */
export async function formOrJsonFields(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  // A body that is not JSON has no fields; one the body gate refused (too large, not finished) is refused.
  const refused = (error: unknown) => {
    if (error instanceof ApiError) throw error;
  };
  const json = type.includes('application/json')
    ? await c.req.json().catch((error: unknown) => {
        refused(error);
        return {};
      })
    : undefined;
  // A JSON body that is not an object (null, a list, a number) has no fields.
  const fields: Record<string, unknown> = type.includes('application/json')
    ? typeof json === 'object' && json !== null && !Array.isArray(json)
      ? json
      : {}
    : type.includes('form')
      ? Object.fromEntries(
          [
            ...(
              await c.req.formData().catch((error: unknown) => {
                refused(error);
                throw badRequest('表单格式不正确，请重新提交');
              })
            ).entries(),
          ].map(([key, value]) => [key, String(value)]),
        )
      : {};
  refuseForbiddenText(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])));
  return fields;
}
