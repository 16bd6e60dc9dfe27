import { randomUUID } from 'node:crypto';
import { type Bus, clusterBus } from '../cluster/bus.ts';
import { type AnswerCache, answerCache } from '../http/answer-cache.ts';
import { type PageCache, pageCache } from '../isr/page-cache.ts';
import { log } from '../log.ts';
import { API_KEY, EVERY_SECTION_KEY, PAGES_KEY, purgeCdnKeys } from './cdn.ts';
import { markSearchIndexStale } from './search-index.ts';

/** The parts of the site whose pages a change can touch, by the URL prefix of their pages. */
export const CONTENT_SECTIONS = [
  'news',
  'zixun',
  'baike',
  'album',
  'heji',
  'case',
  'promotion',
  'video',
  'font',
  'site',
] as const;
/** A part of the site whose pages a change can touch. */
export type ContentSection = (typeof CONTENT_SECTIONS)[number];

/** Pages outside a section that show some of it: /dingzhi (字体定制) lists the latest cases. */
const ALSO_SHOWN: Partial<Record<ContentSection, readonly string[]>> = { case: ['/dingzhi'] };

/**
 * The cached paths a change in a section makes stale: its list and every detail, home, the sitemap
 * and the pages that also show the section.
 */
export function affectedPaths(section: ContentSection): (pathname: string) => boolean {
  const prefix = `/${section}`;
  const also = ALSO_SHOWN[section] ?? [];
  return (pathname) =>
    pathname === '/' ||
    pathname === '/sitemap.xml' ||
    also.includes(pathname) ||
    (section !== 'site' && (pathname === prefix || pathname.startsWith(`${prefix}/`)));
}

/** The CDN keys of a page (see cdn.ts): the sections it shows, and the key of every page. */
export function pageKeys(pathname: string): string[] {
  return [...CONTENT_SECTIONS.filter((section) => affectedPaths(section)(pathname)), PAGES_KEY];
}

/** The CDN keys a change of `section` purges: the section's pages and answers, and the answers showing every section. */
function cdnKeysOf(section: ContentSection | 'all'): string[] {
  return section === 'all' ? [PAGES_KEY, API_KEY] : [section, EVERY_SECTION_KEY];
}

/** What one purge covers: a content section (or everything), or the API answers of one tag only. */
export type Purge = { section: ContentSection | 'all' } | { answersTag: string };

/** The caches of one node that a purge empties. */
export interface PurgeTargets {
  pages: PageCache;
  answers: AnswerCache;
}

const localTargets = (): PurgeTargets => ({ pages: pageCache(), answers: answerCache() });

/** Empties this node's caches of what `purge` covers. */
export async function purgeHere(purge: Purge, targets = localTargets()): Promise<void> {
  if ('answersTag' in purge) {
    targets.answers.purge(purge.answersTag, { everySection: false });
    return;
  }
  const { section } = purge;
  markSearchIndexStale();
  if (section === 'all') targets.answers.purgeAll();
  else targets.answers.purge(section);
  if (section === 'all') await targets.pages.purgeAll();
  else await targets.pages.purgeWhere(affectedPaths(section));
}

/**
 * Called by the services after they change content: purges every cached page that shows it (the
 * item's page, its neighbours' previous/next links, its list, home, the sitemap and, for news, the
 * RSS feed), the API answers that show it, and marks the search index for a rebuild, on this node
 * at once and on every other node through the bus (a NOTIFY on PostgreSQL), and tells the CDN in
 * front when CDN_PURGE_URL is set. `'all'` purges every page and answer.
 */
export async function contentChanged(section: ContentSection | 'all'): Promise<void> {
  await purgeEverywhere({ section });
  log().debug({ section }, 'content changed, pages purged');
}

/** Purges on this node at once, then announces the purge to the others (`via` them) and the CDN. */
export async function purgeEverywhere(
  purge: Purge,
  via: { bus: Bus; node: string; targets: PurgeTargets } = {
    bus: clusterBus(),
    node: nodeId(),
    targets: localTargets(),
  },
): Promise<void> {
  await purgeHere(purge, via.targets);
  const message: PurgeMessage = { from: via.node, ...purge };
  await via.bus
    .notify(PURGE_CHANNEL, JSON.stringify(message))
    .catch((error: unknown) => log().error({ err: error }, 'purge not sent to the other nodes'));
  if ('section' in purge) void purgeCdnKeys(cdnKeysOf(purge.section));
}

/** The bus channel of purges between nodes. */
export const PURGE_CHANNEL = 'site_purge';

/** A purge as it travels between nodes: who sent it (it purged its own caches already) and what. */
export type PurgeMessage = Purge & { from: string };

// One id per process, on globalThis: the page bundle and the scripts load this module apart.
const NODE_SLOT = Symbol.for('font-alliance.node-id');

/** This process's id among the nodes, so that it skips the purges it sent itself. */
export function nodeId(): string {
  const slot = globalThis as { [NODE_SLOT]?: string };
  slot[NODE_SLOT] ??= randomUUID();
  return slot[NODE_SLOT];
}

function parsePurge(payload: string): PurgeMessage | undefined {
  try {
    const message = JSON.parse(payload) as Partial<PurgeMessage> & { section?: unknown; answersTag?: unknown };
    if (typeof message.from !== 'string') return undefined;
    if (typeof message.answersTag === 'string') return { from: message.from, answersTag: message.answersTag };
    const section = message.section;
    if (section === 'all' || CONTENT_SECTIONS.includes(section as ContentSection)) {
      return { from: message.from, section: section as ContentSection | 'all' };
    }
  } catch {
    // not a purge: ignored below
  }
  return undefined;
}

/**
 * Applies the purges other nodes announce on `bus` to `targets` (`node` is this node's id), and
 * purges everything after the bus lost its connection, since purges may have been missed;
 * `onPurged` hears each purge applied. Answers a function that stops listening.
 */
export async function relayPurges(
  bus: Bus,
  node: string,
  targets: PurgeTargets,
  onPurged: (message: PurgeMessage) => void = () => {},
): Promise<() => Promise<void>> {
  bus.onReconnect(() => void purgeHere({ section: 'all' }, targets));
  return bus.listen(PURGE_CHANNEL, (payload) => {
    const message = parsePurge(payload);
    if (!message) {
      log().warn({ payload: payload.slice(0, 200) }, 'unreadable purge message ignored');
      return;
    }
    if (message.from === node) return;
    void purgeHere(message, targets).then(
      () => onPurged(message),
      (error: unknown) => log().error({ err: error }, 'purge from another node failed'),
    );
  });
}

const RELAY_SLOT = Symbol.for('font-alliance.purge-relay');

/** Starts applying other nodes' purges to this process's caches (once; later calls do nothing). */
export function startPurgeRelay(): void {
  const slot = globalThis as { [RELAY_SLOT]?: boolean };
  if (slot[RELAY_SLOT]) return;
  slot[RELAY_SLOT] = true;
  void relayPurges(clusterBus(), nodeId(), localTargets()).catch((error: unknown) => {
    slot[RELAY_SLOT] = false;
    log().error({ err: error }, 'purges of other nodes not heard');
  });
}
