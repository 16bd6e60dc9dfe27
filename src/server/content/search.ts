import { and, desc, eq, ilike, or } from 'drizzle-orm';
import { db as configuredDb, type Db } from '../db/client.ts';
import { articles, fontFamilies, fontGroups, keywords } from '../db/schema/index.ts';
import { log } from '../log.ts';
import { storage } from '../storage/index.ts';
import { coverUrls } from './covers.ts';
import { fontSearchKeywords } from './font-search-terms.ts';
import { htmlToText } from './html.ts';
import { type Page, type PageRequest, toPage } from './paging.ts';
import {
  markSearchIndexStale,
  type SearchDocument,
  SearchIndex,
  type SearchType,
  searchIndexVersion,
  tokenize,
} from './search-index.ts';

/** The detail page of each kind of result. */
const DETAIL_PATHS: Record<SearchType, string> = {
  font: '/font',
  news: '/news',
  baike: '/baike',
  zixun: '/zixun',
  album: '/album',
  heji: '/heji',
};

/** Reads everything searchable from the database into a new index, handing back control between batches. */
async function buildIndex(db: Db): Promise<SearchIndex> {
  const started = performance.now();
  const index = new SearchIndex();
  const docs: SearchDocument[] = [];
  const families = await db.select().from(fontFamilies).where(eq(fontFamilies.published, true));
  for (const family of families) {
    docs.push({
      type: 'font',
      id: family.gno,
      url: `${DETAIL_PATHS.font}/${family.gno}`,
      title: `${family.nameZh} ${family.nameEn}`,
      summary: [family.foundry, family.designer].filter(Boolean).join(' '),
      body: family.description,
      keywords: fontSearchKeywords(family),
      // The result shows the family's Chinese name drawn in the font itself.
      extra: { preview: family.nameZh },
    });
  }
  const articleRows = await db.select().from(articles).where(eq(articles.status, 'published'));
  for (const row of articleRows) {
    docs.push({
      type: row.kind,
      id: row.id,
      url: `${DETAIL_PATHS[row.kind]}/${row.id}`,
      title: row.title,
      summary: row.summary,
      body: htmlToText(row.bodyHtml),
      extra: { ...coverUrls(storage(), row.coverKey), publishedAt: row.publishedAt?.toISOString() ?? null },
    });
  }
  const groups = await db.select().from(fontGroups).where(eq(fontGroups.status, 'published'));
  for (const row of groups) {
    const type = row.kind;
    docs.push({
      type,
      id: row.id,
      url: `${DETAIL_PATHS[type]}/${row.id}`,
      title: row.title,
      summary: row.summary,
      body: htmlToText(row.descriptionHtml),
      extra: coverUrls(storage(), row.coverKey),
    });
  }
  for (const [position, doc] of docs.entries()) {
    index.add(doc);
    if (position % 50 === 49) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  log().info({ documents: index.size, ms: Math.round(performance.now() - started) }, 'search index built');
  return index;
}

interface BuiltIndex {
  version: number;
  index: SearchIndex;
}

const SLOT = Symbol.for('font-alliance.search-index');
type Slot = { [SLOT]?: { built?: BuiltIndex | undefined; building?: Promise<BuiltIndex> | undefined } };

/**
 * The search index, rebuilt when content changed since it was built. While a rebuild runs, searches
 * use the previous index; only the very first search waits for one.
 */
export async function searchIndex(database?: Db): Promise<SearchIndex> {
  const holder = globalThis as Slot;
  holder[SLOT] ??= {};
  const slot = holder[SLOT];
  const version = searchIndexVersion();
  if (slot.built && slot.built.version === version) return slot.built.index;
  slot.building ??= (async () => {
    const index = await buildIndex(database ?? (await configuredDb()));
    const built = { version, index };
    slot.built = built;
    return built;
  })().finally(() => {
    slot.building = undefined;
  });
  if (slot.built) return slot.built.index;
  return (await slot.building).index;
}

/**
 * Rebuilds the search index now and resolves once searches use it: for a change that must be found
 * at once (a font just published), where contentChanged's purge would rebuild it on the next search.
 */
export async function refreshSearchIndex(database?: Db): Promise<void> {
  markSearchIndexStale();
  const holder = globalThis as Slot;
  await searchIndex(database);
  await holder[SLOT]?.building;
}

/** Whether searches now use an index built since the last change (not the previous one, while it is rebuilt). */
export function isSearchIndexCurrent(): boolean {
  return (globalThis as Slot)[SLOT]?.built?.version === searchIndexVersion();
}

/** A search result, with HTML in which only <mark> is markup. */
export interface SearchResult {
  type: SearchType;
  id: number | string;
  url: string;
  title: string;
  titleHtml: string;
  snippetHtml: string;
  score: number;
  cover: string | null;
  thumb: string | null;
  publishedAt: string | null;
  /** For a font: the text its result shows drawn in the font itself (its Chinese name). */
  preview: string | null;
}

/** How close to the best result's score a font must come to be listed before everything else. */
const FONT_LEAD_SHARE = 0.5;

/** Fonts and articles ranked for a query (Chinese word segmentation, weighted fields), one page of them. */
export async function searchContent(
  query: PageRequest & { keyword: string; type?: SearchType | undefined },
  database?: Db,
): Promise<Page<SearchResult>> {
  const index = await searchIndex(database);
  const ranked = index.search(query.keyword, query.type ? (doc) => doc.type === query.type : undefined);
  // Someone who types a font's name is looking for the font: fonts that match about as well as the
  // best result come first; a font found only through a word of its style keeps its rank.
  const best = ranked[0]?.score ?? 0;
  const leads = (hit: (typeof ranked)[number]) => hit.doc.type === 'font' && hit.score >= best * FONT_LEAD_SHARE;
  const hits = [...ranked.filter(leads), ...ranked.filter((hit) => !leads(hit))];
  const start = (query.current - 1) * query.size;
  const records = hits.slice(start, start + query.size).map(
    (hit): SearchResult => ({
      type: hit.doc.type,
      id: hit.doc.id,
      url: hit.doc.url,
      title: hit.doc.title,
      titleHtml: hit.titleHtml,
      snippetHtml: hit.snippetHtml,
      score: Math.round(hit.score * 1000) / 1000,
      cover: (hit.doc.extra?.['cover'] as string | null | undefined) ?? null,
      thumb: (hit.doc.extra?.['thumb'] as string | null | undefined) ?? null,
      publishedAt: (hit.doc.extra?.['publishedAt'] as string | null | undefined) ?? null,
      preview: (hit.doc.extra?.['preview'] as string | undefined) ?? null,
    }),
  );
  return toPage(records, hits.length, query);
}

/** A suggested search word. */
export interface KeywordSuggestion {
  word: string;
  weight: number;
}

function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Search suggestions: without input, the heaviest keywords; with input, keywords starting with it,
 * then keywords containing one of its words, then indexed words starting with it.
 */
export async function suggestKeywords(
  input: string | undefined,
  limit = 10,
  database?: Db,
): Promise<KeywordSuggestion[]> {
  const db = database ?? (await configuredDb());
  const typed = input?.trim() ?? '';
  if (!typed) {
    return db
      .select({ word: keywords.word, weight: keywords.weight })
      .from(keywords)
      .orderBy(desc(keywords.weight), keywords.id)
      .limit(limit);
  }
  const found = new Map<string, number>();
  const byPrefix = await db
    .select({ word: keywords.word, weight: keywords.weight })
    .from(keywords)
    .where(ilike(keywords.word, likePrefix(typed)))
    .orderBy(desc(keywords.weight))
    .limit(limit);
  for (const row of byPrefix) found.set(row.word, row.weight);
  const words = tokenize(typed).filter((word) => word.length > 1 || /[\u4e00-\u9fff]/.test(word));
  if (found.size < limit && words.length > 0) {
    const containing = await db
      .select({ word: keywords.word, weight: keywords.weight })
      .from(keywords)
      .where(and(or(...words.map((word) => ilike(keywords.word, `%${word.replace(/[\\%_]/g, '\\$&')}%`)))))
      .orderBy(desc(keywords.weight))
      .limit(limit);
    for (const row of containing) if (!found.has(row.word)) found.set(row.word, row.weight);
  }
  if (found.size < limit) {
    const index = await searchIndex(db);
    for (const term of index.termsStartingWith(typed, limit)) if (!found.has(term)) found.set(term, 0);
  }
  return [...found].slice(0, limit).map(([word, weight]) => ({ word, weight }));
}
