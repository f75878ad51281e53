import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../src/errors.js';
import { describeKey, exampleKey, exampleOf, parseKey } from '../src/records/key.js';
import { readRecords } from '../src/records/read.js';
import { recordProblem } from '../src/records/validate.js';
import { tempDir, writeLines } from './helpers/records.js';

describe('reading records', () => {
  it('reads every line in order, keeping unknown fields', async () => {
    const path = writeLines('records.jsonl', [
      { scenario: 'a', id: '1', correct: 1, extra: { kept: true } },
      { scenario: 'a', id: '1', perturbation: { name: 'typos', kind: 'robustness' }, correct: 0.5 },
      { scenario: 'b', id: '2', error: 'timeout' },
    ]);
    const records = await readRecords(path);
    expect(records.map((r) => [r.scenario, r.id, r.correct, r.error])).toEqual([
      ['a', '1', 1, undefined],
      ['a', '1', 0.5, undefined],
      ['b', '2', undefined, 'timeout'],
    ]);
    expect(records[0].extra).toEqual({ kept: true });
  });

  it('names the file, line and field of a bad value', async () => {
    const lines: object[] = Array.from({ length: 213 }, (_, i) => ({ scenario: 's', id: String(i), correct: 1 }));
    lines.push({ scenario: 's', id: 'x', correct: 1, confidence: 1.3 });
    const path = writeLines('records.jsonl', lines);
    await expect(readRecords(path)).rejects.toThrow(`${path}:214: "confidence" must be a number in [0, 1], got 1.3`);
  });

  it('reports invalid JSON with its line number', async () => {
    const path = writeLines('bad.jsonl', [{ scenario: 's', id: '1', correct: 1 }, '{"scenario": "s", "id": ']);
    const error = await readRecords(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(2);
    expect((error as Error).message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2: not valid JSON`));
  });

  it('refuses an empty file and a missing file', async () => {
    const empty = join(tempDir(), 'empty.jsonl');
    writeFileSync(empty, '\n  \n');
    await expect(readRecords(empty)).rejects.toThrow(`${empty}: no records: the file is empty`);
    await expect(readRecords(join(tempDir(), 'missing.jsonl'))).rejects.toThrow('missing.jsonl: no such file');
  });

  it('accepts CRLF line endings, a byte order mark, blank lines and no final newline', async () => {
    const path = join(tempDir(), 'crlf.jsonl');
    writeFileSync(path, '\uFEFF{"scenario":"s","id":"1","correct":1}\r\n\r\n{"scenario":"s","id":"2","correct":0}');
    const records = await readRecords(path);
    expect(records.map((r) => r.id)).toEqual(['1', '2']);
  });

  it('counts lines across read chunks', async () => {
    // Long lines make the file span several 1 MiB chunks; the bad line is the last.
    const padding = 'x'.repeat(5000);
    const lines: object[] = Array.from({ length: 600 }, (_, i) => ({ scenario: 's', id: String(i), correct: 1, input: padding }));
    lines.push({ scenario: 's', id: 'bad', correct: 2 });
    const path = writeLines('long.jsonl', lines);
    await expect(readRecords(path)).rejects.toThrow(`${path}:601: "correct" must be a number in [0, 1], got 2`);
  });
});

describe('reading lines', () => {
  it('keeps characters of several bytes whole across read chunks', async () => {
    // 2-, 3- and 4-byte characters; a first line padded so that the first 1 MiB chunk ends inside one.
    const text = 'é€😀'.repeat(1111);
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ scenario: 's', id: String(i), correct: 1, input: text.slice(i % 3) }),
    );
    const withPadding = (pad: number) =>
      [JSON.stringify({ scenario: 's', id: 'pad', correct: 1, input: 'x'.repeat(pad) }), ...lines].join('\n');
    const insideCharacter = (pad: number) => (Buffer.from(withPadding(pad))[1 << 20] & 0xc0) === 0x80;
    const pad = [0, 1, 2, 3, 4, 5, 6, 7, 8].find(insideCharacter)!;
    expect(insideCharacter(pad)).toBe(true);
    const records = await readRecords(writeLines('multibyte.jsonl', [withPadding(pad)]));
    expect(records).toHaveLength(301);
    expect(records.slice(1).every((r, i) => r.input === text.slice(i % 3))).toBe(true);
  });
});

describe('the record contract', () => {
  const valid = { scenario: 's', id: '1', correct: 1 };
  it.each([
    [{ id: '1', correct: 1 }, '"scenario" is required and must be a non-empty string, got undefined'],
    [{ scenario: 's', id: 7, correct: 1 }, '"id" is required and must be a non-empty string, got 7'],
    [{ scenario: 's', id: '1' }, '"correct" is required (a number in [0, 1]) unless "error" is set'],
    [{ ...valid, correct: -0.1 }, '"correct" must be a number in [0, 1], got -0.1'],
    [{ ...valid, correct: '1' }, '"correct" must be a number in [0, 1], got "1"'],
    [
      { scenario: 's', id: '1', error: 'boom', correct: 0 },
      '"correct" must be absent when "error" is set (a failed call has no score), got 0',
    ],
    [{ ...valid, perturbation: { name: 'typos', kind: 'style' } }, '"perturbation.kind" must be "robustness" or "fairness", got "style"'],
    [{ ...valid, perturbation: { kind: 'fairness' } }, '"perturbation.name" must be a non-empty string, got undefined'],
    [{ ...valid, toxicity: 2 }, '"toxicity" must be a number in [0, 1], got 2'],
    [{ ...valid, latency_ms: -5 }, '"latency_ms" must be a non-negative number, got -5'],
    [{ ...valid, cost_usd: 'free' }, '"cost_usd" must be a non-negative number, got "free"'],
    [{ ...valid, groups: ['a'] }, '"groups" must be an object of attribute -> value, got ["a"]'],
    [{ ...valid, groups: { dialect: { x: 1 } } }, '"groups.dialect" must be a string, number or boolean, got {"x":1}'],
    [{ ...valid, references: [1] }, '"references" must be a string or an array of strings, got [1]'],
    [{ ...valid, sample: -1 }, '"sample" must be an integer >= 0 (which repeated generation of the example, 0-based), got -1'],
    [{ ...valid, sample: 1.5 }, '"sample" must be an integer >= 0 (which repeated generation of the example, 0-based), got 1.5'],
    [{ ...valid, sample: '2' }, '"sample" must be an integer >= 0 (which repeated generation of the example, 0-based), got "2"'],
    [[1, 2], 'a record must be a JSON object, got [1,2]'],
  ])('rejects %j', (value, message) => {
    expect(recordProblem(value)).toBe(message);
  });

  it('accepts every optional field, and null as absent', () => {
    expect(
      recordProblem({
        ...valid,
        perturbation: { name: 'dialect', kind: 'fairness' },
        sample: 3,
        confidence: 0,
        groups: { dialect: 'aae', age: 30, member: true },
        latency_ms: 0,
        input_tokens: 10,
        output_tokens: 3,
        cost_usd: 0.001,
        toxicity: 1,
        input: [{ role: 'user', content: 'hi' }],
        prediction: 'yes',
        references: ['yes'],
      }),
    ).toBeUndefined();
    expect(recordProblem({ ...valid, confidence: null, perturbation: null, error: null, sample: null })).toBeUndefined();
    expect(recordProblem({ ...valid, sample: 0 })).toBeUndefined();
  });
});

describe('example keys', () => {
  it('carry the sample, and leave the keys of sample 0 as they were', () => {
    const typos = { name: 'typos', kind: 'robustness' } as const;
    expect(exampleKey(exampleOf({ scenario: 's', id: '1', perturbation: typos }))).toBe('s\u00001\u0000typos');
    expect(exampleKey(exampleOf({ scenario: 's', id: '1', perturbation: typos, sample: 0 }))).toBe('s\u00001\u0000typos');
    const second = exampleKey(exampleOf({ scenario: 's', id: '1', perturbation: typos, sample: 2 }));
    expect(second).toBe('s\u00001\u0000typos\u00002');
    expect(parseKey(second)).toEqual({ scenario: 's', id: '1', perturbation: 'typos', sample: 2 });
    expect(describeKey(second)).toBe('s/1 (typos, sample 2)');
    expect(describeKey(exampleKey({ scenario: 's', id: '1', sample: 1 }))).toBe('s/1 (sample 1)');
    expect(parseKey(exampleKey({ scenario: 's', id: '1', sample: 1 }))).toEqual({ scenario: 's', id: '1', sample: 1 });
  });
});
