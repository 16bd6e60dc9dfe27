import type { Hono } from 'hono';
import { expect } from 'vitest';

/**
 * Checks that `url` answers Range requests over `whole` (the object's bytes) as RFC 9110 says: a
 * part with 206 and Content-Range, the last bytes, 416 past the end, and the whole object again
 * when If-Range names an older version or several ranges are asked for.
 */
export async function expectRangeAnswers(app: Hono, url: string, whole: Uint8Array): Promise<void> {
  const size = whole.byteLength;
  const get = (headers: Record<string, string>) => app.request(url, { headers });
  const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

  const part = await get({ range: 'bytes=100-1099' });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${size}`);
  expect(part.headers.get('content-length')).toBe('1000');
  expect(part.headers.get('accept-ranges')).toBe('bytes');
  expect(await bytesOf(part)).toEqual(whole.subarray(100, 1100));

  // A resumed download: from a byte to the end, with If-Range naming the version it started on.
  const first = await get({});
  const lastModified = first.headers.get('last-modified') ?? '';
  await first.body?.cancel();
  const rest = await get({ range: `bytes=${size - 10}-`, 'if-range': lastModified });
  expect(rest.status).toBe(206);
  expect(rest.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
  expect(await bytesOf(rest)).toEqual(whole.subarray(size - 10));

  const tail = await get({ range: 'bytes=-4' });
  expect(tail.status).toBe(206);
  expect(await bytesOf(tail)).toEqual(whole.subarray(size - 4));

  const past = await get({ range: `bytes=${size}-` });
  expect(past.status).toBe(416);
  expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  await past.body?.cancel();

  for (const headers of [
    { range: 'bytes=0-9', 'if-range': 'Wed, 21 Oct 2015 07:28:00 GMT' },
    { range: 'bytes=0-9,20-29' },
  ]) {
    const res = await get(headers);
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(whole);
  }
}
