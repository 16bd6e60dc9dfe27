import type { Context, MiddlewareHandler, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import { type ZodType, z } from 'zod';
import { badRequest } from './envelope.ts';

// Messages go to users, so zod speaks Chinese here (and only here: logs stay English).
const zhCN = z.locales.zhCN().localeError;

/**
 * Names a field for the user: schemas give fields a Chinese label with `.meta({ label })`,
 * otherwise the parameter name itself is shown.
 */
function fieldLabel(schema: ZodType, path: PropertyKey[]): string {
  let node: unknown = schema;
  for (const key of path) {
    const shape = (node as { shape?: Record<PropertyKey, unknown> }).shape;
    node = shape?.[key];
    if (!node) break;
  }
  const label = node ? (z.globalRegistry.get(node as ZodType)?.['label'] as string | undefined) : undefined;
  const name = path.map(String).join('.');
  return label ? `${label}（${name}）` : name;
}

/** Turns a failed parse into one Chinese sentence that names the field, e.g. "页码（current）：…". */
export function describeIssues(schema: ZodType, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '请求参数不正确';
  const label = issue.path.length > 0 ? fieldLabel(schema, issue.path) : '请求参数';
  return `${label}：${issue.message}`;
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
  return validator(target, (value: unknown, _c: Context) => {
    const result = schema.safeParse(value, { error: zhCN });
    if (!result.success) throw badRequest(describeIssues(schema, result.error));
    return result.data;
  }) as never;
}

/** The paging query of SPEC lists: `current` is 1-based, `size` is capped at 100. */
export const pageQuery = z.object({
  current: z.coerce.number().int().min(1).max(100_000).default(1).meta({ label: '页码' }),
  size: z.coerce.number().int().min(1).max(100).default(20).meta({ label: '每页条数' }),
});
