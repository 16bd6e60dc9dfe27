import { describe, expect, test } from 'vitest';
import { presignUrl, verifyPresigned } from '../../src/server/storage/presign.ts';

// AWS's own example of a presigned URL (S3 API reference, "Authenticating Requests: Using Query
// Parameters"): the same inputs must give the same signature, or an S3 bucket would refuse ours.
const AWS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
};

describe('presigned URLs (SigV4)', () => {
  test('match the signature AWS documents for its example', () => {
    const url = presignUrl(AWS, {
      method: 'GET',
      origin: 'https://examplebucket.s3.amazonaws.com',
      path: '/test.txt',
      headers: {},
      expiresSeconds: 86400,
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(new URL(url).searchParams.get('X-Amz-Signature')).toBe(
      'aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  const now = new Date('2026-11-25T10:00:00Z');
  const signed = new URL(
    presignUrl(AWS, {
      method: 'PUT',
      origin: '',
      path: '/files/tools/incoming/1-x/upload.ttf',
      headers: { 'content-length': '1234', 'content-type': 'font/ttf' },
      expiresSeconds: 600,
      now,
    }),
    'http://localhost',
  );
  const request = (headers: Record<string, string>, method = 'PUT', path = signed.pathname) => ({
    method,
    path,
    query: signed.searchParams,
    header: (name: string) => headers[name],
  });
  const good = { 'content-length': '1234', 'content-type': 'font/ttf' };

  test('are checked the way S3 checks them', () => {
    expect(verifyPresigned(AWS, request(good), now)).toBeUndefined();
    expect(verifyPresigned(AWS, request(good), new Date(now.getTime() + 601_000))).toBe('expired');
    expect(verifyPresigned(AWS, request({ ...good, 'content-length': '99999' }), now)).toBe('bad-signature');
    expect(verifyPresigned(AWS, request({ ...good, 'content-type': 'image/png' }), now)).toBe('bad-signature');
    expect(verifyPresigned(AWS, request(good, 'GET'), now)).toBe('bad-signature');
    expect(verifyPresigned(AWS, request(good, 'PUT', '/files/tools/incoming/1-x/other.ttf'), now)).toBe(
      'bad-signature',
    );
    expect(verifyPresigned({ ...AWS, secretAccessKey: 'another' }, request(good), now)).toBe('bad-signature');
    const bare = { method: 'PUT', path: signed.pathname, query: new URLSearchParams(), header: () => undefined };
    expect(verifyPresigned(AWS, bare, now)).toBe('missing');
  });
});
