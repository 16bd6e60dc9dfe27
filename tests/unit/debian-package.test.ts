// A family only Debian packages is read from its .deb: the ar members are listed, data.tar.xz is
// streamed through the xz decoder, and only the fonts under usr/share/fonts and the package's
// copyright file come out. The .deb here is built by dpkg-deb from a fixture font; a mirror serving
// it locally shows that the pinned SHA-256 refuses a changed byte, downloaded or cached.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { debCachePath, ensureDeb, extractDebianFiles, readArMembers } from '../../src/server/db/seed/debian-package.ts';
import type { DebianSource } from '../../src/server/db/seed/font-catalogue.ts';
import { IntegrityError } from '../../src/server/db/seed/font-sources.ts';

const FONT = fs.readFileSync('tests/fixtures/fonts/zcool-kuaile/ZCOOLKuaiLe_400Regular.ttf');
const COPYRIGHT = 'Files: *\nCopyright: 2024, 测试字库\nLicense: GPL-2+\n As a special exception, …\n';
let dir: string;
let deb: Buffer;
let source: DebianSource;
let served: Buffer;
const requested: string[] = [];
const mirror = http.createServer((req, res) => {
  requested.push(req.url ?? '');
  if (req.url === `/debian/${source.filename}`) res.writeHead(200).end(served);
  else res.writeHead(404).end();
});
let mirrorUrl: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-alliance-deb-'));
  const root = path.join(dir, 'fonts-test');
  fs.mkdirSync(path.join(root, 'DEBIAN'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'DEBIAN/control'),
    'Package: fonts-test\nVersion: 1.0-1\nArchitecture: all\nMaintainer: Test <test@example.com>\nDescription: test font\n',
  );
  fs.mkdirSync(path.join(root, 'usr/share/fonts/truetype/test'), { recursive: true });
  fs.writeFileSync(path.join(root, 'usr/share/fonts/truetype/test/TestKai.ttf'), FONT);
  fs.mkdirSync(path.join(root, 'usr/share/doc/fonts-test'), { recursive: true });
  fs.writeFileSync(path.join(root, 'usr/share/doc/fonts-test/copyright'), COPYRIGHT);
  // Neither a TTF outside usr/share/fonts nor other files are taken.
  fs.writeFileSync(path.join(root, 'usr/share/doc/fonts-test/Stray.ttf'), FONT);
  fs.writeFileSync(path.join(root, 'usr/share/doc/fonts-test/README'), 'read me');
  execFileSync('dpkg-deb', ['-Zxz', '--root-owner-group', '--build', root, path.join(dir, 'fonts-test.deb')], {
    stdio: 'ignore',
  });
  deb = fs.readFileSync(path.join(dir, 'fonts-test.deb'));
  source = {
    kind: 'debian',
    package: 'fonts-test',
    version: '1.0-1',
    filename: 'pool/main/f/fonts-test/fonts-test_1.0-1_all.deb',
    sha256: createHash('sha256').update(deb).digest('hex'),
    size: deb.length,
  };
  served = deb;
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
  mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/debian`;
});
afterAll(() => {
  mirror.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a Debian package', () => {
  test('lists its ar members in order, each where its bytes are', async () => {
    const file = path.join(dir, 'fonts-test.deb');
    const members = await readArMembers(file);
    expect(members.map((member) => member.name)).toEqual(['debian-binary', 'control.tar.xz', 'data.tar.xz']);
    const [binary] = members;
    expect(deb.subarray(binary?.offset, (binary?.offset ?? 0) + (binary?.size ?? 0)).toString()).toBe('2.0\n');
    // Every member's bytes are the xz stream dpkg-deb wrote (xz magic FD 37 7A 58 5A 00).
    for (const member of members.slice(1)) {
      expect([...deb.subarray(member.offset, member.offset + 6)]).toEqual([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
    }
  });

  test('refuses what is not an ar archive, and a member that runs past the end', async () => {
    const notAr = path.join(dir, 'not-ar.deb');
    fs.writeFileSync(notAr, FONT);
    await expect(readArMembers(notAr)).rejects.toThrow(/not an ar archive/);
    const cut = path.join(dir, 'cut.deb');
    fs.writeFileSync(cut, deb.subarray(0, deb.length - 100));
    await expect(readArMembers(cut)).rejects.toThrow(/data\.tar\.xz runs past the end/);
  });

  test('gives its fonts under usr/share/fonts and its copyright file, nothing else', async () => {
    const out = path.join(dir, 'out');
    const files = await extractDebianFiles(path.join(dir, 'fonts-test.deb'), out, source);
    expect(files.fonts.map((file) => path.relative(out, file))).toEqual(['usr/share/fonts/truetype/test/TestKai.ttf']);
    expect(fs.readFileSync(files.fonts[0] ?? '').equals(FONT)).toBe(true);
    expect(files.licenseText).toBe(COPYRIGHT);
    expect(fs.existsSync(path.join(out, 'usr/share/doc/fonts-test/README'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'usr/share/doc/fonts-test/Stray.ttf'))).toBe(false);
  });

  test('is downloaded once into the cache, and a download with one byte changed is refused', async () => {
    const cacheDir = path.join(dir, 'cache');
    const changed = Buffer.from(deb);
    changed[changed.length - 10] = (changed[changed.length - 10] ?? 0) ^ 0xff;
    served = changed;
    await expect(ensureDeb({ source, cacheDir, mirror: mirrorUrl })).rejects.toBeInstanceOf(IntegrityError);
    expect(fs.existsSync(debCachePath(cacheDir, source))).toBe(false);
    expect(fs.readdirSync(cacheDir)).toEqual([]);

    served = deb;
    requested.length = 0;
    expect(await ensureDeb({ source, cacheDir, mirror: `${mirrorUrl}/` })).toEqual({
      file: debCachePath(cacheDir, source),
      downloaded: true,
    });
    expect(requested).toEqual([`/debian/${source.filename}`]);
    expect((await ensureDeb({ source, cacheDir, mirror: mirrorUrl })).downloaded).toBe(false);
    expect(requested).toHaveLength(1);

    // A cached copy with a changed byte is fetched again.
    fs.writeFileSync(debCachePath(cacheDir, source), changed);
    expect((await ensureDeb({ source, cacheDir, mirror: mirrorUrl })).downloaded).toBe(true);
    expect(fs.readFileSync(debCachePath(cacheDir, source)).equals(deb)).toBe(true);
  });
});
