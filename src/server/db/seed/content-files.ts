import fsp from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CONTENT_SEED_DIR } from '../../paths.ts';

/** The folders of src/server/db/seed/content/, one per kind of item. */
export const CONTENT_KINDS = ['news', 'baike', 'zixun', 'case', 'album', 'heji'] as const;
/** One kind of seeded content item. */
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** Where the site's own articles, albums and cases are kept as Markdown files. */
export const CONTENT_DIR = CONTENT_SEED_DIR;

const dateLike = z.union([z.string(), z.date()]).transform((value, ctx) => {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: `not a date: ${String(value)}` });
    return z.NEVER;
  }
  return date;
});

const text = z.string().trim();
const fontList = z.array(z.string().trim().min(1)).default([]);

/** The frontmatter every content file may carry; each kind reads the fields it needs. */
const frontmatter = z.object({
  title: text.min(1),
  summary: text.default(''),
  publishedAt: dateLike.optional(),
  author: text.optional(),
  source: text.optional(),
  tag: text.optional(),
  // News and consulting articles name their grouping `category`; it is read as their tag.
  category: text.optional(),
  client: text.optional(),
  fonts: fontList,
  video: text.optional(),
  sort: z.number().int().optional(),
});

/** One parsed content file: its slug (the file name), its fields and its Markdown body. */
export interface ContentFile {
  kind: ContentKind;
  slug: string;
  title: string;
  summary: string;
  publishedAt: Date | undefined;
  author: string | undefined;
  source: string | undefined;
  tag: string | undefined;
  client: string | undefined;
  fonts: string[];
  video: string | undefined;
  sort: number | undefined;
  body: string;
}

/** Thrown for a content file that cannot be read; the message names the file. */
export class ContentFileError extends Error {
  override name = 'ContentFileError';
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,95}$/;

/** Splits a Markdown file into its YAML frontmatter and body and checks the fields. */
export function parseContentFile(kind: ContentKind, slug: string, source: string): ContentFile {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(source);
  if (!match) throw new ContentFileError(`${kind}/${slug}.md has no frontmatter`);
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    throw new ContentFileError(`${kind}/${slug}.md: invalid YAML (${(error as Error).message})`);
  }
  const parsed = frontmatter.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ContentFileError(`${kind}/${slug}.md: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  const fields = parsed.data;
  return {
    kind,
    slug,
    title: fields.title,
    summary: fields.summary,
    publishedAt: fields.publishedAt,
    author: fields.author,
    source: fields.source,
    tag: fields.tag ?? fields.category,
    client: fields.client,
    fonts: fields.fonts,
    video: fields.video || undefined,
    sort: fields.sort,
    body: (match[2] ?? '').trim(),
  };
}

/** What reading the content folder found: the files, and the ones that could not be read. */
export interface ContentFiles {
  files: ContentFile[];
  errors: string[];
}

/**
 * Reads every `<kind>/<slug>.md` under `dir`. A missing folder is simply empty; a file that does
 * not parse is reported in `errors` and left out, so one typo does not stop the others.
 */
export async function readContentFiles(dir: string = CONTENT_DIR): Promise<ContentFiles> {
  const result: ContentFiles = { files: [], errors: [] };
  for (const kind of CONTENT_KINDS) {
    const names = await fsp.readdir(path.join(dir, kind)).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
      const slug = name.slice(0, -3);
      if (!SLUG.test(slug)) {
        result.errors.push(`${kind}/${name}: file names must be lower-case letters, digits and '-'`);
        continue;
      }
      try {
        const source = await fsp.readFile(path.join(dir, kind, name), 'utf8');
        result.files.push(parseContentFile(kind, slug, source));
      } catch (error) {
        result.errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
  return result;
}

const siteJson = z.object({
  friendLinks: z
    .array(z.object({ name: text.min(1), url: text.min(1), sort: z.number().int().default(0) }))
    .default([]),
  keywords: z.array(z.object({ word: text.min(1), weight: z.number().int().default(0) })).default([]),
  columns: z
    .array(z.object({ type: text.min(1), name: text.min(1), path: text.min(1), sort: z.number().int().default(0) }))
    .default([]),
  promotions: z
    .array(
      z.object({
        title: text.min(1),
        summary: text.default(''),
        body: z.string().default(''),
        linkUrl: text.optional(),
        startsAt: dateLike.optional(),
        endsAt: dateLike.optional(),
      }),
    )
    .default([]),
  ads: z.array(z.object({ position: text.min(1), title: text.default(''), linkUrl: text.optional() })).default([]),
  contributeTemplates: z
    .array(z.object({ type: text.min(1), title: text.min(1), content: z.string().default('') }))
    .default([]),
});

/** The site-wide tables seeded from site.json. */
export type SiteData = z.output<typeof siteJson>;

/** Reads `<dir>/site.json`; a missing file is empty data, a malformed one throws ContentFileError. */
export async function readSiteData(dir: string = CONTENT_DIR): Promise<SiteData> {
  const source = await fsp.readFile(path.join(dir, 'site.json'), 'utf8').catch(() => '{}');
  let data: unknown;
  try {
    data = JSON.parse(source);
  } catch (error) {
    throw new ContentFileError(`site.json: invalid JSON (${(error as Error).message})`);
  }
  const parsed = siteJson.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ContentFileError(`site.json: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data;
}
