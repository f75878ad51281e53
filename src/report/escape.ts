/*
 * Making text that came from data (scenario, group and metric names, instance ids, policy and
 * trade-off names, file names, and reasons quoting them) inert where it is shown. Data can hold
 * anything a model, another tool or a fork's report wrote: markup, line ends, workflow commands,
 * mentions that notify people, links, references to other issues, and invisible characters that hide
 * or reorder text. One function per output format; docs/architecture.md#escaping lists what each does.
 */

/** Longest piece of data shown in a report; longer is cut, so one value cannot push the rest out of a comment. */
const MAX_SHOWN = 400;

/**
 * Characters that do not show as themselves: controls and line ends (Cc, Zl, Zp), format characters
 * (Cf: bidi overrides and isolates, zero-width ones, U+061C, U+00AD, U+2061-2064, tag characters), lone
 * surrogates, the default-ignorable ones (Hangul fillers, U+034F, variation selectors past the two
 * that choose emoji or text presentation), and the blank braille pattern.
 */
const INVISIBLE = /(?![\uFE0E\uFE0F])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/gu;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One invisible character as an escape that shows it: \n, \u001b, \u061c, \u{e0041}. */
function escapeOf(character: string): string {
  const code = character.codePointAt(0)!;
  // Stryker disable next-line EqualityOperator: U+FFFF (a noncharacter) is not in INVISIBLE, so never escaped here.
  return SHORT_ESCAPES[character] ?? (code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/** Every invisible character shown as its escape. */
function visible(text: string): string {
  return text.replace(INVISIBLE, escapeOf);
}

/** At most MAX_SHOWN characters, never ending inside a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_SHOWN) return text;
  let end = MAX_SHOWN - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/*
 * GitHub turns some plain text into links: the autolinks of GitHub Flavored Markdown (www., http://,
 * e-mail addresses), decided on the markdown source, and then, on the rendered HTML's text, @mentions
 * (which notify), #1, owner/repo#2, GH-3 and user@sha references. A <wbr> element inside the trigger
 * stops all of them and shows the same text: the source no longer holds "www." or "://" (no autolink),
 * and the rendered text is split into two text nodes, neither of which matches a mention or a
 * reference. <wbr> (a line-break opportunity, nothing visible) is on the list of HTML elements GitHub
 * keeps. The break is first marked with a NUL (`visible` has already made any NUL of the data an
 * escape, so every NUL left is ours) and becomes <wbr> after the format's own escaping.
 */
const BREAK = '\u0000';

function markLinkBreaks(text: string): string {
  return text
    .replace(/(www)\./gi, `$1${BREAK}.`)
    .replace(/:(?=\/\/)/g, `:${BREAK}`)
    .replace(/@/g, `@${BREAK}`)
    .replace(/#(?=\d)/g, `#${BREAK}`)
    .replace(/(gh)-(?=\d)/gi, `$1-${BREAK}`);
}

function breakLinks(text: string): string {
  return text.replaceAll(BREAK, '<wbr>');
}

/** For markdown text and table cells: invisible characters shown, markdown and HTML punctuation backslash-escaped, links broken. */
export function escapeMarkdown(text: string): string {
  return breakLinks(markLinkBreaks(visible(cut(text))).replace(/[\\`*_{}[\]<>#!|~&$]/g, (character) => `\\${character}`));
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For text inside an HTML block (a <summary>), where backslash escapes do not apply: entities, links broken. */
export function escapeHtml(text: string): string {
  return breakLinks(markLinkBreaks(visible(cut(text))).replace(/[&<>"']/g, (character) => ENTITIES[character]));
}

/** A code span: no backtick or line end can close it early; GitHub links nothing inside one. */
export function codeSpan(text: string): string {
  return `\`${visible(cut(text)).replace(/`/g, "'")}\``;
}

/**
 * For a terminal, a CI log or an annotation: invisible characters shown as escapes (so data can neither
 * move the cursor nor start a line), and no workflow command: the runner reads "::name::" at the start of
 * a line (after spaces) and "##[name]" anywhere in it, so a leading colon and the "[" of "##[" are escaped.
 */
export function escapeTerminal(text: string): string {
  return visible(text)
    .replace(/^(\s*):/, '$1\\u003a')
    .replace(/##\[/g, '##\\u005b');
}

/**
 * A label inside a mermaid block: one line, cut like other data, no quote or backtick to end it, no
 * "%%" to start a directive (%%{init: ...}%%) or a comment, no "#name;" entity code, and never empty
 * (mermaid refuses "" where a label goes: a chart GitHub would not draw).
 */
export function mermaidLabel(text: string): string {
  const label = visible(cut(text))
    .replace(/["`]/g, ' ')
    .replace(/%(?=%)/g, '% ')
    .replace(/#(?=\w+;)/g, '# ');
  return `"${label || ' '}"`;
}

/**
 * A label handed to a library that writes it out escaped for its own format (vega's SVG text): one
 * line, invisible characters shown, cut like other data. The library's escaping does the rest (tested).
 */
export function plainLabel(text: string): string {
  return visible(cut(text));
}
