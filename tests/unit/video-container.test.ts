import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { VIDEO_SEED_DIR } from '../../src/server/db/seed/videos.ts';
import { bytesSource } from '../../src/server/videos/byte-source.ts';
import { checkCaptions } from '../../src/server/videos/captions.ts';
import { VideoFormatError } from '../../src/server/videos/formats.ts';
import { probeVideo } from '../../src/server/videos/probe.ts';

// Real files recorded by Chromium (scripts/make-videos.ts -- --fixtures): one second of picture as
// MP4 (H.264) and as WebM (VP9 with Opus sound), and the seed videos.
const fixture = (name: string) =>
  new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/videos', name)));
const probe = (bytes: Uint8Array) => probeVideo(bytesSource(bytes));
const refusal = (bytes: Uint8Array) =>
  probe(bytes).then(
    () => 'accepted',
    (error: unknown) => (error instanceof VideoFormatError ? error.message : `crashed: ${String(error)}`),
  );

describe('probeVideo', () => {
  test('reads an MP4 box by box: H.264, its size and the duration of its movie header', async () => {
    expect(await probe(fixture('tiny.mp4'))).toEqual({
      container: 'mp4',
      mime: 'video/mp4',
      durationMs: 965,
      width: 64,
      height: 48,
      videoCodec: expect.stringMatching(/^avc1\./),
      audioCodec: null,
    });
  });

  test('reads a live-recorded WebM (no Duration element) by its last block: VP9 picture, Opus sound', async () => {
    expect(await probe(fixture('tiny.webm'))).toEqual({
      container: 'webm',
      mime: 'video/webm',
      durationMs: 940,
      width: 64,
      height: 48,
      videoCodec: 'V_VP9',
      audioCodec: 'A_OPUS',
    });
  });

  test('every seed video is a WebM of 5 to 15 seconds under 1 MB', async () => {
    const files = fs.readdirSync(VIDEO_SEED_DIR).filter((name) => name.endsWith('.webm'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const name of files) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(VIDEO_SEED_DIR, name)));
      expect(bytes.byteLength).toBeLessThan(1024 * 1024);
      const found = await probe(bytes);
      expect(found.durationMs).toBeGreaterThanOrEqual(5000);
      expect(found.durationMs).toBeLessThanOrEqual(15_000);
    }
  });

  test('a PNG renamed to .mp4 is refused by its bytes', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    expect(await refusal(new Uint8Array(png))).toBe('文件不是 MP4 或 WebM 视频');
  });

  test('a file cut short is refused, whichever container', async () => {
    for (const name of ['tiny.mp4', 'tiny.webm']) {
      const bytes = fixture(name);
      for (const keep of [0.3, 0.9]) {
        expect(await refusal(bytes.subarray(0, Math.floor(bytes.byteLength * keep)))).toMatch(/不完整/);
      }
    }
  });

  test('an EBML file whose DocType is not webm (a Matroska file) is refused', async () => {
    const bytes = fixture('tiny.webm').slice();
    const at = Buffer.from(bytes).indexOf('webm');
    bytes.set(new TextEncoder().encode('mkvx'), at);
    expect(await refusal(bytes)).toBe('文件不是 WebM 视频（它声明的文档类型是「mkvx」）');
  });

  test('a WebM with a codec browsers do not play is refused with its name', async () => {
    const bytes = fixture('tiny.webm').slice();
    const at = Buffer.from(bytes).indexOf('V_VP9');
    bytes.set(new TextEncoder().encode('V_MS9'), at);
    expect(await refusal(bytes)).toMatch(/不支持的编码「V_MS9」/);
  });

  test('an MP4 with another picture codec is refused', async () => {
    const bytes = fixture('tiny.mp4').slice();
    const at = Buffer.from(bytes).indexOf('avc1', 40);
    bytes.set(new TextEncoder().encode('hvc1'), at);
    expect(await refusal(bytes)).toMatch(/不支持的画面编码「hvc1」/);
  });
});

describe('checkCaptions', () => {
  const vtt = (text: string) => new TextEncoder().encode(text);

  test('accepts WebVTT with a byte-order mark and hour-less times', () => {
    expect(checkCaptions(vtt('\uFEFFWEBVTT\n\n1\n00:01.000 --> 00:02.500\n你好\n'))).toBe(
      'WEBVTT\n\n1\n00:01.000 --> 00:02.500\n你好\n',
    );
  });

  test('refuses what is not WebVTT, bad timings, no cues and other encodings', () => {
    const refused = (bytes: Uint8Array) => {
      try {
        checkCaptions(bytes);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused(vtt('1\n00:00:01,000 --> 00:00:02,000\n你好\n'))).toMatch(/WEBVTT/);
    expect(refused(vtt('WEBVTT\n\n00:00:01,000 --> 00:00:02.000\n你好\n'))).toMatch(/第 3 行的时间格式不对/);
    expect(refused(vtt('WEBVTT\n\n00:00:03.000 --> 00:00:02.000\n你好\n'))).toMatch(/第 3 行/);
    expect(refused(vtt('WEBVTT\n\n'))).toBe('字幕文件里没有任何一条字幕');
    // 你好 in GBK.
    expect(refused(new Uint8Array([...vtt('WEBVTT\n\n00:01.000 --> 00:02.000\n'), 0xc4, 0xe3, 0xba, 0xc3]))).toMatch(
      /UTF-8/,
    );
    expect(refused(new Uint8Array(600 * 1024).fill(0x41))).toMatch(/太大/);
  });
});
