import { describe, expect, it } from 'vitest';
import { errorStatus, errorStatusMessage, PageNotFoundError } from '../../src/lib/route-error.ts';

describe('errorStatus', () => {
  it.each([
    [{ statusCode: 404 }, 404],
    [{ status: 403 }, 403],
    [{ response: { status: 502 } }, 502],
    [{ statusCode: 418, status: 503 }, 418],
    [{ statusCode: '410' }, 410],
    [{ statusCode: 200 }, 500], // not an error status
    [{ status: 'nope' }, 500],
    [new Error('plain'), 500],
    [null, 500],
    ['text', 500],
    [new PageNotFoundError('bad id'), 404],
  ])('reads %j as %i', (error, expected) => {
    expect(errorStatus(error)).toBe(expected);
  });
});

describe('errorStatusMessage', () => {
  it('says the page does not exist for 404', () => {
    expect(errorStatusMessage(404)).toBe('页面不存在');
  });

  it('speaks of the server for 5xx', () => {
    expect(errorStatusMessage(503)).toMatch(/服务器/);
  });
});
