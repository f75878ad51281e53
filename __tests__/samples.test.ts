import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTable } from '../src/metrics/table.js';
import { evalgate, readJsonLines, runAgainst, TOY_MODEL, writeSuite } from './helpers/evalgate.js';
import { withFakeOpenAI } from './helpers/openai-server.js';
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
    's/2 (typos, sample 1) appears twice (first on line 2): one record per example and sample (scenario, id, perturbation, sample)';

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

/** A model that answers each prompt "refund" the first time, "deny" the second, "refund" the third, ... */
function alternatingModel(dir: string): string {
  const path = join(dir, 'alternating.mjs');
  writeFileSync(
    path,
    `import { createInterface } from 'node:readline';
const asked = new Map();
createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  const text = request.messages.map((m) => m.content).join('\\n');
  const times = (asked.get(text) ?? 0) + 1;
  asked.set(text, times);
  process.stdout.write(JSON.stringify({ id: request.id, text: times % 2 === 1 ? 'refund' : 'deny', confidence: 0.8 }) + '\\n');
});
`,
  );
  return `command:node ${path}`;
}

const run = (suite: string, model: string, out: string, ...flags: string[]) =>
  evalgate(['run', '--suite', suite, '--model', model, '--out', out, '--concurrency', '1', ...flags]);

describe('evalgate run --samples', () => {
  it('asks every example k times, sample 0 from the cache of a run without samples, and reruns from the cache', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [
      { id: 'a', input: 'I was charged twice', references: ['refund'] },
      { id: 'b', input: 'hello', references: ['deny'] },
    ]);
    const cache = ['--cache-dir', join(dir, 'cache')];
    expect((await run(suite, TOY_MODEL, join(dir, 'once.jsonl'), ...cache)).code).toBe(0);
    const once = readJsonLines(join(dir, 'once.jsonl'));
    expect(once.map((r) => [r.id, r.sample])).toEqual([
      ['a', undefined],
      ['b', undefined],
    ]);

    const thrice = await run(suite, TOY_MODEL, join(dir, 'thrice.jsonl'), ...cache, '--samples', '3');
    expect(thrice.code).toBe(0);
    // Sample 0 of each example has the key a run without samples has: 2 from the cache, 4 asked.
    expect(thrice.stderr).toContain('6 records (0 failed calls, 0 retries, 2 from the cache)');
    const records = readJsonLines(join(dir, 'thrice.jsonl'));
    expect(records.map((r) => [r.id, r.sample, r.prediction, r.correct])).toEqual([
      ['a', 0, 'refund', 1],
      ['a', 1, 'refund', 1],
      ['a', 2, 'refund', 1],
      ['b', 0, 'deny', 1],
      ['b', 1, 'deny', 1],
      ['b', 2, 'deny', 1],
    ]);
    expect(Object.keys(records[1]).slice(0, 3)).toEqual(['scenario', 'id', 'sample']);
    const again = await run(suite, TOY_MODEL, join(dir, 'again.jsonl'), ...cache, '--samples', '3');
    expect(again.stderr).toContain('6 from the cache');
    expect(readFileSync(join(dir, 'again.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'thrice.jsonl'), 'utf8'));
  });

  it('shares an answer between identical requests only within one sample index', async () => {
    const dir = tempDir();
    // a and b ask the same prompt: sample 0 of both gets one answer, sample 1 of both another.
    const suite = writeSuite(dir, [
      { id: 'a', input: 'the same question', references: ['refund'] },
      { id: 'b', input: 'the same question', references: ['refund'] },
    ]);
    const result = await run(suite, alternatingModel(dir), join(dir, 'out.jsonl'), '--cache-dir', join(dir, 'cache'), '--samples', '2');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('4 records (0 failed calls, 0 retries, 2 from the cache)');
    const records = readJsonLines(join(dir, 'out.jsonl'));
    expect(records.map((r) => [r.id, r.sample, r.prediction])).toEqual([
      ['a', 0, 'refund'],
      ['a', 1, 'deny'],
      ['b', 0, 'refund'],
      ['b', 1, 'deny'],
    ]);
    // Each example averages its two samples: accuracy (1/2 + 1/2) / 2 over 2 examples.
    const metrics = await evalgate(['metrics', join(dir, 'out.jsonl'), '--json', '--resamples', '0']);
    expect(JSON.parse(metrics.stdout).overall.accuracy).toEqual({ value: 0.5, ci: null, n: 2 });
  });

  it('replays each sample its own stored completion', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: 'a', input: 'a question', references: ['refund'] }]);
    const stored = join(dir, 'stored.jsonl');
    expect((await run(suite, alternatingModel(dir), stored, '--no-cache', '--samples', '2')).code).toBe(0);
    expect(readJsonLines(stored).map((r) => r.prediction)).toEqual(['refund', 'deny']);
    // Sample 2 is not stored: a failed call, one in three (which --max-failed 1 lets pass).
    const replayed = await run(suite, `replay:${stored}`, join(dir, 'replayed.jsonl'), '--samples', '3', '--max-failed', '1');
    expect(replayed.code).toBe(0);
    const records = readJsonLines(join(dir, 'replayed.jsonl'));
    expect(records.map((r) => [r.sample, r.prediction, r.correct])).toEqual([
      [0, 'refund', 1],
      [1, 'deny', 0],
      [2, undefined, undefined],
    ]);
    expect(records[2].error).toBe(`no completion stored in ${stored} for s/a (sample 2)`);
  });

  it('keeps an instance and its samples in one shard; merge --suite --samples puts them back', async () => {
    const dir = tempDir();
    const suite = writeSuite(
      dir,
      ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, input: `Customer ${id}: I was charged twice`, references: ['refund'] })),
      'scorer: exact_match\nperturbations: [lowercase]',
    );
    const cache = ['--cache-dir', join(dir, 'cache'), '--samples', '2'];
    expect((await run(suite, TOY_MODEL, join(dir, 'all.jsonl'), ...cache)).code).toBe(0);
    const shards = ['1', '2'].map((index) => join(dir, `shard-${index}.jsonl`));
    for (const [index, shard] of shards.entries()) {
      expect((await run(suite, TOY_MODEL, shard, ...cache, '--shard', `${index + 1}/2`)).code).toBe(0);
      const ids = readJsonLines(shard).map((r) => r.id as string);
      // Each instance in the shard has its original and its variant, two samples each.
      for (const id of new Set(ids)) expect(ids.filter((other) => other === id)).toHaveLength(4);
    }
    const merged = await evalgate(['merge', '--suite', suite, '--samples', '2', '--out', join(dir, 'merged.jsonl'), ...shards]);
    expect(merged.code).toBe(0);
    expect(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'all.jsonl'), 'utf8'));
    const forgot = await evalgate(['merge', '--suite', suite, '--out', join(dir, 'forgot.jsonl'), ...shards]);
    expect(forgot.code).toBe(2);
    expect(forgot.stderr).toMatch(/10 records are not in the suite \(s\/\w \(sample 1\), s\/\w \(lowercase, sample 1\), /);
    expect(forgot.stderr).toContain('give merge the --samples the shards ran with');
    const twice = await evalgate(['merge', '--out', join(dir, 'twice.jsonl'), shards[0], shards[0]]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/shard-1\.jsonl:1: s\/\w is already in another shard/);
  });

  it('asks an OpenAI-compatible endpoint once per sample', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(dir, [
        { id: 'q0', input: 'a question', references: ['refund'] },
        { id: 'q1', input: 'FAIL500 question', references: ['refund'] },
      ]);
      const ask = (out: string) =>
        runAgainst(server.url, suite, join(dir, out), [
          '--cache-dir',
          join(dir, 'cache'),
          '--samples',
          '3',
          '--retries',
          '0',
          '--max-failed',
          '1',
        ]);
      const result = await ask('out.jsonl');
      expect(result.code).toBe(0);
      expect(server.requests).toBe(6);
      const records = readJsonLines(join(dir, 'out.jsonl'));
      expect(records.map((r) => [r.id, r.sample, r.correct ?? r.error])).toEqual([
        ['q0', 0, 1],
        ['q0', 1, 1],
        ['q0', 2, 1],
        ['q1', 0, expect.stringMatching(/^HTTP 500/)],
        ['q1', 1, expect.stringMatching(/^HTTP 500/)],
        ['q1', 2, expect.stringMatching(/^HTTP 500/)],
      ]);
      expect(records[1].confidence).toBeCloseTo(Math.exp(-0.3), 12);
      // A rerun asks only its probe and what failed (failed calls are not cached).
      expect((await ask('again.jsonl')).code).toBe(0);
      expect(server.requests).toBe(10);
    }));
});
