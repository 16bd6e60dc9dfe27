import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ensureCover } from '../../content/covers.ts';
import { renderMarkdown } from '../../content/html.ts';
import { ads, columns, contributeTemplates, friendLinks, keywords, promotions } from '../schema/index.ts';
import type { SiteData } from './content-files.ts';
import { redrawCover, type SeedItemContext } from './content-items.ts';

/** A slug for a cover made from free text: a readable prefix and a short hash of the text. */
function textSlug(prefix: string, text: string): string {
  const readable =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'item';
  return `${readable}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
}

/**
 * Seeds the site-wide tables from site.json. Each row is added only when its natural key is
 * absent (friend link by address, keyword by word, column by type and path, promotion by title,
 * ad by position and title, template by type and title), so running it again adds only new entries.
 * Answers how many rows were added.
 */
export async function seedSiteTables(
  ctx: SeedItemContext,
  site: SiteData,
  yieldNow: () => Promise<void>,
): Promise<number> {
  const { db, storage } = ctx;
  let added = 0;

  for (const link of site.friendLinks) {
    const [found] = await db.select({ id: friendLinks.id }).from(friendLinks).where(eq(friendLinks.url, link.url));
    if (found) continue;
    await db.insert(friendLinks).values(link);
    added++;
  }

  if (site.keywords.length > 0) {
    const rows = await db.insert(keywords).values(site.keywords).onConflictDoNothing().returning({ id: keywords.id });
    added += rows.length;
  }

  for (const column of site.columns) {
    const [found] = await db
      .select({ id: columns.id })
      .from(columns)
      .where(and(eq(columns.type, column.type), eq(columns.path, column.path)));
    if (found) continue;
    await db.insert(columns).values(column);
    added++;
  }

  for (const [index, promotion] of site.promotions.entries()) {
    const slug = textSlug('promotion', promotion.title);
    const [found] = await db
      .select({ id: promotions.id, coverKey: promotions.coverKey })
      .from(promotions)
      .where(eq(promotions.title, promotion.title));
    if (found) {
      const outcome = await redrawCover(
        ctx,
        found.coverKey,
        { kind: 'promotion', slug, title: promotion.title },
        (key) => db.update(promotions).set({ coverKey: key }).where(eq(promotions.id, found.id)),
      );
      if (outcome === 'redrawn') ctx.redrawn?.();
      continue;
    }
    const coverKey = await ensureCover(db, storage, { kind: 'promotion', slug, title: promotion.title });
    await db.insert(promotions).values({
      title: promotion.title,
      summary: promotion.summary,
      bodyHtml: renderMarkdown(promotion.body),
      coverKey,
      linkUrl: promotion.linkUrl ?? null,
      startsAt: promotion.startsAt ?? null,
      endsAt: promotion.endsAt ?? null,
      status: 'published',
      sort: site.promotions.length - index,
    });
    added++;
    await yieldNow();
  }

  for (const [index, ad] of site.ads.entries()) {
    const slug = textSlug(ad.position, ad.title);
    const [found] = await db
      .select({ id: ads.id, imageKey: ads.imageKey })
      .from(ads)
      .where(and(eq(ads.position, ad.position), eq(ads.title, ad.title)));
    if (found) {
      const outcome = await redrawCover(ctx, found.imageKey, { kind: 'ad', slug, title: ad.title }, (key) =>
        db.update(ads).set({ imageKey: key }).where(eq(ads.id, found.id)),
      );
      if (outcome === 'redrawn') ctx.redrawn?.();
      continue;
    }
    const imageKey = await ensureCover(db, storage, { kind: 'ad', slug, title: ad.title });
    await db.insert(ads).values({
      position: ad.position,
      title: ad.title,
      imageKey,
      linkUrl: ad.linkUrl ?? null,
      sort: site.ads.length - index,
    });
    added++;
    await yieldNow();
  }

  for (const template of site.contributeTemplates) {
    const [found] = await db
      .select({ id: contributeTemplates.id })
      .from(contributeTemplates)
      .where(and(eq(contributeTemplates.type, template.type), eq(contributeTemplates.title, template.title)));
    if (found) continue;
    await db.insert(contributeTemplates).values({
      type: template.type,
      title: template.title,
      contentHtml: renderMarkdown(template.content),
    });
    added++;
  }
  return added;
}
