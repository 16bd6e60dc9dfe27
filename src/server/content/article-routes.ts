import { Hono } from 'hono';
import { z } from 'zod';
import { cachedRead } from '../http/answer-cache.ts';
import { notFound, ok } from '../http/envelope.ts';
import { listChoiceOr, pageQuery, validate } from '../http/validate.ts';
import { countArticleView, getArticle, listArticles, listBaikeTitles } from './articles.ts';
import { idParam, optionalId, optionalText } from './params.ts';

// wenzhang 文章 (articles): news and consulting (zixun) articles share these calls, told apart by
// `type`; the encyclopedia (shufa-baike 书法百科) has calls of its own.
const articleListQuery = pageQuery.extend({
  type: listChoiceOr(['news', 'zixun'], 'news', '文章类型'),
  tagId: optionalId('分类'),
  keyword: optionalText(50, '关键词'),
});
const baikeListQuery = pageQuery.extend({
  tagId: optionalId('分类'),
  keyword: optionalText(50, '关键词'),
});
const idQuery = z.object({ id: idParam('文章编号') });
const titlesQuery = z.object({ tagId: optionalId('分类'), tageId: optionalId('分类') });

const ARTICLE_TAGS = ['news', 'zixun'];
/** A cached article answer still counts its reader. */
const countViewOf = (url: URL) => countArticleView(Number(url.searchParams.get('id')));

/** Articles, mounted at /web/api: web-wenzhang (news, zixun) and shufa-baike (SPEC §7 News, Baike). */
export function articleRoutes(): Hono {
  const routes = new Hono();

  routes.get(
    '/web-wenzhang/selectPage',
    cachedRead({ tags: ARTICLE_TAGS }),
    validate('query', articleListQuery),
    async (c) => {
      const { type, ...query } = c.req.valid('query');
      return c.json(ok(await listArticles({ ...query, kind: type })));
    },
  );
  routes.get(
    '/web-wenzhang/getDetailById',
    cachedRead({ tags: ARTICLE_TAGS, onHit: countViewOf }),
    validate('query', idQuery),
    async (c) => {
      const { id } = c.req.valid('query');
      const article = await getArticle(id, ['news', 'zixun']);
      if (!article) throw notFound('文章不存在或已下架');
      countArticleView(id);
      return c.json(ok(article));
    },
  );

  routes.get(
    '/shufa-baike/getCalligraphyTitleByTageId',
    cachedRead({ tags: ['baike'] }),
    validate('query', titlesQuery),
    async (c) => {
      const { tagId, tageId } = c.req.valid('query');
      return c.json(ok(await listBaikeTitles(tagId ?? tageId)));
    },
  );
  routes.get('/shufa-baike/selectPage', cachedRead({ tags: ['baike'] }), validate('query', baikeListQuery), async (c) =>
    c.json(ok(await listArticles({ ...c.req.valid('query'), kind: 'baike' }))),
  );
  routes.get(
    '/shufa-baike/getDetailById',
    cachedRead({ tags: ['baike'], onHit: countViewOf }),
    validate('query', idQuery),
    async (c) => {
      const { id } = c.req.valid('query');
      const entry = await getArticle(id, ['baike']);
      if (!entry) throw notFound('百科词条不存在或已下架');
      countArticleView(id);
      return c.json(ok(entry));
    },
  );
  return routes;
}
