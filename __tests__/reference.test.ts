import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from './helpers/run.js';
import { tempDir } from './helpers/records.js';

/*
 * The metric engine against an independent implementation: __tests__/reference/ holds a plain Python
 * version of the metric definitions, written separately from the TypeScript one, and a seeded generator
 * of a few thousand records with every feature (scenarios, groups, perturbations, repeated samples,
 * errors, ties, partial credit). The bundled CLI must agree with it to 1e-9 on every metric of every scope.
 */

type Report = Record<'overall', Record<string, { value: number; n: number }>> & {
  scenarios: Record<string, Record<string, { value: number; n: number }>>;
};

async function python(...args: string[]): Promise<string> {
  const result = await runProcess('python3', args);
  if (result.code !== 0) throw new Error(`python3 ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

function expectSameMetrics(ours: Report, reference: Report): void {
  const scopes = [
    ['overall', ours.overall, reference.overall] as const,
    ...Object.keys(reference.scenarios).map((name) => [name, ours.scenarios[name], reference.scenarios[name]] as const),
  ];
  expect(Object.keys(ours.scenarios).sort()).toEqual(Object.keys(reference.scenarios).sort());
  for (const [scope, mine, theirs] of scopes) {
    expect([scope, Object.keys(mine).sort()]).toEqual([scope, Object.keys(theirs).sort()]);
    for (const [metric, expected] of Object.entries(theirs)) {
      const actual = mine[metric];
      expect([scope, metric, actual.n]).toEqual([scope, metric, expected.n]);
      if (Math.abs(actual.value - expected.value) > 1e-9) {
        throw new Error(`${scope} ${metric}: evalgate ${actual.value}, reference ${expected.value}`);
      }
    }
  }
}

describe('agreement with an independent reference implementation', () => {
  it.each([
    [42, 3000, 10],
    [7, 5000, 25],
  ])('seed %i, %i records, min group size %i', async (seed, count, minGroupSize) => {
    const path = join(tempDir(), 'held-out.jsonl');
    await python('__tests__/reference/generate_records.py', String(seed), String(count), path);
    // Some instances were asked two or three times: their records carry "sample".
    expect(readFileSync(path, 'utf8')).toContain('"sample": 2');
    const reference = JSON.parse(await python('__tests__/reference/metrics_reference.py', path, '--min-group-size', String(minGroupSize)));
    const result = await runProcess(process.execPath, [
      'dist/cli.js',
      'metrics',
      path,
      '--json',
      '--resamples',
      '20',
      '--min-group-size',
      String(minGroupSize),
    ]);
    expect(result.stderr).toBe('');
    const ours = JSON.parse(result.stdout) as Report;
    expectSameMetrics(ours, reference);
    // The reference's data set exercises every metric family.
    for (const metric of [
      'ece_10_bin',
      'selective_acc@10',
      'accuracy_robust',
      'accuracy_fair',
      'group_accuracy_gap:dialect',
      'latency_p95_ms',
      'cost_usd_total',
    ]) {
      expect(ours.overall).toHaveProperty([metric]);
    }
  });
});
