import type { Context, MiddlewareHandler, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import { type ZodType, z } from 'zod';
import { validateAccount } from '../../lib/validate.ts';
import { badRequest } from './envelope.ts';
import { refuseForbiddenText } from './text-guard.ts';

// Messages go to users, so zod speaks Chinese here (and only here: logs stay English). zod's own
// Chinese names the schema's types ("期望 string，实际接收 undefined"); a missing or mistyped field
// is said the way a form says it instead.
const zodZh = z.locales.zhCN().localeError;
const TYPE_NAMES: Record<string, string> = {
  string: '文字',
  number: '数字',
  int: '整数',
  boolean: '是或否',
  array: '列表',
  object: '一组字段',
  date: '日期',
};
const zhCN: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined || issue.input === null || issue.input === '') return '不能为空';
    return `格式不正确，应为${TYPE_NAMES[issue.expected] ?? '正确的格式'}`;
  }
  return zodZh(issue);
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

/**
 * Names a field for the user: schemas give fields a Chinese label with `.meta({ label })`,
 * otherwise the parameter name itself is shown. Array items are counted from 1, e.g.
 * "第 2 项的预览文字（text）".
 */
function fieldLabel(schema: ZodType, path: PropertyKey[]): string {
  let node: unknown = schema;
  const items: string[] = [];
  let name = '';
  for (const key of path) {
    // A field inside an optional, defaulted or transformed group is reached through its wrappers.
    node = unwrapped(node).inner;
    if (typeof key === 'number') {
      items.push(`第 ${key + 1} 项`);
      node = (node as { element?: unknown } | undefined)?.element;
    } else {
      name = String(key);
      // An optional or defaulted object holds its fields one level in.
      let object = node as { shape?: Record<PropertyKey, unknown>; def?: { innerType?: unknown } } | undefined;
      while (object && !object.shape && object.def?.innerType) object = object.def.innerType as typeof object;
      node = object?.shape?.[key];
    }
  }
  const label = unwrapped(node).label;
  const field = name ? (label ? `${label}（${name}）` : name) : (label ?? '');
  return [items.join('中'), field].filter(Boolean).join('的');
}

/** Turns a failed parse into one Chinese sentence that names the field, e.g. "页码（current）：…". */
export function describeIssues(schema: ZodType, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '请求参数不正确';
  const label = issue.path.length > 0 ? fieldLabel(schema, issue.path) : (labelOf(schema) ?? '请求参数');
  return `${label}：${issue.message}`;
}

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
  const json = type.includes('application/json') ? await c.req.json().catch(() => ({})) : undefined;
  // A JSON body that is not an object (null, a list, a number) has no fields.
  const fields: Record<string, unknown> = type.includes('application/json')
    ? typeof json === 'object' && json !== null && !Array.isArray(json)
      ? json
      : {}
    : type.includes('form')
      ? Object.fromEntries(
          [
            ...(
              await c.req.formData().catch(() => {
                throw badRequest('表单格式不正确，请重新提交');
              })
            ).entries(),
          ].map(([key, value]) => [key, String(value)]),
        )
      : {};
  refuseForbiddenText(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])));
  return fields;
}
