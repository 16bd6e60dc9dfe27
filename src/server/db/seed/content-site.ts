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
 * ad by position and title, template by type and title); the keys are unique in the database, so
 * nodes seeding at once add each row once. Promotions and ads get a cover drawn in a library font
 * (a kept one is drawn again when what it is drawn from changed, unless `redraw` is false): with
 * `canDraw` answering false for their kind, they wait for a later run. Answers how many rows were
 * added and how many wait.
 */
export async function seedSiteTables(
  ctx: SeedItemContext,
  site: SiteData,
  yieldNow: () => Promise<void>,
  { canDraw = () => true, redraw = true }: { canDraw?: (kind: 'promotion' | 'ad') => boolean; redraw?: boolean } = {},
): Promise<{ added: number; waiting: number }> {
  const { db, storage } = ctx;
  let added = 0;
  let waiting = 0;
  const count = (rows: unknown[]) => {
    added += rows.length;
  };

  if (site.friendLinks.length > 0)
    count(
      await db.insert(friendLinks).values(site.friendLinks).onConflictDoNothing().returning({ id: friendLinks.id }),
    );
  if (site.keywords.length > 0)
    count(await db.insert(keywords).values(site.keywords).onConflictDoNothing().returning({ id: keywords.id }));
  if (site.columns.length > 0)
    count(await db.insert(columns).values(site.columns).onConflictDoNothing().returning({ id: columns.id }));
  if (site.contributeTemplates.length > 0)
    count(
      await db
        .insert(contributeTemplates)
        .values(
          site.contributeTemplates.map((template) => ({
            type: template.type,
            title: template.title,
            contentHtml: renderMarkdown(template.content),
          })),
        )
        .onConflictDoNothing()
        .returning({ id: contributeTemplates.id }),
    );

  for (const [index, promotion] of site.promotions.entries()) {
    const slug = textSlug('promotion', promotion.title);
    const [found] = await db
      .select({ id: promotions.id, coverKey: promotions.coverKey })
      .from(promotions)
      .where(eq(promotions.title, promotion.title));
    if (!canDraw('promotion')) {
      // A kept one keeps its cover until its fonts are there.
      if (!found) waiting++;
      continue;
    }
    if (found && !redraw) continue;
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
    count(
      await db
        .insert(promotions)
        .values({
          title: promotion.title,
          summary: promotion.summary,
          bodyHtml: renderMarkdown(promotion.body),
          coverKey,
          linkUrl: promotion.linkUrl ?? null,
          startsAt: promotion.startsAt ?? null,
          endsAt: promotion.endsAt ?? null,
          status: 'published',
          sort: site.promotions.length - index,
        })
        .onConflictDoNothing()
        .returning({ id: promotions.id }),
    );
    await yieldNow();
  }

  for (const [index, ad] of site.ads.entries()) {
    const slug = textSlug(ad.position, ad.title);
    const [found] = await db
      .select({ id: ads.id, imageKey: ads.imageKey })
      .from(ads)
      .where(and(eq(ads.position, ad.position), eq(ads.title, ad.title)));
    if (!canDraw('ad')) {
      if (!found) waiting++;
      continue;
    }
    if (found && !redraw) continue;
    if (found) {
      const outcome = await redrawCover(ctx, found.imageKey, { kind: 'ad', slug, title: ad.title }, (key) =>
        db.update(ads).set({ imageKey: key }).where(eq(ads.id, found.id)),
      );
      if (outcome === 'redrawn') ctx.redrawn?.();
      continue;
    }
    const imageKey = await ensureCover(db, storage, { kind: 'ad', slug, title: ad.title });
    count(
      await db
        .insert(ads)
        .values({
          position: ad.position,
          title: ad.title,
          imageKey,
          linkUrl: ad.linkUrl ?? null,
          sort: site.ads.length - index,
        })
        .onConflictDoNothing()
        .returning({ id: ads.id }),
    );
    await yieldNow();
  }
  return { added, waiting };
}
