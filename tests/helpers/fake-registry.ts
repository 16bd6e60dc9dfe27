// A local npm registry for the library's seeding: it answers the tarball protocol with packages made
// from the fixture fonts, counts what it was asked for, and can hold its answers or serve wrong bytes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import type { CatalogueEntry } from '../../src/server/db/seed/font-catalogue.ts';

export const FIXTURES = path.resolve('tests/fixtures/fonts');
const SCOPE = '@expo-google-fonts';
export const VERSION = '1.0.0';

/** A package laid out like @expo-google-fonts: one folder per weight, LICENSE_FONT at the root. */
export async function pack(files: Record<string, Buffer>): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-growth-pack-'));
  try {
    for (const [name, bytes] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'package', name)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'package', name), bytes);
    }
    await tar.c({ gzip: true, file: path.join(dir, 'pkg.tgz'), cwd: dir }, ['package']);
    return fs.readFileSync(path.join(dir, 'pkg.tgz'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const fixtureFont = (file: string) => fs.readFileSync(path.join(FIXTURES, file));
export const license = Buffer.from('Copyright test\n\nSIL OPEN FONT LICENSE Version 1.1\n');

export function entryFor(gno: string, nameZh: string, tarball: Buffer): CatalogueEntry {
  return {
    gno,
    nameZh,
    category: '楷体',
    script: '日文',
    license: 'OFL-1.1',
    foundry: '测试字库',
    description: `${nameZh}，用于测试后台补充字库。`,
    source: {
      kind: 'registry',
      scope: SCOPE,
      name: gno,
      version: VERSION,
      size: tarball.length,
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    },
  };
}

/**
 * A registry serving `packages` by name; while `gate` is set, every answer waits for it, so that a
 * test sees the seeding in flight. `swap` serves other bytes for a package (a corrupted copy).
 */
export class FakeRegistry {
  readonly server: http.Server;
  readonly requested: string[] = [];
  readonly packages = new Map<string, Buffer>();
  readonly swap = new Map<string, Buffer>();
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  constructor() {
    this.server = http.createServer((req, res) => {
      const name = /^\/@expo-google-fonts\/([a-z0-9-]+)\/-\/\1-1\.0\.0\.tgz$/.exec(req.url ?? '')?.[1] ?? '';
      this.requested.push(name);
      const body = this.swap.get(name) ?? this.packages.get(name);
      void (this.gate ?? Promise.resolve()).then(() => {
        if (!body) res.writeHead(404).end();
        else res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(body);
      });
    });
  }

  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }
}
