import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resetEnv } from '../../src/server/env.ts';
import { storage } from '../../src/server/storage/index.ts';
import { SubsetPool } from '../../src/server/webfont/subset-pool.ts';
import { cmapByFontTools, passesOts } from '../helpers/font-oracle.ts';

const FONTS = {
  kuaile: 'tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf',
  shanzheng: 'tests/fixtures/fonts/ma-shan-zheng/MaShanZheng_400Regular.ttf',
};
const TEXT = [...'春眠不觉晓'].map((ch) => ch.codePointAt(0) ?? 0);

let dataDir: string;
let savedEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  savedEnv = { ...process.env };
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-subset-pool-'));
  process.env['DATA_DIR'] = dataDir;
  resetEnv();
  for (const [id, file] of Object.entries(FONTS)) await storage().put(`fonts/${id}.ttf`, fs.readFileSync(file));
});

afterAll(() => {
  process.env = savedEnv;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const job = (id: keyof typeof FONTS) => ({ fontId: id, key: `fonts/${id}.ttf`, codePoints: TEXT, quality: 5 });

describe('the subset pool', () => {
  test('keeps previews in workers of their own: a face the bulk lane loaded is not a preview worker’s', async () => {
    const pool = new SubsetPool({ previewWorkers: 1, bulkWorkers: 1 });
    try {
      const bulk = await pool.run(job('kuaile'), 'bulk');
      expect(pool.isResident('kuaile', 'bulk')).toBe(true);
      expect(pool.isResident('kuaile', 'preview')).toBe(false);
      const preview = await pool.run(job('kuaile'), 'preview');
      expect(pool.isResident('kuaile', 'preview')).toBe(true);
      // Both lanes cut the same font: exactly the asked-for characters, OTS-clean.
      expect(Buffer.from(preview.woff2).equals(Buffer.from(bulk.woff2))).toBe(true);
      expect(passesOts(preview.woff2)).toBe(true);
      expect(cmapByFontTools(preview.ttf)).toEqual(
        TEXT.filter((cp) => cmapByFontTools(fs.readFileSync(FONTS.kuaile)).includes(cp)).sort((a, b) => a - b),
      );
    } finally {
      await pool.close();
    }
  });

  test('learns from its workers which faces they let go', async () => {
    // A budget too small for two faces: loading the second lets the first go.
    const pool = new SubsetPool({ previewWorkers: 1, faceBudgetBytes: 1 });
    try {
      await pool.run(job('kuaile'), 'preview');
      expect(pool.isResident('kuaile', 'preview')).toBe(true);
      await pool.run(job('shanzheng'), 'preview');
      expect(pool.isResident('shanzheng', 'preview')).toBe(true);
      expect(pool.isResident('kuaile', 'preview')).toBe(false);
    } finally {
      await pool.close();
    }
  });
});
