import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDownloadLink } from '../../src/server/fonts/downloads.ts';
import { S3Storage } from '../../src/server/storage/s3.ts';
import { call, json, type LibraryFixture } from '../helpers/font-library.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';
import { expectRangeAnswers } from '../helpers/range-requests.ts';
import { type S3Server, startS3Server } from '../helpers/s3-server.ts';
import { closeToolsApp, openToolsApp, storedFiles, uploadFont, waitForJob } from '../helpers/tools.ts';

// The whole site on an S3 bucket (STORAGE_URL=s3://…, a real S3-speaking server): the library is
// seeded into the bucket, /files and downloads are served from it, and a font goes through the
// tools (upload, conversion in the workers, download) without a byte on the local disk.

const TTF = new Uint8Array(fs.readFileSync('tests/fixtures/tools/NotoSansSC-Features.ttf'));
const KUAILE = new Uint8Array(fs.readFileSync('tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf'));

let s3: S3Server;
let bucket: S3Storage;
let library: LibraryFixture;
let app: Hono;

beforeAll(async () => {
  s3 = await startS3Server();
  const prefix = `site-${randomUUID()}`;
  Object.assign(process.env, s3.env(prefix));
  bucket = new S3Storage(s3.config(prefix));
  ({ library, app } = await openToolsApp('storage-s3'));
});
afterAll(async () => {
  await closeToolsApp(library);
  await s3?.close();
});

describe('the site on an S3 bucket', () => {
  test('keeps the library in the bucket and serves /files from it, with ranges', async () => {
    expect(await storedFiles(library.dataDir, '')).toEqual([]);
    expect(await bucket.list('fonts/zcool-kuaile')).toEqual(['fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf']);
    const url = '/files/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf';
    const res = await app.request(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('font/ttf');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(KUAILE);
    await expectRangeAnswers(app, url, KUAILE);
  });

  test('downloads a font from the bucket, whole or resumed', async () => {
    const link = await createDownloadLink('zcool-kuaile-400');
    const res = await app.request(link.url);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(KUAILE);
    await expectRangeAnswers(app, link.url, KUAILE);
  });

  test('uploads, converts and downloads a font through the tools, outputs in the bucket', async () => {
    const upload = await uploadFont(app, TTF, 'source.ttf');
    expect(upload.status).toBe(200);
    expect(await bucket.list(`tools/uploads/${upload.data.fileId}`)).not.toEqual([]);
    const started = await call<{ jobId: string }>(
      app,
      '/tools/api/convert',
      json('POST', { source: { fileId: upload.data.fileId }, formats: ['woff2', 'ttf'] }),
    );
    expect(started.status).toBe(200);
    const job = await waitForJob(app, started.data.jobId);
    expect(job.state, job.error).toBe('done');
    const files = job.result?.files ?? [];
    expect(files.map((file) => file.format).sort()).toEqual(['ttf', 'woff2']);
    expect(await bucket.list('tools/outputs')).not.toEqual([]);

    for (const file of files) {
      const res = await app.request(file.url);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.byteLength).toBe(file.size);
      expect(passesOts(bytes), `${file.name} passes ots-sanitize`).toBe(true);
      expect(cmapByFontTools(bytes)).toEqual(cmapByFontTools(TTF));
      await expectRangeAnswers(app, file.url, bytes);

      // A browser's download goes straight to the bucket, under the same name.
      const navigation = await app.request(file.url, { headers: { 'sec-fetch-dest': 'document' } });
      expect(navigation.status).toBe(302);
      const location = navigation.headers.get('location') ?? '';
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
      const direct = await fetch(location);
      expect(direct.status).toBe(200);
      expect(direct.headers.get('content-disposition')).toBe(res.headers.get('content-disposition'));
      expect(new Uint8Array(await direct.arrayBuffer())).toEqual(bytes);
    }
    // Nothing of it touched the local disk.
    expect(await storedFiles(library.dataDir, '')).toEqual([]);
  });
});
