import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineSplitter, LineTooLongError, type LineOptions } from '../src/lines.js';
import { recordsAtLines } from '../src/runs/lines.js';
import { loadRun } from '../src/runs/load.js';
import { tempDir } from './helpers/records.js';

/* The one line reader of every JSON Lines input: line ends, the byte order mark, the bound, lines picked by number. */

/** The lines of `text` cut into chunks of `size` bytes, as [line number, text]. */
function split(text: string, size: number, options?: LineOptions): Array<[number, string]> {
  const bytes = Buffer.from(text);
  const lines: Array<[number, string]> = [];
  const splitter = new LineSplitter(options);
  const onLine = (line: string, number: number) => lines.push([number, line]);
  for (let start = 0; start < bytes.length; start += size) splitter.push(bytes.subarray(start, start + size), onLine);
  splitter.end(onLine);
  return lines;
}

describe('the line reader', () => {
  const text = '\ufeff{"a": "é"}\r\n\r\nplain\n€ at the end\r';
  const expected: Array<[number, string]> = [
    [1, '{"a": "é"}'],
    [2, ''],
    [3, 'plain'],
    [4, '€ at the end'],
  ];

  it('reads "\\n" and "\\r\\n" ends and drops the byte order mark, however the bytes are cut (inside a character, between "\\r" and "\\n")', () => {
    for (let size = 1; size <= Buffer.byteLength(text); size++) expect([size, split(text, size)]).toEqual([size, expected]);
  });

  it('cuts the lines of chunks of ASCII bytes only (decoded whole) as those of any other chunk', () => {
    const ascii = '{"a": 1}\r\n\r\nplain\nlast\r';
    const lines: Array<[number, string]> = [
      [1, '{"a": 1}'],
      [2, ''],
      [3, 'plain'],
      [4, 'last'],
    ];
    for (let size = 1; size <= ascii.length; size++) expect([size, split(ascii, size)]).toEqual([size, lines]);
    expect(split(`${ascii}\né\n`, 64)).toEqual([...lines, [5, 'é']]);
  });

  it('drops a byte order mark only before the first line', () => {
    expect(split('a\n\ufeffb\n', 3)).toEqual([
      [1, 'a'],
      [2, '\ufeffb'],
    ]);
  });

  it('decodes only the lines wanted, with their numbers', () => {
    for (let size = 1; size <= Buffer.byteLength(text); size++) {
      expect(split(text, size, { wanted: (line) => line === 1 || line === 4 })).toEqual([expected[0], expected[3]]);
    }
  });

  it('refuses a line over the bound at its number as it grows, whether wanted or not', () => {
    const long = `short\n${'x'.repeat(40)}\nshort\n`;
    for (const wanted of [undefined, (line: number) => line !== 2]) {
      for (const size of [1, 7, 64]) {
        const error = (() => {
          try {
            split(long, size, { maxLineBytes: 39, wanted });
          } catch (caught) {
            return caught;
          }
        })();
        expect(error).toBeInstanceOf(LineTooLongError);
        expect((error as LineTooLongError).line).toBe(2);
      }
    }
    expect(split(long, 5, { maxLineBytes: 40 })).toHaveLength(3);
  });
});

describe('every JSON Lines input reads through it', () => {
  const records = [
    { scenario: 's', id: '1', correct: 1, prediction: 'refund' },
    { scenario: 's', id: '2', correct: 0, prediction: 'deny' },
  ];

  it('a records file read again by line numbers, and a metrics file told from records by its first line', async () => {
    const dir = tempDir();
    const recordsFile = join(dir, 'records.jsonl');
    writeFileSync(recordsFile, `\ufeff${records.map((record) => JSON.stringify(record)).join('\r\n')}\r\n`);
    const again = await recordsAtLines(recordsFile, [1, 2]);
    expect([...again.entries()]).toEqual([
      [1, records[0]],
      [2, records[1]],
    ]);
    const metricsFile = join(dir, 'metrics.json');
    writeFileSync(metricsFile, `\ufeff${JSON.stringify({ overall: { accuracy: { value: 0.5, ci: null, n: 2 } }, scenarios: {} })}\r\n`);
    expect(await loadRun(metricsFile)).toMatchObject({ kind: 'metrics', report: { overall: { accuracy: { value: 0.5 } } } });
    expect(await loadRun(recordsFile)).toMatchObject({ kind: 'records', table: { size: 2 } });
  });
});
