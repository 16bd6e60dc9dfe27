import { FontInputError } from './font-errors.ts';
import { FLAVOR_CFF, FLAVOR_TRUETYPE, tagAt, viewOf } from './sfnt.ts';

// The checks browsers make before they use a font, written for what matters to us: the OpenType
// Sanitizer (OTS, in Chromium and Firefox) refuses a font whose table directory, head, maxp,
// hhea/hmtx, cmap, loca/glyf or CFF structure is inconsistent, and a font it refuses simply does not
// show on a page. Uploads are checked with these rules so a broken font is refused with its reason,
// and every font the tools write is checked again before it is offered. OTS itself is a C++ program
// (the tests run it as the oracle); this is the subset of its rules that broken files actually break.

function fail(reason: string, detail: string): never {
  throw new FontInputError('corrupt', detail, `字体文件已损坏：${reason}`);
}

interface Table {
  offset: number;
  length: number;
  data: DataView;
}

/** Reads the directory strictly: tables inside the file, 4-byte aligned, no duplicates, no overlaps. */
function directory(bytes: Uint8Array): Map<string, Table> {
  if (bytes.byteLength < 12) fail('文件太短，没有表目录', 'short');
  const view = viewOf(bytes);
  const flavor = view.getUint32(0);
  if (flavor !== FLAVOR_TRUETYPE && flavor !== FLAVOR_CFF && flavor !== 0x74727565) {
    fail('不是 TrueType 或 OpenType 字体', `flavor ${flavor.toString(16)}`);
  }
  const count = view.getUint16(4);
  if (count === 0 || 12 + count * 16 > bytes.byteLength) fail('表目录不完整', `numTables ${count}`);
  const tables = new Map<string, Table>();
  const spans: Array<[number, number, string]> = [];
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    const tag = tagAt(bytes, record);
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (tables.has(tag)) fail(`“${tag.trim()}”表重复出现`, `duplicate ${tag}`);
    if (offset % 4 !== 0) fail(`“${tag.trim()}”表的位置没有按 4 字节对齐`, `misaligned ${tag}`);
    if (offset < 12 + count * 16 || offset + length > bytes.byteLength) {
      fail(`“${tag.trim()}”表超出了文件范围`, `table ${tag} out of bounds`);
    }
    tables.set(tag, { offset, length, data: new DataView(bytes.buffer, bytes.byteOffset + offset, length) });
    if (length > 0) spans.push([offset, offset + length, tag]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    const previous = spans[i - 1] as [number, number, string];
    const span = spans[i] as [number, number, string];
    if (span[0] < previous[1]) fail(`“${previous[2].trim()}”表和“${span[2].trim()}”表互相重叠`, 'overlap');
  }
  return tables;
}

function need(tables: Map<string, Table>, tag: string, minLength: number): DataView {
  const table = tables.get(tag);
  if (!table) fail(`缺少必需的“${tag.trim()}”表`, `missing ${tag}`);
  if (table.length < minLength) fail(`“${tag.trim()}”表太短`, `short ${tag}`);
  return table.data;
}

/** cmap: every subtable inside the table, formats 4 and 12 consistent. */
function checkCmap(cmap: DataView): void {
  const count = cmap.getUint16(2);
  if (4 + count * 8 > cmap.byteLength) fail('字符映射（cmap）表的记录超出范围', 'cmap records');
  for (let i = 0; i < count; i++) {
    const offset = cmap.getUint32(4 + i * 8 + 4);
    if (offset + 4 > cmap.byteLength) fail('字符映射（cmap）子表超出范围', 'cmap subtable offset');
    const format = cmap.getUint16(offset);
    if (format === 4) {
      const length = cmap.getUint16(offset + 2);
      const segX2 = cmap.getUint16(offset + 6);
      if (segX2 === 0 || segX2 % 2 !== 0 || offset + length > cmap.byteLength || 16 + segX2 * 4 > length) {
        fail('字符映射（cmap）格式 4 子表的长度不一致', 'cmap 4 length');
      }
      const ends = offset + 14;
      const starts = ends + segX2 + 2;
      for (let s = 0; s < segX2 / 2; s++) {
        if (cmap.getUint16(starts + s * 2) > cmap.getUint16(ends + s * 2)) {
          fail('字符映射（cmap）格式 4 子表的区段起止颠倒', 'cmap 4 segment');
        }
      }
      if (cmap.getUint16(ends + segX2 - 2) !== 0xffff) fail('字符映射（cmap）格式 4 子表缺少结束区段', 'cmap 4 end');
    } else if (format === 12 || format === 13) {
      if (offset + 16 > cmap.byteLength) fail('字符映射（cmap）格式 12 子表超出范围', 'cmap 12 header');
      const groups = cmap.getUint32(offset + 12);
      if (offset + 16 + groups * 12 > cmap.byteLength) fail('字符映射（cmap）格式 12 子表超出范围', 'cmap 12 groups');
      let last = -1;
      for (let g = 0; g < groups; g++) {
        const start = cmap.getUint32(offset + 16 + g * 12);
        const end = cmap.getUint32(offset + 20 + g * 12);
        if (start > end || start <= last || end > 0x10ffff)
          fail('字符映射（cmap）格式 12 子表的分组无序或越界', 'cmap 12 group');
        last = end;
      }
    } else if (offset + 6 > cmap.byteLength) {
      fail('字符映射（cmap）子表超出范围', `cmap ${format}`);
    }
  }
}

/** loca/glyf: offsets that only grow and stay inside glyf; each glyph header readable. */
function checkGlyf(tables: Map<string, Table>, numGlyphs: number, longOffsets: boolean): void {
  const loca = need(tables, 'loca', 0);
  const glyf = need(tables, 'glyf', 0);
  const entry = longOffsets ? 4 : 2;
  if (loca.byteLength < (numGlyphs + 1) * entry) fail('字形位置（loca）表比字形数少', 'loca short');
  const at = (i: number) => (longOffsets ? loca.getUint32(i * 4) : loca.getUint16(i * 2) * 2);
  let previous = at(0);
  for (let i = 1; i <= numGlyphs; i++) {
    const offset = at(i);
    if (offset < previous) fail('字形位置（loca）表的偏移没有递增', `loca ${i}`);
    if (offset > glyf.byteLength) fail('字形位置（loca）指向字形（glyf）表之外', `loca ${i} past glyf`);
    const size = offset - previous;
    if (size > 0) {
      if (size < 10) fail(`第 ${i - 1} 个字形的数据不完整`, `glyph ${i - 1} short`);
      const xMin = glyf.getInt16(previous + 2);
      const yMin = glyf.getInt16(previous + 4);
      const xMax = glyf.getInt16(previous + 6);
      const yMax = glyf.getInt16(previous + 8);
      const contours = glyf.getInt16(previous);
      if (contours > 0 && (xMin > xMax || yMin > yMax)) fail(`第 ${i - 1} 个字形的边界框颠倒`, `glyph ${i - 1} bbox`);
      if (contours > 0 && 10 + contours * 2 + 2 > size)
        fail(`第 ${i - 1} 个字形的轮廓数据不完整`, `glyph ${i - 1} contours`);
    }
    previous = offset;
  }
}

/** Reads one CFF INDEX at `at` and answers where it ends; every offset inside the table. */
function cffIndexEnd(cff: DataView, at: number, what: string): number {
  if (at + 2 > cff.byteLength) fail(`CFF 轮廓的${what}索引超出范围`, `cff ${what}`);
  const count = cff.getUint16(at);
  if (count === 0) return at + 2;
  const offSize = cff.getUint8(at + 2);
  if (offSize < 1 || offSize > 4) fail(`CFF 轮廓的${what}索引已损坏`, `cff ${what} offSize`);
  const base = at + 3 + (count + 1) * offSize - 1;
  if (base > cff.byteLength) fail(`CFF 轮廓的${what}索引超出范围`, `cff ${what} offsets`);
  const read = (i: number) => {
    let value = 0;
    for (let b = 0; b < offSize; b++) value = value * 256 + cff.getUint8(at + 3 + i * offSize + b);
    return value;
  };
  let previous = read(0);
  if (previous !== 1) fail(`CFF 轮廓的${what}索引已损坏`, `cff ${what} first offset`);
  for (let i = 1; i <= count; i++) {
    const offset = read(i);
    if (offset < previous || base + offset > cff.byteLength) fail(`CFF 轮廓的${what}索引超出范围`, `cff ${what} ${i}`);
    previous = offset;
  }
  return base + previous;
}

function checkCff(cff: DataView): void {
  if (cff.getUint8(0) !== 1) fail('CFF 轮廓的版本不受支持', 'cff major');
  let at = cff.getUint8(2);
  if (at < 4 || at > cff.byteLength) fail('CFF 轮廓的头部已损坏', 'cff hdrSize');
  at = cffIndexEnd(cff, at, '名称');
  at = cffIndexEnd(cff, at, '顶层字典');
  at = cffIndexEnd(cff, at, '字符串');
  cffIndexEnd(cff, at, '全局子程序');
}

/** head: version 1, the magic number, units per em, a font box that is not inside out, known formats. */
function checkHead(head: DataView): void {
  if (head.getUint16(0) !== 1) fail(`头部（head）表的版本 ${head.getUint16(0)} 不受支持`, 'head version');
  if (head.getUint32(12) !== 0x5f0f3cf5) fail('头部（head）表的标识不对', 'head magic');
  const unitsPerEm = head.getUint16(18);
  if (unitsPerEm < 16 || unitsPerEm > 16384) fail(`每 em 单位数 ${unitsPerEm} 不在 16–16384 之间`, 'unitsPerEm');
  if (head.getInt16(36) > head.getInt16(40)) fail('头部（head）表的字体边界框左右颠倒', 'head xMin > xMax');
  if (head.getInt16(38) > head.getInt16(42)) fail('头部（head）表的字体边界框上下颠倒', 'head yMin > yMax');
  const indexToLoc = head.getInt16(50);
  if (indexToLoc !== 0 && indexToLoc !== 1) fail('头部（head）表的 loca 格式无效', 'indexToLocFormat');
  if (head.getInt16(52) !== 0) fail('头部（head）表的字形数据格式无效', 'glyphDataFormat');
}

/** name: format 0 or 1, its records inside the table, and the strings after them. */
function checkName(name: DataView): void {
  const format = name.getUint16(0);
  if (format > 1) fail(`名称（name）表的格式 ${format} 不受支持`, 'name format');
  const count = name.getUint16(2);
  let headerEnd = 6 + count * 12;
  if (headerEnd > name.byteLength) fail('名称（name）表的记录超出范围', 'name records');
  if (format === 1) {
    if (headerEnd + 2 > name.byteLength) fail('名称（name）表的语言标签超出范围', 'name langTagCount');
    headerEnd += 2 + name.getUint16(headerEnd) * 4;
    if (headerEnd > name.byteLength) fail('名称（name）表的语言标签超出范围', 'name langTags');
  }
  const stringOffset = name.getUint16(4);
  if (stringOffset > name.byteLength || stringOffset < headerEnd) {
    fail('名称（name）表的字符串位置超出范围', `name stringOffset ${stringOffset}`);
  }
}

/** post: versions 1, 2 and 3 are the ones browsers read (2.5 is deprecated, 4 is Apple's). */
function checkPost(post: DataView): void {
  const version = post.getUint32(0);
  if (version !== 0x00010000 && version !== 0x00020000 && version !== 0x00030000) {
    const shown = `${version >>> 16}.${((version & 0xffff) >>> 12).toString(16)}`;
    fail(`PostScript（post）表的版本 ${shown} 不受支持`, `post version ${version.toString(16)}`);
  }
}

/**
 * Checks a standalone TrueType or OpenType font (sfnt bytes) the way browsers do; throws
 * FontInputError('corrupt') with a Chinese reason for the first rule the font breaks.
 */
export function checkFont(bytes: Uint8Array): void {
  const tables = directory(bytes);
  const head = need(tables, 'head', 54);
  checkHead(head);
  const indexToLoc = head.getInt16(50);
  const maxp = need(tables, 'maxp', 6);
  const numGlyphs = maxp.getUint16(4);
  if (numGlyphs === 0) fail('字体里没有字形', 'numGlyphs 0');
  const hhea = need(tables, 'hhea', 36);
  if (hhea.getUint16(0) !== 1) fail(`水平度量（hhea）表的版本 ${hhea.getUint16(0)} 不受支持`, 'hhea majorVersion');
  const metrics = hhea.getUint16(34);
  if (metrics === 0 || metrics > numGlyphs) fail('水平度量（hhea）表的度量数与字形数不符', 'numberOfHMetrics');
  const hmtx = need(tables, 'hmtx', 0);
  if (hmtx.byteLength < metrics * 4 + (numGlyphs - metrics) * 2) fail('水平度量（hmtx）表比字形数短', 'hmtx short');
  checkCmap(need(tables, 'cmap', 4));
  checkName(need(tables, 'name', 6));
  checkPost(need(tables, 'post', 32));
  if (tables.has('glyf') || tables.has('loca')) checkGlyf(tables, numGlyphs, indexToLoc === 1);
  else if (tables.has('CFF ')) checkCff(need(tables, 'CFF ', 4));
  else if (!tables.has('CFF2')) fail('字体里没有轮廓数据（glyf 或 CFF 表）', 'no outlines');
}
