import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTable } from '../src/metrics/table.js';
import { evalgate, writeSuite } from './helpers/evalgate.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * Repeated samples (the record's `sample`) end to end, through the bundled CLI: one record per example
 * and sample in every reader.
 */

const typos = { name: 'typos', kind: 'robustness' } as const;

describe('a second record of one sample of an example', () => {
  // Line 4 repeats line 2 (sample 1 of s/2's typos variant); lines 1 and 3 are other samples or examples.
  const lines = [
    record({ id: '2', perturbation: typos }),
    record({ id: '2', perturbation: typos, sample: 1 }),
    record({ id: '2', perturbation: typos, sample: 2 }),
    record({ id: '2', perturbation: typos, sample: 1, correct: 0 }),
  ];
  const message =
    's/2 (typos), sample 1 appears twice (first on line 2): one record per example and sample (scenario, id, perturbation, sample)';

  it('is an error of evalgate metrics, naming the file, both lines and the sample', async () => {
    const file = writeLines('duplicate.jsonl', lines);
    const result = await evalgate(['metrics', file, '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file}:4: ${message}`);
  });

  it('is an error of evalgate gate, for the candidate and for the baseline', async () => {
    const good = writeLines('good.jsonl', lines.slice(0, 3));
    const bad = writeLines('duplicate.jsonl', lines);
    const policy = join(tempDir(), 'policy.yml');
    writeFileSync(policy, 'version: 1\nname: t\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
    for (const [candidate, baseline] of [
      [bad, good],
      [good, bad],
    ]) {
      const result = await evalgate(['gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${bad}:4: ${message}`);
    }
  });

  it('is an error for an original without `sample` and one with sample 0 (absent means 0)', async () => {
    const file = writeLines('zero.jsonl', [record({ id: 'a' }), record({ id: 'b' }), record({ id: 'a', sample: 0 })]);
    const result = await evalgate(['metrics', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:3: s/a appears twice (first on line 1)`);
    expect(() => buildTable([record({ id: 'a' }), record({ id: 'a', sample: 0 })])).toThrow(
      'records:2: s/a appears twice (first on line 1)',
    );
  });

  it('is an error of a replayed records file', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: 'a', input: 'question', references: ['refund'] }]);
    const stored = writeLines('stored.jsonl', [
      record({ id: 'a', prediction: 'refund' }),
      record({ id: 'a', prediction: 'deny', correct: 0 }),
    ]);
    const result = await evalgate(['run', '--suite', suite, '--model', `replay:${stored}`, '--out', join(dir, 'out.jsonl'), '--no-cache']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${stored}:2: s/a appears twice (first on line 1)`);
  });
});
