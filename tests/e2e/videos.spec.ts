import path from 'node:path';
import { violations } from '../helpers/axe.ts';
import { openLogin, registerInOpenDialog } from '../helpers/e2e-register.ts';
import { expect, test } from '../helpers/e2e-test.ts';

// An editor uploads a video with its poster and captions; its page plays it with the site's own
// player, seeking by keyboard through range requests, with captions and speed switched by keyboard.

const SEED = path.join(import.meta.dirname, '../../src/server/db/seed/videos');

test('an editor uploads a video, and its page plays it with the keyboard', async ({ page }) => {
  await page.goto('/');
  await openLogin(page);
  await registerInOpenDialog(page, 'video-editor@example.com', 'ink and paper 2026');

  await page.goto('/editor/video/new');
  await page.getByLabel('标题').fill('上传的「永」字短片');
  await page.getByLabel('简介').fill('编辑上传的测试视频。');
  await page.getByLabel('视频文件（MP4 或 WebM）').setInputFiles(path.join(SEED, 'yong.webm'));
  await page.getByLabel('封面图（PNG、JPEG 或 WebP）').setInputFiles(path.join(SEED, 'yong.png'));
  await page.getByLabel('中文字幕（WebVTT，.vtt）').setInputFiles(path.join(SEED, 'yong.vtt'));
  await page.getByRole('button', { name: '上传并发布' }).click();
  await expect(page).toHaveURL(/\/editor\/video\/\d+\?done=/);
  const id = /\/editor\/video\/(\d+)/.exec(page.url())?.[1];

  const ranges: number[] = [];
  page.on('response', (response) => {
    if (/\/files\/videos\/[0-9a-f]+\.webm$/.test(response.url())) ranges.push(response.status());
  });
  await page.goto(`/video/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('上传的「永」字短片');
  const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent();
  expect(JSON.parse(jsonLd ?? '{}')).toMatchObject({ '@type': 'VideoObject', duration: 'PT10S' });

  const video = page.locator('[data-player-video]');
  // The island took over: the native controls are off and the page's own are shown.
  await expect(video).not.toHaveAttribute('controls');
  expect(await violations(page)).toEqual([]);
  const play = page.getByRole('button', { name: '播放', exact: true });
  await play.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: '暂停' })).toBeVisible();
  await page.keyboard.press('Enter');

  const seek = page.getByRole('slider', { name: '播放进度' });
  await seek.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThanOrEqual(5);
  await page.keyboard.press('Home');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBe(0);
  expect(ranges).toContain(206);

  const captions = page.getByRole('button', { name: '字幕', exact: true });
  await expect(captions).toHaveAttribute('aria-pressed', 'true');
  await captions.focus();
  await page.keyboard.press('Enter');
  await expect(captions).toHaveAttribute('aria-pressed', 'false');
  expect(await video.evaluate((element: HTMLVideoElement) => element.textTracks[0]?.mode)).toBe('hidden');
  await page.keyboard.press('Enter');
  expect(await video.evaluate((element: HTMLVideoElement) => element.textTracks[0]?.mode)).toBe('showing');

  await page.getByRole('combobox', { name: '播放速度' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(1.25);

  // The position is remembered: coming back, the player offers to resume there.
  await seek.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBe(5);
  await page.reload();
  await expect(page.getByText('上次看到 0:05。')).toBeVisible();
  await page.getByRole('button', { name: '继续播放' }).click();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThanOrEqual(5);
});
