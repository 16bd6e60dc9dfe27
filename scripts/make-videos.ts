// Makes the seed videos (npm run make-videos): each writes one character of a library font, contour by
// contour, on a practice grid, recorded in headless Chromium as WebM (VP9) with its Chinese captions
// and a poster frame. The outputs are committed under src/server/db/seed/videos/, so starting the site
// needs no browser; run this again only to change them. `-- --fixtures` writes the tiny MP4 and WebM
// the container tests read (tests/fixtures/videos/), recorded by the same browser.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import * as fontkit from 'fontkit';

const ROOT = path.resolve(import.meta.dirname, '..');
const SEED_DIR = path.join(ROOT, 'src/server/db/seed/videos');
const FIXTURE_DIR = path.join(ROOT, 'tests/fixtures/videos');
// Noto Sans SC draws most strokes as contours of their own (永 has seven), so revealing the contours
// one by one reads as writing stroke by stroke; the brush fonts merge a character into one or two.
const FONT_FILE = path.join(ROOT, 'tests/fixtures/fonts/noto-sans-sc/NotoSansSC_400Regular.ttf');

/** One seed video: the character, how it reads, and the captions said over its drawing. */
interface Lesson {
  slug: string;
  char: string;
  pinyin: string;
  title: string;
  summary: string;
  /** Said while the grid appears. */
  intro: string;
  /** Said while the contours are drawn, spread evenly over the drawing. */
  lines: string[];
  /** Said over the finished character. */
  outro: string;
}

const LESSONS: Lesson[] = [
  {
    slug: 'yong',
    char: '永',
    pinyin: 'yǒng',
    title: '一笔一画写「永」字',
    summary: '思源黑体（Noto Sans SC）的「永」字，按字形轮廓逐段写出。「永」字八法，历来是练字的第一课。',
    intro: '今天写「永」字，读作 yǒng。',
    lines: ['先写上面的点，落笔要稳。', '再写横折钩，转折处略顿。', '左边一撇一提，右边撇捺舒展。'],
    outro: '点、横、竖、钩、提、撇、捺，八种笔法都在这一个字里。',
  },
  {
    slug: 'shan',
    char: '山',
    pinyin: 'shān',
    title: '一笔一画写「山」字',
    summary: '思源黑体（Noto Sans SC）的「山」字，按字形轮廓逐段写出，看中间一竖如何撑起整个字。',
    intro: '这一课写「山」字，读作 shān。',
    lines: ['中间一竖最高，是山的主峰。', '左边竖折，底部托住全字。', '右边一竖收笔，比左边略高。'],
    outro: '三竖高低不同，字才有山势。',
  },
  {
    slug: 'shui',
    char: '水',
    pinyin: 'shuǐ',
    title: '一笔一画写「水」字',
    summary: '思源黑体（Noto Sans SC）的「水」字，按字形轮廓逐段写出，左右两边围着中间的竖钩展开。',
    intro: '这一课写「水」字，读作 shuǐ。',
    lines: ['先写中间的竖钩，写直写稳。', '左边横撇，像水流向外分开。', '右边撇和捺，收笔要舒展。'],
    outro: '中竖为主，左右呼应，「水」字就写好了。',
  },
  {
    slug: 'zi',
    char: '字',
    pinyin: 'zì',
    title: '一笔一画写「字」字',
    summary: '思源黑体（Noto Sans SC）的「字」字，按字形轮廓逐段写出：上面宝盖，下面一个「子」。',
    intro: '这一课写「字」字，读作 zì。',
    lines: ['先写宝盖头，点要居中。', '宝盖的横钩要宽，盖住下面。', '下面写「子」，横折、弯钩，再写长横。'],
    outro: '宝盖宽，子字正，造字联盟的「字」写好了。',
  },
];

const WIDTH = 640;
const HEIGHT = 360;
const INTRO_MS = 1500;
const DRAW_MS = 6000;
const OUTRO_MS = 2500;

/** The outline of a character as one SVG path per contour, in font units with y up, and the em size. */
function contoursOf(font: fontkit.Font, char: string): { contours: string[]; unitsPerEm: number } {
  const glyph = font.glyphForCodePoint(char.codePointAt(0) ?? 0);
  const contours: string[] = [];
  let current = '';
  for (const { command, args } of glyph.path.commands) {
    const numbers = args.map((n) => n.toFixed(1)).join(' ');
    if (command === 'moveTo') {
      if (current) contours.push(current);
      current = `M${numbers}`;
    } else if (command === 'lineTo') current += `L${numbers}`;
    else if (command === 'quadraticCurveTo') current += `Q${numbers}`;
    else if (command === 'bezierCurveTo') current += `C${numbers}`;
    else if (command === 'closePath') current += 'Z';
  }
  if (current) contours.push(current);
  return { contours, unitsPerEm: font.unitsPerEm };
}

/** Whole seconds and milliseconds of a WebVTT timestamp. */
function vttTime(ms: number): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const total = Math.round(ms);
  return `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}.${pad(total % 1000, 3)}`;
}

function captionsOf(lesson: Lesson): string {
  const cues: Array<[number, number, string]> = [[0, INTRO_MS, lesson.intro]];
  const step = DRAW_MS / lesson.lines.length;
  lesson.lines.forEach((line, index) => {
    cues.push([INTRO_MS + index * step, INTRO_MS + (index + 1) * step, line]);
  });
  cues.push([INTRO_MS + DRAW_MS, INTRO_MS + DRAW_MS + OUTRO_MS, lesson.outro]);
  const body = cues.map(([start, end, text], index) => `${index + 1}\n${vttTime(start)} --> ${vttTime(end)}\n${text}`);
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}

interface Scene {
  char: string;
  pinyin: string;
  contours: string[];
  unitsPerEm: number;
  labelFont: string;
  width: number;
  height: number;
  introMs: number;
  drawMs: number;
  outroMs: number;
  mimeType: string;
  bitsPerSecond: number;
}

/**
 * Runs in the page: draws the lesson on a canvas frame by frame and records the canvas with
 * MediaRecorder; answers the recording as base64. Each contour is revealed by a clip that sweeps
 * across its bounding box along its longer side, in reading order (top to bottom, left to right).
 */
async function recordScene(scene: Scene): Promise<string> {
  const face = new FontFace('Label', `url(data:font/ttf;base64,${scene.labelFont})`);
  await face.load();
  document.fonts.add(face);
  const canvas = document.createElement('canvas');
  canvas.width = scene.width;
  canvas.height = scene.height;
  document.body.append(canvas);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const box = scene.height - 60;
  const left = 40;
  const top = 30;
  const scale = (box * 0.86) / scene.unitsPerEm;
  const origin = { x: left + box * 0.07, y: top + box * 0.07 + scene.unitsPerEm * 0.88 * scale };
  const toCanvas = new DOMMatrix().translate(origin.x, origin.y).scale(scale, -scale);
  const shapes = scene.contours.map((d) => {
    const path = new Path2D();
    path.addPath(new Path2D(d), toCanvas);
    // The contour's box on the canvas, from its points.
    const numbers = (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
    const xs = numbers.filter((_, i) => i % 2 === 0).map((x) => origin.x + x * scale);
    const ys = numbers.filter((_, i) => i % 2 === 1).map((y) => origin.y - y * scale);
    const bounds = { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
    return { path, bounds, weight: bounds.x1 - bounds.x0 + (bounds.y1 - bounds.y0) };
  });
  shapes.sort((a, b) => a.bounds.y0 - b.bounds.y0 || a.bounds.x0 - b.bounds.x0);
  const totalWeight = shapes.reduce((sum, shape) => sum + shape.weight, 0);
  const total = scene.introMs + scene.drawMs + scene.outroMs;

  const drawGrid = (alpha: number) => {
    ctx.fillStyle = '#f6f1e6';
    ctx.fillRect(0, 0, scene.width, scene.height);
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = '#c0392b';
    ctx.lineWidth = 2;
    ctx.strokeRect(left, top, box, box);
    ctx.setLineDash([6, 6]);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(left, top + box / 2);
    ctx.lineTo(left + box, top + box / 2);
    ctx.moveTo(left + box / 2, top);
    ctx.lineTo(left + box / 2, top + box);
    ctx.moveTo(left, top);
    ctx.lineTo(left + box, top + box);
    ctx.moveTo(left + box, top);
    ctx.lineTo(left, top + box);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
  };
  const drawLabels = (progress: number, drawn: number) => {
    const x = left + box + 50;
    ctx.fillStyle = '#8a3324';
    ctx.font = '600 40px "DejaVu Sans", sans-serif';
    ctx.fillText(scene.pinyin, x, 110);
    ctx.fillStyle = '#1f1b16';
    ctx.font = '96px Label';
    ctx.fillText(scene.char, x, 220);
    ctx.fillStyle = '#6b6256';
    ctx.font = '22px Label';
    ctx.fillText(`${drawn} / ${shapes.length}`, x, 270);
    ctx.fillStyle = '#e3d9c6';
    ctx.fillRect(x, 290, 180, 6);
    ctx.fillStyle = '#c0392b';
    ctx.fillRect(x, 290, 180 * progress, 6);
  };
  const frame = (elapsed: number) => {
    drawGrid(Math.min(1, elapsed / 600));
    const drawing = Math.max(0, Math.min(1, (elapsed - scene.introMs) / scene.drawMs));
    let budget = drawing * totalWeight;
    let drawn = 0;
    ctx.fillStyle = '#1f1b16';
    for (const shape of shapes) {
      if (budget <= 0) break;
      const share = Math.min(1, budget / shape.weight);
      budget -= shape.weight;
      const { x0, x1, y0, y1 } = shape.bounds;
      ctx.save();
      ctx.beginPath();
      // Horizontal contours sweep from the left, the others from the top, as a brush moves.
      if (x1 - x0 > y1 - y0) ctx.rect(x0 - 2, y0 - 2, (x1 - x0 + 4) * share, y1 - y0 + 4);
      else ctx.rect(x0 - 2, y0 - 2, x1 - x0 + 4, (y1 - y0 + 4) * share);
      ctx.clip();
      ctx.fill(shape.path);
      ctx.restore();
      if (share >= 0.999) drawn++;
    }
    drawLabels(drawing, drawn);
  };

  frame(0);
  return (window as unknown as PageRecorder).recordCanvas(
    canvas.captureStream(30),
    scene.mimeType,
    scene.bitsPerSecond,
    total,
    frame,
  );
}

/** Runs in the page: one second of a coloured square and a tone, recorded as `mimeType` (audio and video). */
async function recordTiny(mimeType: string): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 48;
  document.body.append(canvas);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const audio = new AudioContext();
  const tone = audio.createOscillator();
  const sink = audio.createMediaStreamDestination();
  tone.connect(sink);
  tone.start();
  const tracks = canvas.captureStream(15).getVideoTracks();
  // Chromium records H.264 without AAC, so the MP4 has a picture only.
  if (mimeType.startsWith('video/webm')) tracks.push(...sink.stream.getAudioTracks());
  const stream = new MediaStream(tracks);
  const recording = await (window as unknown as PageRecorder).recordCanvas(
    stream,
    mimeType,
    50_000,
    1000,
    (elapsed) => {
      ctx.fillStyle = `hsl(${Math.round(elapsed / 3)}, 70%, 50%)`;
      ctx.fillRect(0, 0, 64, 48);
    },
  );
  tone.stop();
  return recording;
}

/**
 * Runs in the page: records `stream` with MediaRecorder while `draw(elapsed)` paints each frame for
 * `durationMs`, and answers the recording as base64. Installed once per page (installRecorder), so
 * the functions that run in the page share it.
 */
async function recordCanvas(
  stream: MediaStream,
  mimeType: string,
  bitsPerSecond: number,
  durationMs: number,
  draw: (elapsed: number) => void,
): Promise<string> {
  const recorder = new MediaRecorder(stream, { mimeType, videoBitsPerSecond: bitsPerSecond });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => {
    recorder.onstop = resolve;
  });
  recorder.start();
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      draw(Math.min(elapsed, durationMs));
      if (elapsed >= durationMs) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  recorder.stop();
  await stopped;
  const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The recorder as the page functions reach it (functions sent to the page carry nothing else along). */
interface PageRecorder {
  recordCanvas: typeof recordCanvas;
}

/** A blank page with the recorder installed. */
async function blankPage(page: Page): Promise<void> {
  await page.setContent('<!doctype html><body style="margin:0">');
  await page.addScriptTag({ content: `window.recordCanvas = ${recordCanvas.toString()};` });
}

async function makeSeeds(page: Page): Promise<void> {
  const font = fontkit.openSync(FONT_FILE) as fontkit.Font;
  const labelFont = fs.readFileSync(FONT_FILE).toString('base64');
  fs.mkdirSync(SEED_DIR, { recursive: true });
  const index = [];
  for (const lesson of LESSONS) {
    const { contours, unitsPerEm } = contoursOf(font, lesson.char);
    const scene: Scene = {
      char: lesson.char,
      pinyin: lesson.pinyin,
      contours,
      unitsPerEm,
      labelFont,
      width: WIDTH,
      height: HEIGHT,
      introMs: INTRO_MS,
      drawMs: DRAW_MS,
      outroMs: OUTRO_MS,
      mimeType: 'video/webm;codecs=vp9',
      bitsPerSecond: 400_000,
    };
    await blankPage(page);
    const video = Buffer.from(await page.evaluate(recordScene, scene), 'base64');
    fs.writeFileSync(path.join(SEED_DIR, `${lesson.slug}.webm`), video);
    await page.locator('canvas').screenshot({ path: path.join(SEED_DIR, `${lesson.slug}.png`) });
    fs.writeFileSync(path.join(SEED_DIR, `${lesson.slug}.vtt`), captionsOf(lesson));
    index.push({ slug: lesson.slug, title: lesson.title, summary: lesson.summary });
    console.log(`${lesson.slug}.webm: ${(video.length / 1024).toFixed(0)} KB, ${contours.length} contours`);
  }
  fs.writeFileSync(path.join(SEED_DIR, 'videos.json'), `${JSON.stringify(index, null, 2)}\n`);
}

async function makeFixtures(page: Page): Promise<void> {
  fs.mkdirSync(FIXTURE_DIR, { recursive: true });
  for (const [name, mimeType] of [
    ['tiny.mp4', 'video/mp4;codecs=avc1'],
    ['tiny.webm', 'video/webm;codecs=vp9,opus'],
  ] as const) {
    await blankPage(page);
    const bytes = Buffer.from(await page.evaluate(recordTiny, mimeType), 'base64');
    fs.writeFileSync(path.join(FIXTURE_DIR, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}

const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--autoplay-policy=no-user-gesture-required'],
});
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
  if (process.argv.includes('--fixtures')) await makeFixtures(page);
  else await makeSeeds(page);
} finally {
  await browser.close();
}
