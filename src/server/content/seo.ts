import { env } from '../env.ts';

/** An absolute address on this site for a path such as '/news/3'. */
export function absoluteUrl(path: string): string {
  return new URL(path, env().SITE_URL).href;
}

/** Escapes text for XML element content and attributes. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A crumb of a breadcrumb trail: a label, and an address unless it is the current page. */
export interface Crumb {
  label: string;
  href?: string | undefined;
}

/** schema.org BreadcrumbList for a trail that starts after the home page. */
export function breadcrumbJsonLd(crumbs: Crumb[], currentPath: string): Record<string, unknown> {
  const items = [{ label: '首页', href: '/' }, ...crumbs];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.label,
      item: absoluteUrl(crumb.href ?? currentPath),
    })),
  };
}

/** What an article's structured data says about it. */
export interface ArticleMeta {
  title: string;
  summary: string;
  path: string;
  cover: string | null;
  author: string | null;
  publishedAt: string | null;
  updatedAt?: string | null | undefined;
}

/** schema.org Article for a news, consulting or encyclopedia page. */
export function articleJsonLd(article: ArticleMeta): Record<string, unknown> {
  const config = env();
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: article.title,
    description: article.summary,
    mainEntityOfPage: absoluteUrl(article.path),
    ...(article.cover ? { image: [absoluteUrl(article.cover)] } : {}),
    ...(article.publishedAt ? { datePublished: article.publishedAt } : {}),
    ...(article.updatedAt || article.publishedAt ? { dateModified: article.updatedAt ?? article.publishedAt } : {}),
    author: { '@type': article.author ? 'Person' : 'Organization', name: article.author ?? config.SITE_TITLE },
    publisher: { '@type': 'Organization', name: config.SITE_TITLE, logo: absoluteUrl('/icons/icon-512.png') },
    inLanguage: 'zh-CN',
  };
}

/**
 * Serialises structured data for a <script type="application/ld+json"> element; '<' is escaped so
 * that text from content can never close the element.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
