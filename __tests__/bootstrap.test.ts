import { describe, expect, it } from '@jest/globals';
import { computeMetrics, subsetSizeFor } from '../src/metrics/compute.js';
import { compareMetric } from '../src/metrics/paired.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { multinomialDrawer } from '../src/stats/bootstrap.js';
import { PoissonSampler, Random } from '../src/stats/random.js';
import { record } from './helpers/records.js';

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

describe('random numbers', () => {
  it('are reproducible from the seed', () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const first = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(first);
  });

  it('fill a buffer with what one call at a time would give, and go on from there', () => {
    const one = new Random(9);
    const filled = new Random(9);
    const buffer = new Uint32Array(1000);
    filled.fill(buffer, 999);
    expect(Array.from(buffer.subarray(0, 999))).toEqual(Array.from({ length: 999 }, () => one.nextUint32()));
    expect(buffer[999]).toBe(0);
    expect(filled.nextUint32()).toBe(one.nextUint32());
  });

  it('draw Poisson counts and add uniform ones as drawing one at a time would, and go on from there', () => {
    const one = new Random(5);
    const fused = new Random(5);
    const sampler = new PoissonSampler(38.7);
    const expected = Array.from({ length: 500 }, () => sampler.draw(one));
    const counts = new Float64Array(500);
    expect(fused.addPoisson(sampler, counts, 500)).toBe(expected.reduce((sum, k) => sum + k, 0));
    expect(Array.from(counts)).toEqual(expected);
    const n = 77; // a rejection threshold above 0: some draws are rejected and drawn again
    for (let draw = 0; draw < 3000; draw++) expected[one.nextBelow(n)]++;
    fused.addUniform(counts, 3000, n, (4294967296 - n) % n);
    expect(Array.from(counts)).toEqual(expected);
    expect(fused.nextUint32()).toBe(one.nextUint32());
  });

  it('draw integers below n uniformly', () => {
    const random = new Random(1);
    const counts = new Array(7).fill(0);
    for (let i = 0; i < 70000; i++) counts[random.nextBelow(7)]++;
    // Each cell expects 10000, standard deviation about 93.
    for (const count of counts) expect(Math.abs(count - 10000)).toBeLessThan(500);
  });

  it('draw Poisson counts with the right mean and variance', () => {
    for (const mean of [0.5, 3, 20, 150]) {
      const sampler = new PoissonSampler(mean);
      const random = new Random(5);
      const draws = Array.from({ length: 50000 }, () => sampler.draw(random));
      const average = draws.reduce((s, x) => s + x, 0) / draws.length;
      const variance = draws.reduce((s, x) => s + (x - average) ** 2, 0) / draws.length;
      expect(Math.abs(average - mean)).toBeLessThan(5 * Math.sqrt(mean / draws.length));
      expect(Math.abs(variance / mean - 1)).toBeLessThan(0.05);
    }
  });

  it('draw multinomial counts that add up to the total', () => {
    const random = new Random(3);
    for (const [cells, total] of [
      [10, 10],
      [50, 5000],
      [2000, 40000],
    ]) {
      const counts = new Float64Array(cells);
      multinomialDrawer(cells, total)(random, counts);
      expect(counts.reduce((s, x) => s + x, 0)).toBe(total);
      expect(counts.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    }
    // Cell counts of multinomial(n, 1/b) have mean n/b and variance n(1/b)(1-1/b).
    const counts = new Float64Array(400);
    const cellValues: number[] = [];
    const drawMultinomial = multinomialDrawer(400, 20000);
    for (let i = 0; i < 200; i++) {
      drawMultinomial(random, counts);
      cellValues.push(...counts);
    }
    const mean = cellValues.reduce((s, x) => s + x, 0) / cellValues.length;
    const variance = cellValues.reduce((s, x) => s + (x - mean) ** 2, 0) / cellValues.length;
    expect(mean).toBe(50);
    expect(Math.abs(variance / (20000 * (1 / 400) * (1 - 1 / 400)) - 1)).toBeLessThan(0.05);
  });
});

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

  it('size little-bootstrap subsets by n^0.7 and by the metric with the fewest records', () => {
    expect(subsetSizeFor(500, [500])).toBe(500); // small scopes: the plain bootstrap
    expect(subsetSizeFor(40000, [40000])).toBe(Math.ceil(40000 ** 0.7)); // 1,661
    expect(subsetSizeFor(2000, [2000])).toBe(500);
    // A metric on 400 of 40,000 instances needs subsets of 5,000 to see 50 of its records in each.
    expect(subsetSizeFor(40000, [40000, 400])).toBe(5000);
    expect(subsetSizeFor(40000, [40000, 10])).toBe(40000);
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

  it('is undefined when a run lacks the metric', () => {
    const withConfidence = buildTable([record({ id: '1', confidence: 0.5 })]);
    const without = buildTable([record({ id: '1' })]);
    expect(compareMetric(withConfidence, without, 'ece', undefined, options)).toBeUndefined();
  });
});
