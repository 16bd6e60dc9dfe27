// The word-cloud shape templates (SPEC §7 Word cloud: template types of type font_cloud, and the
// images of a type). Every shape is drawn here as SVG, so the project owns and ships them under
// its own licence; black is the shape, as the mask reader expects. A map of China is left out on
// purpose: maps of China published in China need an approval number (审图号), and a silhouette
// without the South China Sea islands is a "problem map".

import type { CloudTemplateImage, CloudTemplateType } from '../../../contract/word-cloud.ts';

type Point = readonly [number, number];

const fmt = (value: number) => Math.round(value * 100) / 100;
const polygon = (points: readonly Point[]) =>
  `<polygon points="${points.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(' ')}"/>`;
const circle = (cx: number, cy: number, r: number) => `<circle cx="${fmt(cx)}" cy="${fmt(cy)}" r="${fmt(r)}"/>`;
const ellipse = (cx: number, cy: number, rx: number, ry: number, rotate = 0) =>
  `<ellipse cx="${fmt(cx)}" cy="${fmt(cy)}" rx="${fmt(rx)}" ry="${fmt(ry)}"${rotate ? ` transform="rotate(${rotate} ${fmt(cx)} ${fmt(cy)})"` : ''}/>`;
const path = (d: string, evenOdd = false) => `<path d="${d}"${evenOdd ? ' fill-rule="evenodd"' : ''}/>`;

/** A regular polygon or star: `n` points, alternating between radii r1 and r2 when r2 is given. */
function star(n: number, r1: number, r2 = r1, turn = -90): Point[] {
  const points: Point[] = [];
  const count = r2 === r1 ? n : n * 2;
  for (let i = 0; i < count; i++) {
    const r = i % 2 === 0 || r2 === r1 ? r1 : r2;
    const a = ((turn + (360 / count) * i) * Math.PI) / 180;
    points.push([50 + r * Math.cos(a), 50 + r * Math.sin(a)]);
  }
  return points;
}

/** A closed blob around (cx, cy): radius r varied by a few waves, the same every time. */
function blob(
  cx: number,
  cy: number,
  r: number,
  waves: ReadonlyArray<readonly [number, number, number]>,
  steps = 120,
): Point[] {
  const points: Point[] = [];
  for (let i = 0; i < steps; i++) {
    const t = (i / steps) * Math.PI * 2;
    let radius = r;
    for (const [k, amplitude, phase] of waves) radius += r * amplitude * Math.sin(k * t + phase);
    points.push([cx + radius * Math.cos(t), cy + radius * Math.sin(t)]);
  }
  return points;
}

/** A stroke along a path of points whose width follows `width(t)` (t from 0 to 1). */
function stroke(spine: readonly Point[], width: (t: number) => number): Point[] {
  const left: Point[] = [];
  const right: Point[] = [];
  spine.forEach(([x, y], i) => {
    const [px, py] = spine[Math.max(0, i - 1)] as Point;
    const [nx, ny] = spine[Math.min(spine.length - 1, i + 1)] as Point;
    const dx = nx - px;
    const dy = ny - py;
    const length = Math.hypot(dx, dy) || 1;
    const w = width(i / (spine.length - 1)) / 2;
    left.push([x - (dy / length) * w, y + (dx / length) * w]);
    right.push([x + (dy / length) * w, y - (dx / length) * w]);
  });
  return [...left, ...right.reverse()];
}

const arc = (cx: number, cy: number, r: number, from: number, to: number, steps = 60): Point[] =>
  Array.from({ length: steps + 1 }, (_, i) => {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)] as Point;
  });

const TYPES: CloudTemplateType[] = [
  { id: 1, type: 'font_cloud', name: '基础形状', sort: 1 },
  { id: 2, type: 'font_cloud', name: '自然', sort: 2 },
  { id: 3, type: 'font_cloud', name: '中国风', sort: 3 },
  { id: 4, type: 'font_cloud', name: '笔墨', sort: 4 },
];

const SHAPES: Array<{ id: number; typeId: number; name: string; body: string }> = [
  // 基础形状
  { id: 101, typeId: 1, name: '圆形', body: circle(50, 50, 48) },
  { id: 102, typeId: 1, name: '圆角方形', body: '<rect x="3" y="3" width="94" height="94" rx="14"/>' },
  {
    id: 103,
    typeId: 1,
    name: '心形',
    body: path(
      'M50 92 C22 72 4 52 4 30 C4 14 16 4 29 4 C39 4 46 10 50 19 C54 10 61 4 71 4 C84 4 96 14 96 30 C96 52 78 72 50 92Z',
    ),
  },
  { id: 104, typeId: 1, name: '五角星', body: polygon(star(5, 49, 20).map(([x, y]) => [x, y + 4] as Point)) },
  {
    id: 105,
    typeId: 1,
    name: '菱形',
    body: polygon([
      [50, 2],
      [96, 50],
      [50, 98],
      [4, 50],
    ]),
  },
  { id: 106, typeId: 1, name: '六边形', body: polygon(star(6, 49, 49, 0)) },
  // 自然
  {
    id: 201,
    typeId: 2,
    name: '云朵',
    body: [
      circle(30, 58, 20),
      circle(50, 42, 26),
      circle(72, 54, 22),
      circle(86, 66, 12),
      '<rect x="14" y="58" width="76" height="20" rx="10"/>',
    ].join(''),
  },
  { id: 202, typeId: 2, name: '树叶', body: path('M8 92 C8 40 40 8 94 6 C92 60 60 92 8 92Z') },
  {
    id: 203,
    typeId: 2,
    name: '水滴',
    body: path('M50 2 C62 24 84 44 84 64 C84 84 68 98 50 98 C32 98 16 84 16 64 C16 44 38 24 50 2Z'),
  },
  { id: 204, typeId: 2, name: '月牙', body: path('M62 4 A47 47 0 1 0 96 70 A38 38 0 1 1 62 4Z') },
  {
    id: 205,
    typeId: 2,
    name: '山峰',
    body: polygon([
      [2, 92],
      [30, 30],
      [44, 52],
      [64, 12],
      [98, 92],
    ]),
  },
  {
    id: 206,
    typeId: 2,
    name: '花朵',
    body: [0, 72, 144, 216, 288]
      .map((a) => {
        const t = ((a - 90) * Math.PI) / 180;
        return circle(50 + 27 * Math.cos(t), 52 + 27 * Math.sin(t), 22);
      })
      .concat(circle(50, 52, 20))
      .join(''),
  },
  // 中国风
  { id: 301, typeId: 3, name: '印章', body: polygon(sealOutline()) },
  { id: 302, typeId: 3, name: '折扇', body: polygon([...arc(50, 88, 84, 205, 335), ...arc(50, 88, 26, 335, 205)]) },
  {
    id: 303,
    typeId: 3,
    name: '团扇',
    body: [ellipse(50, 40, 38, 38), '<rect x="46" y="74" width="8" height="24" rx="3"/>'].join(''),
  },
  {
    id: 304,
    typeId: 3,
    name: '灯笼',
    body: [
      ellipse(50, 52, 40, 34),
      '<rect x="32" y="10" width="36" height="10" rx="3"/>',
      '<rect x="32" y="82" width="36" height="10" rx="3"/>',
      '<rect x="47" y="2" width="6" height="10"/>',
    ].join(''),
  },
  {
    id: 305,
    typeId: 3,
    name: '葫芦',
    body: [circle(50, 70, 27), circle(50, 32, 18), '<rect x="46" y="4" width="8" height="12" rx="3"/>'].join(''),
  },
  {
    id: 306,
    typeId: 3,
    name: '祥云',
    body: [
      circle(28, 56, 20),
      circle(52, 44, 24),
      circle(76, 56, 18),
      circle(40, 70, 16),
      circle(64, 72, 14),
      path('M6 76 C20 90 80 92 96 70 L96 78 C80 98 20 96 6 84Z'),
    ].join(''),
  },
  // 笔墨
  {
    id: 401,
    typeId: 4,
    name: '笔触',
    body: polygon(
      stroke(
        Array.from({ length: 40 }, (_, i) => [6 + i * 2.25, 50 + 6 * Math.sin(i / 7)] as Point),
        (t) => 20 + 40 * Math.sin(Math.PI * Math.min(1, t * 1.15)) * (1 - 0.3 * t),
      ),
    ),
  },
  {
    id: 402,
    typeId: 4,
    name: '圆相',
    body: polygon(stroke(arc(50, 50, 36, 120, 440, 90), (t) => 6 + 18 * Math.sin(Math.PI * t))),
  },
  {
    id: 403,
    typeId: 4,
    name: '墨点',
    body: polygon(
      blob(50, 50, 40, [
        [3, 0.08, 0.4],
        [5, 0.06, 1.3],
        [9, 0.04, 2.1],
        [13, 0.03, 0.7],
      ]),
    ),
  },
  {
    id: 404,
    typeId: 4,
    name: '泼墨',
    body: [
      polygon(
        blob(46, 52, 34, [
          [2, 0.12, 0.3],
          [5, 0.1, 1.9],
          [7, 0.08, 0.2],
          [11, 0.06, 2.7],
        ]),
      ),
      circle(86, 22, 6),
      circle(14, 16, 5),
      circle(90, 84, 4),
    ].join(''),
  },
  {
    id: 405,
    typeId: 4,
    name: '竖笔',
    body: polygon(
      stroke(
        Array.from({ length: 40 }, (_, i) => [50 + 4 * Math.sin(i / 9), 4 + i * 2.35] as Point),
        (t) => 34 - 16 * t + (t < 0.1 ? 10 * (0.1 - t) * 10 : 0),
      ),
    ),
  },
  {
    id: 406,
    typeId: 4,
    name: '点',
    body: path('M30 10 C52 14 82 40 86 66 C90 90 66 98 48 88 C30 78 26 46 30 10Z'),
  },
];

/** A seal's outline: a square with slightly worn, uneven edges, as a carved seal prints. */
function sealOutline(): Point[] {
  const points: Point[] = [];
  const side = (from: Point, to: Point, phase: number) => {
    for (let i = 0; i < 24; i++) {
      const t = i / 24;
      const wobble = 1.2 * Math.sin(t * 17 + phase) + 0.6 * Math.sin(t * 41 + phase * 2);
      const x = from[0] + (to[0] - from[0]) * t;
      const y = from[1] + (to[1] - from[1]) * t;
      const nx = -(to[1] - from[1]) / 90;
      const ny = (to[0] - from[0]) / 90;
      points.push([x + nx * wobble, y + ny * wobble]);
    }
  };
  side([6, 6], [94, 6], 0.3);
  side([94, 6], [94, 94], 1.7);
  side([94, 94], [6, 94], 2.9);
  side([6, 94], [6, 6], 4.1);
  return points;
}

/** The SVG of a template, 100 × 100, black on transparent. */
export function templateSvg(id: number): string | undefined {
  const shape = SHAPES.find((item) => item.id === id);
  if (!shape) return undefined;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="400" height="400"><g fill="#000">${shape.body}</g></svg>`;
}

/** The template types, paged (SPEC: current 1, size 100). */
export function templateTypes(): CloudTemplateType[] {
  return TYPES;
}

/** The images of a type (or of all types). */
export function templateImages(typeId?: number): CloudTemplateImage[] {
  return SHAPES.filter((shape) => typeId === undefined || shape.typeId === typeId).map(
    ({ id, typeId: type, name }) => ({
      id,
      typeId: type,
      name,
      url: `/tools/api/word-cloud/images/${id}.svg`,
    }),
  );
}
