import type { FontCategory, FontLicense, FontScript } from './font-dicts.ts';

// The shape of the library's catalogue (font-catalogue.ts): what the site says about a family and
// where its files come from.

/** An npm package that ships a family's full TTFs, pinned by version and integrity. */
export interface RegistrySource {
  kind: 'registry';
  /** Package name without its scope, e.g. 'noto-sans-sc' for '@expo-google-fonts/noto-sans-sc'. */
  name: string;
  scope: string;
  version: string;
  /** The registry's `dist.integrity` (sha512, base64); a download that differs is rejected. */
  integrity: string;
  /** Tarball size in bytes, for progress and to seed the smallest families first. */
  size: number;
}

/**
 * An npm package that ships a family only as web-font slices (WOFF2 files, each a subset of the
 * font): each face is rebuilt from the slices one CSS file lists (font-sources.ts, slice-merge.ts).
 * Used only where no package ships the whole font.
 */
export interface SlicedSource extends Omit<RegistrySource, 'kind'> {
  kind: 'sliced';
  faces: readonly SlicedFace[];
  /** The package's file holding the font's licence, when it ships one (kept with the family). */
  licenseFile?: string;
}

/** One face of a sliced package: the CSS whose `url(…woff2)` sources are its slices, and the TTF it becomes. */
export interface SlicedFace {
  /** Path inside the package, e.g. 'lxgwwenkai-regular.css'. */
  css: string;
  /** Only the @font-face rules whose font-family is this (a CSS may list several families). */
  family?: string;
  /** Only the @font-face rules of this weight. */
  weight?: number;
  /** The name of the rebuilt file, e.g. 'LXGWWenKai-Regular.ttf'. */
  file: string;
}

/**
 * A Debian package that ships a family's fonts (under usr/share/fonts) and its copyright file,
 * pinned by the SHA-256 and size Debian's Packages index gives; fetched from DEBIAN_MIRROR. Used for
 * families no npm package ships.
 */
export interface DebianSource {
  kind: 'debian';
  /** The binary package, e.g. 'fonts-cwtex-fs'. */
  package: string;
  version: string;
  /** The package's path under the mirror (the index's Filename), e.g. 'pool/main/f/…_all.deb'. */
  filename: string;
  /** The index's SHA256 of the .deb, in hex; a download that differs is rejected. */
  sha256: string;
  /** The .deb's size in bytes. */
  size: number;
}

/** A folder of test fixtures under tests/fixtures/fonts/ holding one family's TTFs. */
export interface FixtureSource {
  kind: 'fixture';
  dir: string;
}

/** What the site says about a family beyond what the font files say. */
export interface CatalogueEntry {
  /** SPEC fontGNo: a stable slug. */
  gno: string;
  nameZh: string;
  category: FontCategory;
  script: FontScript;
  license: FontLicense;
  foundry: string;
  /** An original one- or two-sentence Chinese description. */
  description: string;
  source: RegistrySource | SlicedSource | DebianSource | FixtureSource;
  /** Other names people search the family by (pinyin is added by the search index). */
  aliases?: readonly string[];
}
