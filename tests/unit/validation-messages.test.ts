import { Hono } from 'hono';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/server/http/envelope.ts';
import { validate } from '../../src/server/http/validate.ts';

// What a person reads when a field is refused: the field's Chinese name once (with its parameter
// name for API callers), then what is wrong in words, never the schema's types or operators.

const schema = z.object({
  name: z.string().max(50).meta({ label: '名称' }),
  short: z.string().min(3).meta({ label: '简称' }),
  count: z.coerce.number().int().min(1).max(100).meta({ label: '数量' }),
  ratio: z.number().gt(0).lt(1).meta({ label: '比例' }),
  email: z.email().meta({ label: '邮箱' }),
  kind: z.enum(['png', 'svg']).meta({ label: '格式' }),
  list: z.array(z.string()).min(1).max(2).meta({ label: '列表' }),
  family: z.string().max(5).meta({ label: '字体（family）' }),
  color: z
    .string()
    .regex(/^#[0-9a-f]{6}$/)
    .meta({ label: '颜色' }),
  options: z.strictObject({ a: z.string() }).meta({ label: '选项' }),
  either: z.union([z.string(), z.number()]).meta({ label: '内容' }),
  step: z.number().multipleOf(5).meta({ label: '步长' }),
  note: z.string().min(1, '请写上备注').meta({ label: '备注' }),
  items: z.array(z.object({ text: z.string().max(3).meta({ label: '文字' }) })).meta({ label: '条目' }),
  plain: z.string().max(2),
  source: z
    .object({ fontId: z.number().int().min(1), text: z.string().max(3).meta({ label: '文字' }) })
    .optional()
    .meta({ label: '来源' }),
});
const valid = {
  name: 'a',
  short: 'abc',
  count: 5,
  ratio: 0.5,
  email: 'a@example.com',
  kind: 'png',
  list: ['a'],
  family: 'a',
  color: '#ffffff',
  options: { a: 'x' },
  either: 'x',
  step: 10,
  note: 'x',
  items: [{ text: 'a' }],
  plain: 'a',
  source: { fontId: 1, text: 'a' },
};

const app = new Hono();
app.post('/', validate('json', schema), (c) => c.text('ok'));
app.onError((error, c) => c.text(error instanceof ApiError ? error.message : 'unexpected', 400));

async function messageFor(field: string, value: unknown): Promise<string> {
  const answer = await app.request('/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...valid, [field]: value }),
  });
  return answer.text();
}

describe('validation messages', () => {
  test.each([
    ['name', 'x'.repeat(51), '名称（name）：不能超过 50 个字'],
    ['name', 5, '名称（name）：格式不正确，应为文字'],
    ['name', undefined, '名称（name）：不能为空'],
    ['short', 'a', '简称（short）：至少 3 个字'],
    ['count', 1.5, '数量（count）：应为整数'],
    ['count', 0, '数量（count）：不能小于 1'],
    ['count', 1000, '数量（count）：不能大于 100'],
    ['count', 'abc', '数量（count）：格式不正确，应为数字'],
    ['count', '1e309', '数量（count）：数字太大'],
    ['ratio', 1, '比例（ratio）：应小于 1'],
    ['ratio', 0, '比例（ratio）：应大于 0'],
    ['email', 'not an address', '邮箱（email）：邮箱格式不正确'],
    ['kind', 'gif', '格式（kind）：只能是 png、svg 之一'],
    ['list', [], '列表（list）：至少选一项'],
    ['list', ['a', 'b', 'c'], '列表（list）：最多 2 项'],
    ['family', 'abcdefgh', '字体（family）：不能超过 5 个字'],
    ['color', 'red', '颜色（color）：格式不正确'],
    ['options', { a: 'x', b: 1 }, '选项（options）：不认识的字段：b'],
    ['either', true, '内容（either）：格式不正确'],
    ['step', 7, '步长（step）：应为 5 的整数倍'],
    ['note', '', '备注（note）：请写上备注'],
    ['items', [{ text: 'a' }, { text: 'abcd' }], '条目（items）第 2 项的文字（text）：不能超过 3 个字'],
    ['plain', 'abc', 'plain：不能超过 2 个字'],
    // A field of a group is named alone when it has a label, and placed by its group when it has none.
    ['source', { fontId: 1, text: 'abcd' }, '文字（text）：不能超过 3 个字'],
    ['source', { fontId: 0, text: 'a' }, '来源（source）的fontId：不能小于 1'],
  ])('%s = %j is refused with “%s”', async (field, value, expected) => {
    expect(await messageFor(field, value)).toBe(expected);
  });

  test('never names a schema type or operator, nor a field twice', async () => {
    const bad: Record<string, unknown> = { name: 'x'.repeat(99), short: '', count: -3, email: 1, kind: [], list: 'x' };
    for (const [field, value] of Object.entries(bad)) {
      const message = await messageFor(field, value);
      expect(message).toMatch(/\p{Script=Han}/u);
      expect(message).not.toMatch(/string|number|array|int\b|undefined|期望|实际接收|<=|>=|（(\w+)）（\1）/);
    }
  });
});
