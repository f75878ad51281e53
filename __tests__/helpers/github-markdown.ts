import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/*
 * What GitHub makes of a comment, as far as it can be checked here: the markdown rendered by a GitHub
 * Flavored Markdown parser that follows the spec (its autolinks included), raw HTML passed through as
 * GitHub passes the elements it allows, then the text filters GitHub runs on the rendered HTML's text
 * (mentions and references), each of which reads one text node at a time.
 */

/** The comment as HTML, raw HTML kept (GitHub keeps <details>, <summary>, <wbr>, and drops what it does not allow). */
export function renderGfm(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
}

/** Every href of a link in the HTML. */
export function linksIn(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((match) => match[1]);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/**
 * The text nodes of the HTML, entities decoded: what GitHub's text filters read, one at a time. Code
 * blocks (<pre>: the mermaid charts) are skipped: GitHub neither autolinks nor references inside them.
 */
export function textNodes(html: string): string[] {
  return html
    .replace(/<pre>[\s\S]*?<\/pre>/g, '')
    .split(/<[^>]*>/)
    .map((text) =>
      text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) =>
        name.startsWith('#x') || name.startsWith('#X')
          ? String.fromCodePoint(parseInt(name.slice(2), 16))
          : name.startsWith('#')
            ? String.fromCodePoint(Number(name.slice(1)))
            : (ENTITIES[name] ?? entity),
      ),
    )
    .filter((text) => text !== '');
}

/**
 * What GitHub links or notifies in a text node, written wider than GitHub's own patterns so that
 * finding none is conclusive: anything a linkifier could take for a URL or an e-mail address, and the
 * @mentions and references (#1, owner/repo#2, GH-3) that GitHub reads after rendering.
 */
export const URL_TEXT: Array<[string, RegExp]> = [
  ['www. link', /www\./i],
  ['URL', /:\/\//],
  ['e-mail address', /[\w.+-]@[\w-]+\.\w/],
];
export const REFERENCE_TEXT: Array<[string, RegExp]> = [
  ['mention', /@[a-z0-9]/i],
  ['issue reference', /#\d/],
  ['GH- reference', /gh-\d/i],
];

/** The text nodes one of `filters` matches, with the filter's name. */
export function textMatching(html: string, filters: Array<[string, RegExp]>): string[] {
  return textNodes(html).flatMap((text) =>
    filters.filter(([, pattern]) => pattern.test(text)).map(([name]) => `${name} in ${JSON.stringify(text)}`),
  );
}

/**
 * A page that lays a comment out as GitHub's pull-request timeline does at 1280 px: the rendered markdown
 * in a column about 890 px wide, with the rules of GitHub's markdown stylesheet that decide widths (a
 * table is a block of its content's width, at most the column's, that scrolls when wider; cells padded
 * 6 px 13 px; the system font at 14 px). The mermaid blocks stay code blocks: the test draws them.
 */
export function commentPage(markdown: string): string {
  const style = `
body { margin: 0; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.markdown-body { box-sizing: border-box; width: 890px; margin: 0 auto; padding: 16px; word-wrap: break-word; }
.markdown-body table { display: block; width: max-content; max-width: 100%; overflow: auto; border-spacing: 0; border-collapse: collapse; }
.markdown-body td, .markdown-body th { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body pre { overflow: auto; padding: 16px; background: #f6f8fa; }
.markdown-body svg { max-width: 100%; height: auto; }`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body><div class="markdown-body">${renderGfm(markdown)}</div></body></html>`;
}
