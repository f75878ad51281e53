import { describe, expect, it } from '@jest/globals';
import { computeMetrics, subsetSizeFor } from '../src/metrics/compute.js';
import { compareMetric } from '../src/metrics/paired.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { record } from './helpers/records.js';

/*
 * The bootstrap's intervals and paired comparisons against the normal approximation, on thousands of
 * instances: statistical tests, seconds long under mutation testing's instrumentation, so not among
 * the mutation tests (__tests__/mutation/decision-tests.ts), whose exact cases pin the same code
 * (stats-exact.test.ts, golden-intervals.test.ts).
 */

/** n instances, a share `accuracy` of them right (spread evenly), each with `variants` identical perturbations. */
function binaryRun(n: number, accuracy: number, variants = 0, scenario = 's'): EvalRecord[] {
  const records: EvalRecord[] = [];
  for (let i = 0; i < n; i++) {
    const correct = Math.floor((i + 1) * accuracy) > Math.floor(i * accuracy) ? 1 : 0;
    records.push(record({ scenario, id: String(i), correct }));
    for (let v = 0; v < variants; v++)
      records.push(record({ scenario, id: String(i), correct, perturbation: { name: `p${v}`, kind: 'robustness' } }));
  }
  return records;
}

const options = { resamples: 1000, seed: 7, minGroupSize: 10 };
const normalHalfWidth = (p: number, n: number) => 1.959964 * Math.sqrt((p * (1 - p)) / n);

describe('confidence intervals', () => {
  it('are deterministic for a seed and change with it', () => {
    const table = buildTable(binaryRun(300, 0.7));
    const first = computeMetrics(table, options).overall.accuracy.ci;
    expect(computeMetrics(table, options).overall.accuracy.ci).toEqual(first);
    expect(computeMetrics(table, { ...options, seed: 8 }).overall.accuracy.ci).not.toEqual(first);
  });

  it('match the normal approximation for a proportion (plain bootstrap)', () => {
    const n = 1000;
    const { value, ci } = computeMetrics(buildTable(binaryRun(n, 0.7)), options).overall.accuracy;
    expect(value).toBeCloseTo(0.7, 12);
    const half = normalHalfWidth(0.7, n); // 0.0284
    expect(ci![0]).toBeCloseTo(0.7 - half, 2);
    expect(ci![1]).toBeCloseTo(0.7 + half, 2);
  });

  it('match the normal approximation on a large scope (bag of little bootstraps)', () => {
    const n = 30000;
    expect(subsetSizeFor(n, [n])).toBeLessThan(n);
    const { ci } = computeMetrics(buildTable(binaryRun(n, 0.7)), options).overall.accuracy;
    const half = normalHalfWidth(0.7, n); // 0.0052
    expect(Math.abs(ci![0] - (0.7 - half))).toBeLessThan(0.15 * half);
    expect(Math.abs(ci![1] - (0.7 + half))).toBeLessThan(0.15 * half);
  });

  it('stay within the values a metric can take', () => {
    // Two groups with the same accuracy: the gap is 0 and its interval cannot go below 0.
    const records = binaryRun(3000, 0.5).map((r, i) => ({ ...r, groups: { g: i % 2 === 0 ? 'x' : 'y' } }));
    const gap = computeMetrics(buildTable(records), options).overall['group_accuracy_gap:g'];
    expect(gap.ci![0]).toBeGreaterThanOrEqual(0);
    expect(gap.ci![1]).toBeGreaterThan(0);
  });

  it('resample an instance together with its perturbations', () => {
    // 400 instances, each with 4 identical variants: error_rate over 2000 records varies as 400 clusters do.
    const records = binaryRun(400, 0.5, 4).map((r) =>
      r.correct === 0 ? { scenario: r.scenario, id: r.id, perturbation: r.perturbation, error: 'x' } : r,
    ) as EvalRecord[];
    const { value, ci, n } = computeMetrics(buildTable(records), options).overall.error_rate;
    expect(n).toBe(2000);
    expect(value).toBeCloseTo(0.5, 12);
    const width = ci![1] - ci![0];
    expect(width).toBeGreaterThan(1.6 * normalHalfWidth(0.5, 400)); // about 2 * 0.049
    expect(width).toBeLessThan(2.4 * normalHalfWidth(0.5, 400));
  });

  it('contain the value of every metric on the example data', async () => {
    const { loadRecordTable } = await import('../src/runs/records.js');
    const report = computeMetrics(await loadRecordTable('examples/billing/baseline.jsonl'), { ...options, resamples: 200 });
    for (const [name, metric] of Object.entries(report.overall)) {
      expect([name, metric.ci![0] <= metric.value + 1e-12 && metric.value <= metric.ci![1] + 1e-12]).toEqual([name, true]);
    }
  });
});

describe('paired bootstrap', () => {
  it('finds no difference between a run and itself', () => {
    const table = buildTable(binaryRun(500, 0.7));
    const comparison = compareMetric(table, table, 'accuracy', undefined, options)!;
    expect(comparison.difference).toBe(0);
    expect(comparison.ci).toEqual([0, 0]);
    expect(comparison.pAbove).toBe(1);
    expect(comparison.pBelow).toBe(1);
    expect(comparison.shared).toBe(500);
  });

  it('detects a real drop and compares shared instances only', () => {
    const baseline = binaryRun(2000, 0.8);
    // Candidate: every 10th answer, right in the baseline, of the baseline becomes wrong (-8 points), plus 100 extra instances.
    const candidate = baseline.map((r, i) => (i % 10 === 1 && r.correct === 1 ? { ...r, correct: 0 } : r));
    candidate.push(...binaryRun(100, 0, 0).map((r) => ({ ...r, id: `extra-${r.id}` })));
    const comparison = compareMetric(buildTable(candidate), buildTable(baseline), 'accuracy', undefined, options)!;
    expect(comparison.shared).toBe(2000);
    const dropped = baseline.filter((r, i) => i % 10 === 1 && r.correct === 1).length / 2000;
    expect(comparison.difference).toBeCloseTo(-dropped, 12);
    expect(comparison.pBelow).toBeLessThan(0.01);
    expect(comparison.pAbove).toBeGreaterThan(0.99);
    // The paired interval is far narrower than two independent ones would be.
    const [low, high] = comparison.ci!;
    expect(high - low).toBeLessThan(2 * normalHalfWidth(dropped, 2000) * 1.3);
  });
});
