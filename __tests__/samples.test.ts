import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
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

describe('evalgate metrics with repeated samples', () => {
  it("averages an example's samples first: (1/3 + 1) / 2, not 2/4", async () => {
    const file = writeLines('samples.jsonl', [
      record({ id: 'i1', sample: 0, correct: 1 }),
      record({ id: 'i1', sample: 1, correct: 0 }),
      record({ id: 'i1', sample: 2, correct: 0 }),
      record({ id: 'i2' }),
    ]);
    const result = await evalgate(['metrics', file, '--json', '--resamples', '0']);
    expect(result.code).toBe(0);
    const { overall } = JSON.parse(result.stdout) as { overall: Record<string, { value: number; n: number }> };
    expect(overall.accuracy.value).toBeCloseTo(2 / 3, 15);
    expect(overall.accuracy.n).toBe(2);
    expect(overall.error_rate).toMatchObject({ value: 0, n: 4 });
  });
});

describe('coverage with repeated samples', () => {
  it('counts an instance as answered when one sample of its original answered', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `q${i}`);
    const baseline = writeLines(
      'baseline.jsonl',
      ids.map((id) => record({ id })),
    );
    // q0: the first of two samples failed, the second answered; q1: both failed; q2: only its variant answered.
    const failedCall = (id: string, sample: number) => ({ scenario: 's', id, sample, error: 'HTTP 500' });
    const candidate = writeLines('candidate.jsonl', [
      failedCall('q0', 0),
      record({ id: 'q0', sample: 1 }),
      failedCall('q1', 0),
      failedCall('q1', 1),
      failedCall('q2', 0),
      record({ id: 'q2', perturbation: typos }),
      ...ids.slice(3).flatMap((id) => [record({ id, sample: 0 }), record({ id, sample: 1, correct: 0 })]),
    ]);
    const policy = join(tempDir(), 'policy.yml');
    writeFileSync(
      policy,
      'version: 1\nname: t\nsettings:\n  coverage: { min: 1, severity: block }\nchecks:\n  - metric: error_rate\n    max: 1\n',
    );
    const json = join(tempDir(), 'report.json');
    const result = await evalgate(['gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline, '--json', json]);
    expect(result.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { coverage: { status: string; covered: number; missing: string[] } };
    expect(report.coverage).toMatchObject({ status: 'fail', covered: 23, missing: ['s/q1', 's/q2'] });
  });
});
