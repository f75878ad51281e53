import { describe, expect, it } from '@jest/globals';
import { columnsTable, visibleLength, wrapLine } from '../src/report/columns.js';
import { evalgate } from './helpers/evalgate.js';

/*
 * The terminal reports' layout in 100 columns: lines wrapped at spaces with a hanging indent, tables
 * whose widest columns wrap, and no wrapped piece that the Actions runner would read as a workflow command.
 */

describe('wrapLine', () => {
  it('wraps at spaces within the width, the pieces after the first indented, and loses no word', () => {
    const line = `  ${Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ')}`;
    const lines = wrapLine(line, 50);
    expect(lines.length).toBeGreaterThan(5);
    for (const piece of lines) expect(piece.length).toBeLessThanOrEqual(50);
    expect(lines.slice(1).every((piece) => piece.startsWith('      word'))).toBe(true);
    expect(lines.map((piece) => piece.trim()).join(' ')).toBe(line.trim());
  });

  it('cuts a word longer than the line, and leaves a short line as it is', () => {
    const lines = wrapLine(`x ${'y'.repeat(120)}`, 50);
    for (const piece of lines) expect(piece.length).toBeLessThanOrEqual(50);
    expect(lines.map((piece) => piece.trim()).join('')).toBe(`x${'y'.repeat(120)}`);
    expect(wrapLine('short', 50)).toEqual(['short']);
  });

  it('never starts a line with a colon (a workflow command to the runner): a wrapped piece has it escaped', () => {
    // The break falls right before "::error::forged" (data, escaped only where it started).
    const line = `${'a'.repeat(45)} ::error::forged and more words after it`;
    const lines = wrapLine(line, 50);
    expect(lines[1]).toBe('    \\u003a:error::forged and more words after it');
    for (const piece of lines) expect(piece.trimStart()).not.toMatch(/^:/);
  });

  it('measures without colour codes', () => {
    const red = `\u001b[31m${'r'.repeat(40)}\u001b[0m`;
    expect(wrapLine(`${red} tail`, 50)).toEqual([`${red} tail`]);
    expect(visibleLength(red)).toBe(40);
  });
});

describe('columnsTable', () => {
  const header = ['status', 'check (scope)', 'candidate (95% CI)', 'change vs baseline (95% CI)', 'limit'];
  const rows = [
    [
      'inconclusive',
      'worst_group_accuracy:dialect (overall)',
      '12.6% [7.75, 15.8] †',
      '+8.11 pts [+3.05, +11.3]',
      '≤ 8% (lenient), worse by ≤ 1 pt',
    ],
    ['pass', 'latency_p95_ms (overall)', '489 ms [469, 515]', '-182 ms [-211, -168]', 'worse by ≤ 50% (336 ms)'],
  ];

  it('fits the width by wrapping the widest columns, every cell whole across its lines', () => {
    const lines = columnsTable(header, rows, { width: 100 });
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    const natural = columnsTable(header, rows, { width: 1000 });
    expect(natural[0].length).toBeGreaterThan(100); // it did have to wrap
    // Words of at most 24 characters stay whole; a longer one is cut within its column.
    const text = lines.join(' ').replace(/\s+/g, ' ');
    for (const word of rows.flat().join(' ').split(' ')) {
      if (word.length <= 24) expect(text).toContain(word);
    }
    expect(text).toContain('worst_group_accuracy:dia');
  });

  it('colours a cell after padding it, so that colour does not shift the columns', () => {
    const paint = (_row: number, column: number, text: string) => (column === 0 ? `\u001b[31m${text}\u001b[0m` : text);
    const plain = columnsTable(header, rows, { width: 100 });
    const painted = columnsTable(header, rows, { width: 100, decorate: paint });
    expect(painted.map((line) => line.replace(/\u001b\[\d+m/g, ''))).toEqual(plain);
  });
});

describe("the demo's gates in a terminal", () => {
  it.each([
    ['customer-support', 'candidate-a'],
    ['customer-support', 'candidate-b'],
    ['realtime-chat', 'candidate-a'],
    ['realtime-chat', 'candidate-b'],
  ])('%s on %s fits 100 columns, with --verbose too, and says every failing check', async (policy, candidate) => {
    const args = ['gate', '--policy', `policies/${policy}.yml`, '--candidate', `examples/billing/${candidate}.jsonl`];
    const files = [...args, '--baseline', 'examples/billing/baseline.jsonl'];
    const [plain, verbose] = await Promise.all([evalgate(files), evalgate([...files, '--verbose'])]);
    for (const { stdout, stderr } of [plain, verbose]) {
      expect(stderr).toBe('');
      const widths = stdout.split('\n').map((line) => [...line].length);
      expect(Math.max(...widths)).toBeLessThanOrEqual(100);
    }
    expect(verbose.stdout.length).toBeGreaterThan(plain.stdout.length);
    expect(verbose.stdout).toContain("Each check's tests, power and counts:");
    expect(plain.stdout).not.toContain("Each check's tests, power and counts:");
    const failing = plain.stdout.match(/^ {2}fail {2}\S+ \(\S+\) blocks: /gm) ?? [];
    const [, count] = /\((\d+) blocking checks? failed/.exec(plain.stdout) ?? [undefined, '0'];
    expect(failing.length).toBe(Number(count) - (/^ {2}fail {2}coverage/m.test(plain.stdout) ? 1 : 0));
  });
});
