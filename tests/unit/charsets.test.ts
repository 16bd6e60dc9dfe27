import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countCoverage, coverageSets, tongyongTable } from '../../src/server/engine/charsets.ts';

const cp = (char: string) => char.codePointAt(0) ?? -1;

describe('coverageSets', () => {
  test('returns the 6763 hanzi of GB 2312, first 啊 and last 齄', () => {
    const { gb2312 } = coverageSets();
    expect(gb2312.size).toBe(6763);
    expect(gb2312.has(cp('啊'))).toBe(true);
    expect(gb2312.has(cp('座'))).toBe(true); // last cell of row 0xD7
    expect(gb2312.has(cp('亍'))).toBe(true); // first of level 2
    expect(gb2312.has(cp('齄'))).toBe(true);
    expect([...gb2312].every((c) => c >= 0x4e00 && c <= 0x9fff)).toBe(true);
  });

  test('returns the 13053 hanzi of Big5, frequent and less frequent', () => {
    const { big5 } = coverageSets();
    expect(big5.size).toBe(13053);
    for (const char of ['一', '籲', '乂', '龘', '臺', '灣']) expect(big5.has(cp(char))).toBe(true);
    expect(big5.has(cp('台'))).toBe(true);
    expect(big5.has(cp('们'))).toBe(false);
  });

  test('returns printable Basic Latin, U+0020 to U+007E', () => {
    const { latin } = coverageSets();
    expect(latin.size).toBe(95);
    expect(latin.has(0x20)).toBe(true);
    expect(latin.has(0x7e)).toBe(true);
    expect(latin.has(0x7f)).toBe(false);
  });

  test('returns the 3500 characters of level 1 of 通用规范汉字表 (2013), not the 1988 list', () => {
    const { tongyong } = coverageSets();
    expect(tongyong.size).toBe(3500);
    // Added to the common list in 2013 ...
    for (const char of ['丫', '冉', '吾', '尧', '皖', '赣', '馨']) expect(tongyong.has(cp(char))).toBe(true);
    // ... and dropped from it (they moved to level 2).
    for (const char of ['傀', '儡', '凫', '蚜', '蛆', '黍']) expect(tongyong.has(cp(char))).toBe(false);
    // A level-3 character.
    expect(tongyong.has(cp('㑇'))).toBe(false);
  });
});

describe('tongyong-level1.txt', () => {
  test('holds 3500 distinct CJK characters in the table order, without separators', () => {
    const text = fs.readFileSync('src/server/engine/data/tongyong-level1.txt', 'utf8');
    const chars = Array.from(text);
    expect(chars).toHaveLength(3500);
    expect(new Set(chars).size).toBe(3500);
    expect(chars.every((char) => /\p{Script=Han}/u.test(char))).toBe(true);
    expect(chars.slice(0, 5).join('')).toBe('一乙二十丁');
    expect(chars.at(-1)).toBe('矗');
  });
});

describe('countCoverage', () => {
  test('counts the members of each set that the predicate accepts', () => {
    const present = new Set([cp('啊'), cp('臺'), cp('一'), 0x41, 0x10000]);
    // 啊 and 一 are in all three hanzi sets, 臺 only in Big5; U+10000 is in none.
    expect(countCoverage((c) => present.has(c))).toEqual({ gb2312: 2, tongyong: 2, big5: 3, latin: 1 });
  });
});

describe('tongyongTable', () => {
  test('holds the 8 105 characters of 通用规范汉字表, level 1 first', () => {
    const table = tongyongTable();
    expect(table).toHaveLength(8105);
    expect(new Set(table).size).toBe(8105);
    expect(table.slice(0, 3500).join('')).toBe(
      fs.readFileSync('src/server/engine/data/tongyong-level1.txt', 'utf8').trim(),
    );
    for (const character of ['傀', '儡', '凫', '蚜', '蛆', '黍', '㑇', '𬱖']) expect(table).toContain(character);
  });
});
