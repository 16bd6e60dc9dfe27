import { loadJieba } from '../native.ts';
import { escapeHtml } from './html.ts';

/** What a search can find. */
export const SEARCH_TYPES = ['font', 'news', 'baike', 'zixun', 'album', 'heji'] as const;
/** One kind of search result. */
export type SearchType = (typeof SEARCH_TYPES)[number];

/** A document as the index takes it: weighted fields of plain text. */
export interface SearchDocument {
  type: SearchType;
  id: number | string;
  url: string;
  title: string;
  summary: string;
  body: string;
  /**
   * Other words the document is found by but that are not shown: a font's pinyin, initials, aliases
   * and the names of its style (宋体 → 明朝, Song, Serif…). Weighs just below the title.
   */
  keywords?: string;
  /** Anything the answer should carry along (cover, date); not searched. */
  extra?: Record<string, unknown>;
}

/** A ranked match with its highlighted title and snippet (HTML with <mark>, everything else escaped). */
export interface SearchHit {
  doc: SearchDocument;
  score: number;
  titleHtml: string;
  snippetHtml: string;
}

// A title word counts far more than a summary word, which counts more than a body word; a hidden
// keyword (pinyin, alias) counts a little less than a title word.
const FIELD_WEIGHTS = [8, 3, 1, 6] as const;
type Counts = [number, number, number, number];
const K1 = 1.2;
const B = 0.75;
const STOPWORDS = new Set(
  '的 了 是 和 与 及 在 也 就 都 而 或 着 之 其 这 那 有 为 以 于 被 把 对 从 向 等 一个 我们 你们 他们 一种 可以 一 不'.split(
    ' ',
  ),
);

/** Splits text into search terms: jieba's search-mode words, lower-cased, without punctuation and stop words. */
export function tokenize(text: string): string[] {
  if (!text) return [];
  return loadJieba()
    .cutForSearch(text, true)
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word && /[\p{L}\p{N}]/u.test(word) && !STOPWORDS.has(word));
}

interface Posting {
  doc: number;
  tf: Counts;
}

/** An in-memory inverted index over titles, summaries and bodies, ranked with BM25F. */
export class SearchIndex {
  private readonly docs: SearchDocument[] = [];
  private readonly lengths: Counts[] = [];
  private readonly postings = new Map<string, Posting[]>();
  private readonly totals: Counts = [0, 0, 0, 0];

  /** Adds a document; call `add` for every document before searching. */
  add(doc: SearchDocument): void {
    const index = this.docs.length;
    this.docs.push(doc);
    const fields = [tokenize(doc.title), tokenize(doc.summary), tokenize(doc.body), tokenize(doc.keywords ?? '')];
    const length = fields.map((terms) => terms.length) as Counts;
    this.lengths.push(length);
    const counts = new Map<string, Counts>();
    fields.forEach((terms, field) => {
      this.totals[field as 0 | 1 | 2 | 3] += terms.length;
      for (const term of terms) {
        const tf = counts.get(term) ?? [0, 0, 0, 0];
        tf[field as 0 | 1 | 2 | 3]++;
        counts.set(term, tf);
      }
    });
    for (const [term, tf] of counts) {
      const list = this.postings.get(term) ?? [];
      list.push({ doc: index, tf });
      this.postings.set(term, list);
    }
  }

  /** How many documents the index holds. */
  get size(): number {
    return this.docs.length;
  }

  /** Indexed terms starting with `prefix`, most widespread first (for search suggestions). */
  termsStartingWith(prefix: string, limit: number): string[] {
    const wanted = prefix.toLowerCase();
    const found: Array<[string, number]> = [];
    for (const [term, list] of this.postings) {
      if (term.length > wanted.length && term.startsWith(wanted)) found.push([term, list.length]);
    }
    return found
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([term]) => term);
  }

  /** The query's terms; a word the index does not know is also tried character by character. */
  private queryTerms(query: string): Array<{ term: string; weight: number }> {
    const terms = new Map<string, number>();
    for (const term of tokenize(query)) {
      if (this.postings.has(term)) terms.set(term, 1);
      else for (const char of Array.from(term)) if (this.postings.has(char)) terms.set(char, 0.5);
    }
    return [...terms].map(([term, weight]) => ({ term, weight }));
  }

  /**
   * Ranks the documents for a query: BM25F over the three fields, scaled by the share of query
   * terms a document holds and raised when the title or text contains the query as typed.
   */
  search(query: string, filter?: (doc: SearchDocument) => boolean): SearchHit[] {
    const terms = this.queryTerms(query);
    if (terms.length === 0) return [];
    const count = this.docs.length;
    const average = this.totals.map((total) => total / Math.max(1, count));
    const scores = new Map<number, { score: number; matched: number }>();
    for (const { term, weight } of terms) {
      const list = this.postings.get(term) ?? [];
      const idf = Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const lengths = this.lengths[doc] ?? [0, 0, 0, 0];
        let weighted = 0;
        for (let field = 0; field < FIELD_WEIGHTS.length; field++) {
          const norm = 1 - B + (B * (lengths[field] ?? 0)) / Math.max(1, average[field] ?? 1);
          weighted += ((FIELD_WEIGHTS[field] ?? 1) * (tf[field] ?? 0)) / norm;
        }
        const entry = scores.get(doc) ?? { score: 0, matched: 0 };
        entry.score += (weight * idf * (weighted * (K1 + 1))) / (weighted + K1);
        entry.matched += weight;
        scores.set(doc, entry);
      }
    }
    const phrase = query.trim().toLowerCase();
    const totalWeight = terms.reduce((sum, term) => sum + term.weight, 0);
    const hits: SearchHit[] = [];
    for (const [index, { score, matched }] of scores) {
      const doc = this.docs[index];
      if (!doc || (filter && !filter(doc))) continue;
      let final = score * (matched / totalWeight) ** 2;
      if (phrase.length > 1 && doc.title.toLowerCase().includes(phrase)) final *= 2;
      else if (phrase.length > 1 && `${doc.summary}\n${doc.body}`.toLowerCase().includes(phrase)) final *= 1.2;
      hits.push({ doc, score: final, titleHtml: '', snippetHtml: '' });
    }
    hits.sort((a, b) => b.score - a.score);
    const marks = [phrase, ...terms.map(({ term }) => term)];
    for (const hit of hits) {
      hit.titleHtml = highlight(hit.doc.title, marks);
      hit.snippetHtml = snippet(hit.doc, marks);
    }
    return hits;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function markPattern(marks: string[]): RegExp | undefined {
  const words = [...new Set(marks.filter((mark) => mark.length > 0))].sort((a, b) => b.length - a.length);
  return words.length > 0 ? new RegExp(words.map(escapeRegExp).join('|'), 'giu') : undefined;
}

/** Escapes text and wraps every occurrence of the marks in <mark>. */
export function highlight(text: string, marks: string[]): string {
  const pattern = markPattern(marks);
  if (!pattern) return escapeHtml(text);
  let html = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    html += `${escapeHtml(text.slice(last, match.index))}<mark>${escapeHtml(match[0])}</mark>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

const SNIPPET_LENGTH = 96;

/** A window of the summary or body around the first match, highlighted; the summary's start without a match. */
function snippet(doc: SearchDocument, marks: string[]): string {
  const pattern = markPattern(marks);
  for (const text of [doc.body, doc.summary]) {
    if (!pattern || !text) continue;
    pattern.lastIndex = 0;
    const match = pattern.exec(text);
    if (!match) continue;
    const start = Math.max(0, match.index - 24);
    const end = Math.min(text.length, start + SNIPPET_LENGTH);
    const window = text.slice(start, end).replace(/\s+/g, ' ');
    return `${start > 0 ? '…' : ''}${highlight(window, marks)}${end < text.length ? '…' : ''}`;
  }
  const fallback = doc.summary || doc.body;
  return escapeHtml(fallback.slice(0, SNIPPET_LENGTH)) + (fallback.length > SNIPPET_LENGTH ? '…' : '');
}

// The index is rebuilt when content changes; a flag on globalThis reaches every copy of this module.
const STALE = Symbol.for('font-alliance.search-stale');

/** Marks the search index for a rebuild before the next search. */
export function markSearchIndexStale(): void {
  (globalThis as { [STALE]?: number })[STALE] = ((globalThis as { [STALE]?: number })[STALE] ?? 0) + 1;
}

/** A number that grows with every change; an index built at an older number is stale. */
export function searchIndexVersion(): number {
  return (globalThis as { [STALE]?: number })[STALE] ?? 0;
}
