import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import { findHoleByOutline, handMoves } from './captcha-solver.ts';
import { newVisitorContext } from './e2e-test.ts';

// The server's data folder (playwright.config.ts), where the local outbox keeps every code.
const OUTBOX = path.join(process.env['E2E_DATA_DIR'] ?? '', 'outbox');

/** The newest code the outbox holds for a recipient, waiting for it to arrive. */
export async function outboxCode(recipient: string, after: number): Promise<string> {
  let code = '';
  // Bounded, and generous: on a loaded machine the send itself may take seconds.
  await expect
    .poll(
      () => {
        const files = fs.existsSync(OUTBOX) ? fs.readdirSync(OUTBOX).filter((name) => name.endsWith('.json')) : [];
        const entries = files
          .map((name) => JSON.parse(fs.readFileSync(path.join(OUTBOX, name), 'utf8')) as Record<string, string>)
          .filter((entry) => entry['recipient'] === recipient && Date.parse(entry['createdAt'] ?? '') >= after)
          .sort((a, b) => (a['createdAt'] ?? '').localeCompare(b['createdAt'] ?? ''));
        code = entries.at(-1)?.['code'] ?? '';
        return code;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/**
 * The answer of the next captcha check the page makes. The puzzle shows 验证通过 for only 400 ms
 * before it closes, which a loaded machine's polling can miss, so tests read the check itself.
 */
export async function nextCaptchaCheck(page: Page, timeout = 30_000): Promise<string> {
  const response = await page.waitForResponse((res) => res.url().includes('/captcha/check'), { timeout });
  // The captcha calls answer AJ-Captcha's own shape, { repCode, repMsg, repData }.
  const body = (await response.json()) as { repCode?: string };
  return body.repCode ?? '';
}

/** Where the piece belongs in the puzzle on screen, in puzzle pixels, found by its outline as a person finds it. */
export async function readPuzzle(page: Page): Promise<number> {
  const dialog = page.getByRole('dialog', { name: '安全验证' });
  const background = dialog.getByRole('img', { name: '带缺口的拼图背景' });
  const piece = dialog.getByRole('img', { name: '拼图块' });
  await expect(background).toBeVisible();
  const [bgSrc, pieceSrc] = await Promise.all([background.getAttribute('src'), piece.getAttribute('src')]);
  return findHoleByOutline((bgSrc ?? '').split(',')[1] ?? '', (pieceSrc ?? '').split(',')[1] ?? '');
}

/** Drags the knob to `x` (puzzle pixels) as a hand does: quick, then slow, over and back, never quite level. */
export async function dragLikeAPerson(page: Page, x: number, seed: number): Promise<void> {
  const dialog = page.getByRole('dialog', { name: '安全验证' });
  const stage = await dialog.getByRole('img', { name: '带缺口的拼图背景' }).boundingBox();
  const knob = await dialog.getByRole('slider', { name: '拼图滑块' }).boundingBox();
  if (!stage || !knob) throw new Error('The puzzle is not on screen');
  const scale = stage.width / 310;
  const startX = knob.x + knob.width / 2;
  const startY = knob.y + knob.height / 2;
  await page.mouse.move(startX, startY);
  await page.mouse.down();
  let before = 0;
  for (const [t, dx, dy] of handMoves(x, seed)) {
    // The hand's own pace: the slider records when each move arrives.
    if (t > before) await page.waitForTimeout(t - before);
    before = t;
    await page.mouse.move(startX + dx * scale, startY + dy);
  }
  await page.mouse.up();
}

/** Moves the focused knob to `x` with the arrow keys at a person's pace, then presses Enter. */
async function keysLikeAPerson(page: Page, x: number): Promise<void> {
  const dialog = page.getByRole('dialog', { name: '安全验证' });
  const stage = await dialog.getByRole('img', { name: '带缺口的拼图背景' }).boundingBox();
  await dialog.getByRole('slider', { name: '拼图滑块' }).focus();
  const target = Math.round((x * (stage?.width ?? 310)) / 310);
  for (let moved = 0; moved + 10 <= target; moved += 10) await page.keyboard.press('Shift+ArrowRight', { delay: 40 });
  for (let i = 0; i < target % 10; i += 1) await page.keyboard.press('ArrowRight', { delay: 40 });
  await page.keyboard.press('Enter');
}

/**
 * Solves the slider puzzle the way a person does: finds the hole by its outline, then drags the
 * knob there (or uses the arrow keys). A person who misses gets a new puzzle and tries again, and
 * after failures the server may ask for a second puzzle: both are followed, up to four puzzles.
 */
export async function solveSliderCaptcha(page: Page, how: 'drag' | 'keys' = 'drag'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: '安全验证' });
  await expect(dialog).toBeVisible();
  const codes: string[] = [];
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await expect(dialog.getByRole('slider', { name: '拼图滑块' })).toHaveAttribute('aria-disabled', 'false');
    const x = await readPuzzle(page);
    // A drag the slider did not take (a pointer lost on a loaded machine) sends nothing; a person
    // then asks for another picture, and so does this helper rather than wait for the test's end.
    const checked = nextCaptchaCheck(page, 10_000).catch(() => null);
    if (how === 'keys') await keysLikeAPerson(page, x);
    else await dragLikeAPerson(page, x, attempt);
    const code = await checked;
    if (code === null) {
      const knob = dialog.getByRole('slider', { name: '拼图滑块' });
      codes.push(`no check (knob at ${await knob.getAttribute('aria-valuenow')} for ${Math.round(x)})`);
      await dialog.getByRole('button', { name: '换一张' }).click();
      continue;
    }
    codes.push(code);
    if (code === '0000') {
      await expect(dialog).toBeHidden();
      return;
    }
  }
  throw new Error(`The puzzle was not solved in four tries: ${codes.join(', ')}`);
}

/** Opens the login dialog from the header; a click made before the page's scripts run is kept. */
export async function openLogin(page: Page): Promise<ReturnType<Page['getByRole']>> {
  const dialog = page.getByRole('dialog', { name: '登录' });
  await page.getByRole('banner').getByRole('button', { name: '登录', exact: true }).click();
  await expect(dialog.getByRole('tab', { name: '密码登录' })).toBeVisible();
  return dialog;
}

/** Registers a new account by e-mail in the login dialog that is already open, and waits until signed in. */
export async function registerInOpenDialog(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('dialog', { name: '登录' }).getByRole('button', { name: '注册新账户' }).click();
  const dialog = page.getByRole('dialog', { name: '注册' });
  await dialog.getByRole('tab', { name: '邮箱注册' }).click();
  await dialog.getByLabel('邮箱', { exact: true }).fill(email);
  const sentAt = Date.now() - 1000;
  await dialog.getByRole('button', { name: '获取验证码' }).click();
  await solveSliderCaptcha(page);
  await dialog.getByLabel('验证码', { exact: true }).fill(await outboxCode(email, sentAt));
  await dialog.getByLabel('设置密码').fill(password);
  await dialog.getByLabel('我已阅读并同意').check();
  await dialog.getByRole('button', { name: '注册', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /的账户菜单$/ })).toBeVisible();
}

/** A page in a browser context of its own, for a person who has just registered with `email`. */
export async function registeredPage(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await newVisitorContext(browser)).newPage();
  await page.goto('/');
  await openLogin(page);
  await registerInOpenDialog(page, email, password);
  return page;
}
