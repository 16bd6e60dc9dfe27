import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { serializeError } from '../../src/server/error-summary.ts';

// Every `log().error({ err })` goes through this serializer (src/server/log.ts). A failed query holds
// the values it was given, which are what users typed, in its message, its stack and `params`.

function logged(err: unknown): string {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  pino({ serializers: { err: serializeError } }, sink).error({ err }, 'could not draw a captcha');
  return lines.join('');
}

const driver = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
const failed = new DrizzleQueryError(
  'select "id" from "accounts" where "email" = $1',
  ['zhangsan@example.com'],
  driver,
);

describe('serializeError', () => {
  test('logs a failed query as its statement and the driver message, never its values', () => {
    const line = logged(failed);
    expect(line).toContain('select \\"id\\" from \\"accounts\\"');
    expect(line).toContain('22021');
    expect(line).not.toContain('zhangsan');
  });

  test('also when the failed query is the cause of another error', () => {
    const line = logged(new Error('captcha not drawn', { cause: failed }));
    expect(line).toContain('22021');
    expect(line).not.toContain('zhangsan');
  });

  test('keeps message and stack of an ordinary error', () => {
    const line = JSON.parse(logged(new TypeError('x is not a function'))) as {
      err: { message: string; stack: string };
    };
    expect(line.err.message).toBe('x is not a function');
    expect(line.err.stack).toMatch(/TypeError: x is not a function/);
  });
});
