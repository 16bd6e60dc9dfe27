import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

// Reader-facing HTML comes from Markdown files and from editors; both pass this allowlist on the way
// in (before it is stored) and again on the way out (before a page shows it), so a row written by
// some other tool cannot smuggle markup in either.
const ALLOWED_TAGS = [
  'p',
  'br',
  'h2',
  'h3',
  'h4',
  'h5',
  'blockquote',
  'ul',
  'ol',
  'li',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'del',
  'sup',
  'sub',
  'mark',
  'code',
  'pre',
  'a',
  'img',
  'figure',
  'figcaption',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    th: ['colspan', 'rowspan', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Their text is dropped along with the tag (an inline SVG's <title>, a script's source).
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'svg', 'math', 'template', 'iframe', 'object'],
  disallowedTagsMode: 'discard',
  // An image whose address was refused (data:, javascript:) would be an empty box.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs['src'],
  transformTags: {
    // The page already has the title as its only h1.
    h1: 'h2',
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs['href'] ?? '');
      const next: Record<string, string> = { ...attribs, rel: external ? 'noopener noreferrer' : 'noopener' };
      if (external) next['target'] = '_blank';
      else delete next['target'];
      return { tagName, attribs: next };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy', decoding: 'async' } }),
  },
};

/** Reduces HTML to the tags and attributes an article may hold: no scripts, styles, SVG, MathML or event handlers. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

const markdown = new Marked({ gfm: true, breaks: false, async: false });

/** Renders Markdown to HTML that is safe to show: GitHub-flavoured Markdown, then the allowlist. */
export function renderMarkdown(source: string): string {
  return sanitizeArticleHtml(markdown.parse(source, { async: false }));
}

/** The plain text of a piece of HTML, with whitespace collapsed (for search and descriptions). */
export function htmlToText(html: string): string {
  const text = sanitizeHtml(html.replace(/<\/(p|h\d|li|blockquote|pre|tr|figcaption)>/gi, '$&\n'), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'svg', 'math', 'template'],
  });
  return decodeEntities(text)
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/** Escapes text for use inside HTML element content or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
