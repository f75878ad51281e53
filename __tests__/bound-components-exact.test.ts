import { describe, expect, it } from '@jest/globals';
import { judgedOn } from '../src/gate/component-bounds.js';
import { componentShape, metricComponents, type MetricComponents } from '../src/metrics/bound-components.js';
import { RunMetrics } from '../src/metrics/compute.js';
import { scopeNamed } from '../src/metrics/scope.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import type { BoundTests } from '../src/stats/bound-estimators.js';
import { overallValues, record } from './helpers/records.js';

/*
 * The components behind the bounds on biased metrics (src/metrics/bound-components.ts) and what a
 * bound is judged on (src/gate/component-bounds.ts), on records small enough to work out by hand:
 * each calibration bin's signed part m_b = (correct_b - confidence_b) / N, each eligible group's
 * accuracy and size, and each resample's deviations, which must rebuild the metric's own bootstrap
 * values resample by resample (the same resamples as its interval).
 */

const NO_RESAMPLES = { resamples: 0, seed: 1 };

function componentsOf(records: EvalRecord[], metric: string, minGroupSize = 1): MetricComponents | undefined {
  const table = buildTable(records);
  return metricComponents(table, scopeNamed(table), { minGroupSize }, metric, NO_RESAMPLES);
}

describe('which metrics have components', () => {
  it.each([
    ['ece', 'calibration'],
    ['ece_10_bin', 'calibration'],
    ['worst_group_accuracy:dialect', 'minimum'],
    ['group_accuracy_gap:dialect', 'range'],
    ['accuracy', undefined],
    ['brier', undefined],
    ['group_accuracy:dialect=a', undefined],
    ['worst_group_accuracy', undefined],
  ])('%s: %s', (metric, shape) => {
    expect(componentShape(metric)).toBe(shape);
  });
});

// Width bins of 0.1: confidence 0.25 falls in bin 2, 0.75 in bin 7, 0.95 in bin 9.
const calibrated = [
  record({ id: '1', correct: 1, confidence: 0.25 }),
  record({ id: '2', correct: 0, confidence: 0.25 }),
  record({ id: '3', correct: 1, confidence: 0.75 }),
  record({ id: '4', correct: 1, confidence: 0.75 }),
  record({ id: '5', correct: 0, confidence: 0.95 }),
];

describe('calibration components on the data', () => {
  it('ece: each width bin holds its records, m_b = (correct_b - confidence_b) / N', () => {
    const components = componentsOf(calibrated, 'ece')!;
    expect(components.shape).toBe('calibration');
    const bin = (values: number[]) => [0, 0, values[0], 0, 0, 0, 0, values[1], 0, values[2]];
    expect(Array.from(components.bins!.weight)).toEqual(bin([2, 2, 1]));
    expect(Array.from(components.bins!.correct)).toEqual(bin([1, 2, 0]));
    expect(Array.from(components.bins!.confidence)).toEqual(bin([0.5, 1.5, 0.95]));
    // (1 - 0.5) / 5, (2 - 1.5) / 5, (0 - 0.95) / 5
    const expected = bin([0.1, 0.1, -0.19]);
    components.values.forEach((value, index) => expect(value).toBeCloseTo(expected[index], 15));
    expect(components.sizes).toBeUndefined();
  });

  it.each(['ece', 'ece_10_bin'])('%s: the absolute parts sum to the metric', (metric) => {
    const { values, bins } = componentsOf(calibrated, metric)!;
    const sum = values.reduce((total, value) => total + Math.abs(value), 0);
    expect(sum).toBeCloseTo(overallValues(calibrated)[metric], 15);
    expect(bins!.weight.reduce((total, weight) => total + weight, 0)).toBe(calibrated.length);
  });

  it('ece_10_bin: equal-mass bins (5 records, 5 chunks; boundaries 0.25, 0.5, 0.75, 0.85; a value goes to the first boundary at or above it)', () => {
    const { bins, values } = componentsOf(calibrated, 'ece_10_bin')!;
    expect(Array.from(bins!.weight)).toEqual([2, 0, 2, 0, 1, 0, 0, 0, 0, 0]);
    expect(Array.from(bins!.correct)).toEqual([1, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
    const expected = [0.1, 0, 0.1, 0, -0.19, 0, 0, 0, 0, 0];
    values.forEach((value, index) => expect(value).toBeCloseTo(expected[index], 15));
  });

  it.each(['ece', 'ece_10_bin'])('%s: none without a record that has a confidence', (metric) => {
    expect(componentsOf([record({ id: '1' }), record({ id: '2', correct: 0 })], metric)).toBeUndefined();
  });

  it('none for a metric without components', () => {
    expect(componentsOf(calibrated, 'accuracy')).toBeUndefined();
  });

  it.each(['ece', 'worst_group_accuracy:g'])('%s: none in a scope without records (a scenario no record has)', (metric) => {
    const table = buildTable([...calibrated, ...grouped]);
    expect(metricComponents(table, scopeNamed(table, 'missing'), { minGroupSize: 1 }, metric, NO_RESAMPLES)).toBeUndefined();
  });

  it("a little-bootstrap subset without a calibrated record: its resamples' parts are undefined (NaN), the others' are not", () => {
    // Three records in ten have a confidence; subsets of 2 instances often miss them.
    const sparse = Array.from({ length: 10 }, (_, i) => record({ id: `q${i}`, correct: i % 2, ...(i < 3 ? { confidence: 0.75 } : {}) }));
    const table = buildTable(sparse);
    const components = metricComponents(table, scopeNamed(table), { minGroupSize: 1 }, 'ece', { resamples: 60, seed: 3, subsetSize: 2 })!;
    expect(components.deviations).toHaveLength(60);
    const undefinedResamples = components.deviations.filter((deviation) => deviation.every(Number.isNaN)).length;
    expect(undefinedResamples).toBeGreaterThan(0);
    expect(undefinedResamples).toBeLessThan(60);
  });
});

// Group a: 3 of 4 right; b: 1 of 4; c: 2 of 2; d has one record.
const grouped: EvalRecord[] = [
  ...[1, 1, 1, 0].map((correct, i) => record({ id: `a${i}`, correct, groups: { g: 'a' } })),
  ...[1, 0, 0, 0].map((correct, i) => record({ id: `b${i}`, correct, groups: { g: 'b' } })),
  ...[1, 1].map((correct, i) => record({ id: `c${i}`, correct, groups: { g: 'c' } })),
  record({ id: 'd0', correct: 0, groups: { g: 'd' } }),
];

describe('group components on the data', () => {
  it.each([
    // min_group_size exactly a group's size keeps it; one more leaves it out.
    [1, [0.75, 0.25, 1, 0], [4, 4, 2, 1]],
    [2, [0.75, 0.25, 1], [4, 4, 2]],
    [3, [0.75, 0.25], [4, 4]],
  ])('min_group_size %d: accuracies %j of groups of sizes %j', (minGroupSize, accuracies, sizes) => {
    for (const [metric, shape] of [
      ['worst_group_accuracy:g', 'minimum'],
      ['group_accuracy_gap:g', 'range'],
    ]) {
      const components = componentsOf(grouped, metric, minGroupSize)!;
      expect(components.shape).toBe(shape);
      expect(Array.from(components.values)).toEqual(accuracies);
      expect(Array.from(components.sizes!)).toEqual(sizes);
      expect(components.bins).toBeUndefined();
    }
  });

  it.each([
    ['no eligible group', 'worst_group_accuracy:g', 5],
    ['an attribute no record has', 'worst_group_accuracy:h', 1],
    ['a gap over an attribute no record has', 'group_accuracy_gap:h', 1],
  ])('none for %s', (_, metric, minGroupSize) => {
    expect(componentsOf(grouped, metric, minGroupSize)).toBeUndefined();
  });

  it.each(['worst_group_accuracy:g', 'group_accuracy_gap:g'])(
    '%s: none with one eligible group (a worst group needs two to compare)',
    (metric) => {
      const withoutB = grouped.filter((one) => one.groups?.g !== 'b');
      expect(componentsOf(withoutB, metric, 3)).toBeUndefined(); // a (4 records) alone
      expect(Array.from(componentsOf(withoutB, metric, 2)!.values)).toEqual([0.75, 1]); // a and c
    },
  );

  it('a group whose records all failed is no group: nothing of it was answered', () => {
    const failed = [...grouped, ...[0, 1].map((i) => record({ id: `e${i}`, correct: undefined, groups: { g: 'e' }, error: 'timeout' }))];
    expect(Array.from(componentsOf(failed, 'worst_group_accuracy:g', 1)!.values)).toEqual([0.75, 0.25, 1, 0]);
  });
});

describe("each resample's deviations rebuild the metric's own bootstrap values", () => {
  const options = { resamples: 40, seed: 7, minGroupSize: 2 };
  const varied = [
    ...Array.from({ length: 12 }, (_, i) =>
      record({ id: `x${i}`, correct: i % 3 === 0 ? 0 : 1, confidence: 0.05 + 0.08 * i, groups: { g: 'a' } }),
    ),
    ...Array.from({ length: 10 }, (_, i) => record({ id: `y${i}`, correct: i % 2, confidence: 0.9 - 0.07 * i, groups: { g: 'b' } })),
    ...Array.from({ length: 6 }, (_, i) => record({ id: `z${i}`, correct: 1, confidence: 0.5, groups: { g: 'c' } })),
  ];
  const rebuilt: Record<string, (parts: number[]) => number> = {
    ece: (parts) => parts.reduce((total, part) => total + Math.abs(part), 0),
    ece_10_bin: (parts) => parts.reduce((total, part) => total + Math.abs(part), 0),
    'worst_group_accuracy:g': (parts) => Math.min(...parts),
    'group_accuracy_gap:g': (parts) => Math.max(...parts) - Math.min(...parts),
  };

  it.each(Object.keys(rebuilt))('%s', (metric) => {
    const metrics = new RunMetrics(buildTable(varied), options);
    const samples = metrics.samples([undefined]).overall[metric];
    const components = metrics.boundComponents(undefined, metric)!;
    expect(components.deviations).toHaveLength(options.resamples);
    expect(samples).toHaveLength(options.resamples);
    const distinct = new Set(samples);
    expect(distinct.size).toBeGreaterThan(5); // resamples that differ, so a wrong rebuild shows
    components.deviations.forEach((deviation, r) => {
      const parts = Array.from(components.values, (value, k) => value + deviation[k]);
      expect(rebuilt[metric](parts)).toBeCloseTo(samples[r], 12);
    });
  });

  it('records that are all alike deviate by nothing', () => {
    const alike = Array.from({ length: 8 }, (_, i) => record({ id: `q${i}`, correct: 1, confidence: 0.75 }));
    const components = new RunMetrics(buildTable(alike), options).boundComponents(undefined, 'ece')!;
    // m_7 = (1 - 0.75) on every resample, whatever the weights: deviations 0.
    for (const deviation of components.deviations) expect(Array.from(deviation)).toEqual(Array.from({ length: 10 }, () => 0));
  });
});

describe('what a bound is judged on', () => {
  /** Tests whose one-sided bounds are `lower` and `upper` at any alpha. */
  const testsWith = (lower: number, upper: number): BoundTests => ({
    value: NaN,
    bounds: () => ({ lower, upper }),
    pAbove: () => NaN,
    pBelow: () => NaN,
  });
  const groups = (deviations: number): MetricComponents => ({
    shape: 'minimum',
    values: Float64Array.of(0.5, 0.7),
    deviations: Array.from({ length: deviations }, () => Float64Array.of(0, 0)),
    sizes: Float64Array.of(10, 10),
  });
  const value = (x: number) => ({ value: x, ci: null, n: 20 });

  it.each([
    ['no resampled values: the plug-in value', 0.5, undefined, 0.5],
    ['an empty set of resampled values: the plug-in value', 0.5, Float64Array.of(), 0.5],
    // 2 * 0.5 - mean(0.55, 0.65) = 0.4
    ['resampled values: bias-corrected, 2 x value - their mean', 0.5, Float64Array.of(0.55, 0.65), 0.4],
    // 2 * 0.1 - 0.4 = -0.2, clamped to the metric's range [0, 1]
    ['a corrected estimate past the range: clamped to it', 0.1, Float64Array.of(0.4), 0],
  ])('%s', (_, plugIn, samples, estimate) => {
    const judged = judgedOn('worst_group_accuracy:g', groups(3), testsWith(0.3, 0.6), value(plugIn), samples);
    expect(judged.estimate).toBeCloseTo(estimate, 15);
    expect(judged.estimator).toBe('bootstrap-bias-corrected');
    expect(judged.method).toBe('max-t');
    expect(judged.resamples).toBe(3);
  });

  it.each([
    ['finite bounds within the range', 0.3, 0.6, [0.3, 0.6]],
    ['bounds past the range: clamped', -0.2, 1.3, [0, 1]],
    ['an infinite lower bound: no interval', -Infinity, 0.6, null],
    ['an infinite upper bound: no interval', 0.3, Infinity, null],
    ['an undefined bound: no interval', NaN, 0.6, null],
  ])('%s', (_, lower, upper, interval) => {
    expect(judgedOn('group_accuracy_gap:g', groups(2), testsWith(lower, upper), value(0.2), undefined).interval).toEqual(interval);
  });

  it("a metric evalgate has no range for is not clamped (a tool's own metric)", () => {
    const judged = judgedOn('house_score', groups(2), testsWith(-3, 7), value(-2), undefined);
    expect(judged.estimate).toBe(-2);
    expect(judged.interval).toEqual([-3, 7]);
  });

  it("calibration: Kumar et al.'s debiased error of the bins, on bin deviations", () => {
    // One bin: 4 records, 3 right, confidences summing to 2: accuracy 0.75, gap 0.25, s = sqrt(0.75 * 0.25 / 4).
    const bins = { weight: Float64Array.of(4, 0), correct: Float64Array.of(3, 0), confidence: Float64Array.of(2, 0) };
    const components: MetricComponents = { shape: 'calibration', values: Float64Array.of(0.25, 0), deviations: [], bins };
    const judged = judgedOn('ece', components, testsWith(0.1, 0.4), value(0.25), Float64Array.of(0.9));
    // 2|gap| - E|gap + s Z| with s = sqrt(0.75 * 0.25 / 4): 0.22336196431538652 (scipy.stats.norm, python3).
    expect(judged.estimator).toBe('debiased-calibration-error');
    expect(judged.method).toBe('bin-deviations');
    expect(judged.resamples).toBe(0);
    expect(judged.estimate).toBeCloseTo(0.22336196431538652, 7); // erfc's approximation: 1e-8
  });
});
