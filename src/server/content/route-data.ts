// The data behind a detail route, loaded by the page itself: Astro streams a page once its
// frontmatter has run, so a 404 thrown later, inside a component, would arrive after a 200.
import { PageNotFoundError } from '../../lib/route-error.ts';
import { isValidRouteId } from '../../lib/routes.ts';
import type { ArticleKind } from '../db/schema/index.ts';
import { type ArticleDetail, getArticle } from './articles.ts';
import { type FontGroupDetail, type FontGroupType, getFontGroup } from './groups.ts';

/** The published article of this kind that the route's id names, or a 404. */
export async function articleForRoute(id: string | undefined, kind: ArticleKind): Promise<ArticleDetail> {
  if (!isValidRouteId(id, 'numeric')) throw new PageNotFoundError(`Malformed ${kind} id ${id}`);
  const article = await getArticle(Number(id), [kind]);
  if (!article) throw new PageNotFoundError(`No published ${kind} article ${id}`);
  return article;
}

/** The published album or collection that the route's id names, or a 404. */
export async function fontGroupForRoute(id: string | undefined, type: FontGroupType): Promise<FontGroupDetail> {
  if (!isValidRouteId(id, 'numeric')) throw new PageNotFoundError(`Malformed ${type} id ${id}`);
  const group = await getFontGroup(type, Number(id));
  if (!group) throw new PageNotFoundError(`No published ${type} ${id}`);
  return group;
}
