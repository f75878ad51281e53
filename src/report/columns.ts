/*
 * Text laid out for a terminal of a given width (the reports fit 100 columns): long lines wrapped at
 * spaces with a hanging indent, and tables whose widest columns wrap their cells onto more lines until
 * the table fits. Widths are measured without ANSI colour codes.
 */

/** The width terminal reports are laid out for. */
export const TERMINAL_WIDTH = 100;

const ANSI = /\u001b\[\d+m/g;

/** The visible length of a text: without colour codes. */
export const visibleLength = (text: string): number => text.replace(ANSI, '').length;

/** Pieces of at most `width` visible characters, broken at spaces where possible (a longer word is cut). */
function breakText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (visibleLength(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (visibleLength(line) > width) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  lines.push(line);
  return lines.map((piece, index) => (index > 0 ? escapeColon(piece) : piece));
}

/** A line that starts with a colon (after spaces) is a workflow command to the Actions runner: a piece wrapped onto a line of its own has its colon escaped, as escapeTerminal escapes the data's first one. */
const escapeColon = (piece: string) => piece.replace(/^(\s*):/, '$1\\u003a');

/** A line wrapped to `width`: the pieces after the first indented past the line's own indent. */
export function wrapLine(line: string, width = TERMINAL_WIDTH, hanging = 4): string[] {
  if (visibleLength(line) <= width) return [line];
  const indent = /^ */.exec(line)![0].length;
  const text = line.slice(indent);
  const [first] = breakText(text, width - indent);
  const pad = ' '.repeat(indent);
  const continued = breakText(text.slice(first.length).replace(/^ /, ''), width - indent - hanging).map(escapeColon);
  return [`${pad}${first}`, ...continued.map((piece) => `${pad}${' '.repeat(hanging)}${piece}`)];
}

/** Every line of a text wrapped to `width`. */
export function wrapText(text: string, width = TERMINAL_WIDTH): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}

/** The longest word of a cell (at most 24 characters): a column is not narrowed below it unless it must. */
const longestWord = (cell: string) => Math.min(24, Math.max(...cell.split(' ').map(visibleLength)));

/**
 * A table of plain cells in at most `width` columns: two spaces between columns, a rule under the
 * header; the widest column gives up a character at a time (not below its longest word while another
 * can give, nor below 6) and its cells wrap. `decorate` colours a cell's lines after they are padded.
 */
export function columnsTable(
  header: string[],
  rows: string[][],
  { width = TERMINAL_WIDTH, indent = 2, decorate = (_row: number, _column: number, text: string) => text } = {},
): string[] {
  const all = [header, ...rows];
  // A header wraps to its column's cells rather than widen it.
  const widths = header.map((name, column) => Math.max(longestWord(name), ...rows.map((row) => visibleLength(row[column]))));
  const floors = header.map((_, column) => Math.max(...all.map((row) => longestWord(row[column]))));
  const total = () => indent + widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    const soft = widths.map((w, column) => (w > floors[column] ? w : 0));
    const pool = Math.max(...soft) > 0 ? soft : widths.map((w) => (w > 6 ? w : 0));
    const widest = pool.indexOf(Math.max(...pool));
    if (pool[widest] === 0) break;
    widths[widest]--;
  }
  const lines: string[] = [];
  all.forEach((row, index) => {
    const cells = row.map((cell, column) => breakText(cell, widths[column]));
    const height = Math.max(...cells.map((cell) => cell.length));
    for (let line = 0; line < height; line++) {
      const parts = cells.map((cell, column) => {
        const text = cell[line] ?? '';
        const padded = text + ' '.repeat(widths[column] - visibleLength(text));
        return index === 0 ? padded : decorate(index - 1, column, padded);
      });
      lines.push(`${' '.repeat(indent)}${parts.join('  ')}`.trimEnd());
    }
    if (index === 0) lines.push(`${' '.repeat(indent)}${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  });
  return lines;
}
