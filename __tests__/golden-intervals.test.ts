import { describe, expect, it } from '@jest/globals';
import { computeMetrics, DEFAULT_COMPUTE_OPTIONS } from '../src/metrics/compute.js';
import { loadRun } from '../src/runs/load.js';
import { gateOf } from './helpers/exact.js';

/*
 * The intervals the defaults give on a fixed records file (__tests__/fixtures/golden/records.jsonl),
 * to the last digit: a change to a default (resamples, seed, little-bootstrap subsets), to the
 * resampling or to the interval moves them. The slowest of the mutation tests: run last
 * (__tests__/mutation/decision-tests.ts).
 */

describe('golden intervals: the defaults on a fixed records file', () => {
  // __tests__/fixtures/golden/records.jsonl: "small" has 200 instances (the plain bootstrap), "large" 700
  // and the pooled scope 900 (bags of little bootstraps, 10 subsets). The endpoints below are what the
  // defaults give (1000 resamples, seed 1; a policy's 2000: below): a change to a
  // default, the resampling or the interval moves them.
  const file = '__tests__/fixtures/golden/records.jsonl';

  it('metrics with the default options', async () => {
    const run = await loadRun(file);
    if (run.kind !== 'records') throw new Error('not a records file');
    const metrics = computeMetrics(run.table, DEFAULT_COMPUTE_OPTIONS);
    expect(metrics.overall.accuracy).toEqual({ value: 0.6844444444444444, ci: [0.6539999999999999, 0.7126666666666667], n: 900 });
    expect(metrics.overall.ece.ci).toEqual([0.10587049999999998, 0.1629123888888889]);
    expect(metrics.scenarios.small.accuracy).toEqual({ value: 0.75, ci: [0.69, 0.805125], n: 200 });
    expect(metrics.scenarios.small.brier.ci).toEqual([0.17371001250000004, 0.2407606]);
    expect(metrics.scenarios.large.accuracy).toEqual({ value: 0.6657142857142857, ci: [0.6291428571428571, 0.698592857142857], n: 700 });
  });
});

describe("golden intervals: a policy's defaults on a fixed records file", () => {
  // The intervals the checks are judged on with the policy's default resamples (2000) and seed (1), on
  // the same file: a change to a default or to the resampling moves them.
  it('the pooled scope (bags of little bootstraps) and a scenario (the plain bootstrap)', async () => {
    const run = await loadRun('__tests__/fixtures/golden/records.jsonl');
    // Budgets without a baseline are skipped: nothing but the candidate's intervals is computed.
    const result = gateOf(
      'checks:\n  - metric: accuracy\n    max_regression: 0\n  - metric: accuracy\n    scenario: small\n    max_regression: 0\n',
      run,
    );
    expect(result.checks.map((check) => [check.status, check.candidate])).toEqual([
      ['skipped', { value: 0.6844444444444444, ci: [0.6542166666666666, 0.7153444444444444], n: 900 }],
      ['skipped', { value: 0.75, ci: [0.6898750000000001, 0.805], n: 200 }],
    ]);
  });
});
