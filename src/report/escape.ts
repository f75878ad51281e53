/*
 * Making text that came from data (scenario, group and metric names, instance ids, file names, and
 * reasons quoting them) inert where it is shown. Data can hold anything a model or another tool
 * wrote: markup, line ends that start a workflow command, mentions that notify people, links.
 */

/** Longest piece of data shown; longer is cut, so one value cannot push the report out of a comment. */
const MAX_SHOWN = 400;
/** Control characters, line and paragraph separators, and the invisible marks that reorder or hide text (bidi overrides, zero-width). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
/** U+2060 WORD JOINER: invisible, and enough to stop GitHub reading a mention or an autolink. */
const JOINER = '\u2060';

function cut(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** No line ends or control characters; @mentions and bare links broken. */
function defuse(text: string): string {
  return cut(text)
    .replace(CONTROL, ' ')
    .replace(/@/g, `@${JOINER}`)
    .replace(/:\/\//g, `:${JOINER}//`)
    .replace(/\b(www)\./gi, `$1${JOINER}.`);
}

/** For markdown text and table cells: markdown and HTML punctuation backslash-escaped. */
export function escapeMarkdown(text: string): string {
  return defuse(text).replace(/[\\`*_{}[\]<>#!|~&$]/g, (character) => `\\${character}`);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For text inside an HTML block (a <summary>), where backslash escapes do not apply. */
export function escapeHtml(text: string): string {
  return defuse(text).replace(/[&<>"']/g, (character) => ENTITIES[character]);
}

/** A code span: no backtick or line end can close it early. */
export function codeSpan(text: string): string {
  return `\`${cut(text).replace(CONTROL, ' ').replace(/`/g, "'")}\``;
}

/** For a terminal or a CI log: control characters shown as escapes (\n, \u001b), so data cannot start a workflow command or move the cursor. */
export function escapeTerminal(text: string): string {
  return text.replace(CONTROL, (character) => {
    const escaped = JSON.stringify(character).slice(1, -1);
    // JSON leaves the invisible marks as they are (bidi overrides, zero-width spaces): show their code.
    return escaped !== character ? escaped : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A label inside a mermaid block: one line, no quote or backtick to end it, and cut like other data. */
export function mermaidLabel(text: string): string {
  return `"${cut(text)
    .replace(CONTROL, ' ')
    .replace(/["\\`]/g, ' ')}"`;
}
