import { describe, expect, it } from '@jest/globals';
import { adjustPValues } from '../src/gate/multiplicity.js';
import {
  defaultDetect,
  instancesToDetect,
  isUnitMetric,
  minimumDetectableWorsening,
  plannedSpread,
  samplesToDetect,
  standardErrorToDetect,
} from '../src/gate/power.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { pairedBootstrap, percentileInterval, standardDeviation } from '../src/stats/bootstrap.js';
import { lerp, quantileSorted } from '../src/stats/quantile.js';
import { overallValues, record } from './helpers/records.js';

/*
 * The statistics under the gate pinned on tiny hand-made inputs, and the intervals the defaults give
 * on a fixed records file: a change to a default, a smoothing term or a formula moves a number here.
 */

const Z95 = 1.6448536269514715; // z(0.95)
const Z80 = 0.8416212335729144; // z(0.8)

describe('the paired bootstrap on differences known in advance', () => {
  // Every resample sees the same difference: the estimators ignore the weights.
  const constant = (difference: number) => () => ({ candidate: () => 0.5 + difference, baseline: () => 0.5 });
  const options = { resamples: 9, seed: 1 };

  it.each([
    // (resamples not above 0 + 1) / (B + 1), (not below + 1) / (B + 1), with B = 9.
    ['above 0 on every resample', 0.25, 1 / 10, 1],
    ['below 0 on every resample', -0.25, 1, 1 / 10],
    ['exactly 0 on every resample: neither side', 0, 1, 1],
  ])('%s: pAbove and pBelow pinned', (_, difference, pAbove, pBelow) => {
    const paired = pairedBootstrap(constant(difference), 5, options);
    expect(paired).toMatchObject({ difference, pAbove, pBelow, resamples: 9, ci: [difference, difference], sd: 0 });
    expect(Array.from(paired.baselines)).toEqual(new Array(9).fill(0.5));
  });

  it('leaves out resamples on which the difference is undefined, and has no interval without one', () => {
    const undefinedEverywhere = pairedBootstrap(() => ({ candidate: () => NaN, baseline: () => 0.5 }), 5, options);
    expect(undefinedEverywhere).toMatchObject({ resamples: 0, ci: undefined, pAbove: 1, pBelow: 1 });
    expect(undefinedEverywhere.sd).toBeNaN();
  });
});

describe('quantiles, intervals and spreads', () => {
  it.each([
    ['one value, any q', [5], 0.95, 5],
    ['one value, q = 0', [5], 0, 5],
    ['no value', [], 0.5, NaN],
    ['the median of an even count interpolates', [1, 2, 3, 4], 0.5, 2.5],
    ['q = 1 is the largest', [1, 2, 3, 4], 1, 4],
    ['a quarter of the way', [0, 10, 20, 30, 40], 0.3, 12],
  ])('quantileSorted: %s', (_, values, q, expected) => {
    expect(quantileSorted(values, q)).toBe(expected);
  });

  it.each([
    [0, 10, 0.25, 2.5],
    [0, 10, 0.5, 5],
    [0, 10, 0.75, 7.5],
    [2, 2, 0.3, 2],
  ])('lerp(%d, %d, %d) = %d from either end', (low, high, t, expected) => {
    expect(lerp(low, high, t)).toBe(expected);
  });

  it('the percentile interval is its two tails; none without a value', () => {
    expect(percentileInterval(Float64Array.from([5, 1, 4, 2, 3]), 0.5)).toEqual([2, 4]);
    expect(percentileInterval(Float64Array.from([5, 1, 4, 2, 3]))).toEqual([1.1, 4.9]);
    expect(percentileInterval(new Float64Array(0))).toBeUndefined();
  });

  it.each([
    ['none', [], NaN],
    ['one value', [3], NaN],
    ['two values (n - 1)', [1, 3], Math.SQRT2],
    ['equal values', [2, 2, 2], 0],
  ])('standardDeviation of %s', (_, values, expected) => {
    expect(standardDeviation(Float64Array.from(values))).toBe(expected);
  });
});

describe('multiplicity', () => {
  it.each([
    ['none', [0.01, 0.04, 0.03], [0.01, 0.04, 0.03]],
    ['bonferroni', [0.01, 0.04, 0.03], [0.03, 0.12, 0.09]],
    ['bonferroni', [0.5, 0.25], [1, 0.5]],
    // Sorted 0.01, 0.03, 0.04: 3 x 0.01, max(0.03, 2 x 0.03), max(0.06, 1 x 0.04).
    ['holm', [0.01, 0.04, 0.03], [0.03, 0.06, 0.06]],
    ['holm', [0.6, 0.5], [1, 1]],
    ['holm', [], []],
  ] as const)('%s adjusts %j to %j', (method, raw, adjusted) => {
    expect(adjustPValues(method, raw)).toEqual(adjusted.map((p) => expect.closeTo(p, 12)));
  });
});

describe('power and planning', () => {
  it('MDE80 = b + (z(1 - alpha) + z(0.8)) sigma', () => {
    expect(minimumDetectableWorsening(0.1, 0.02, 0.05)).toBeCloseTo(0.02 + (Z95 + Z80) * 0.1, 12);
  });

  it.each([
    ['accuracy', 0.01, 0.05],
    ['accuracy', 0.02, 0.06],
    ['accuracy', 0, 0.05],
    ['accuracy', '0%', 0.05],
    ['accuracy', '5%', '15%'],
    ['latency_p95_ms', 10, 30],
    ['latency_p95_ms', '5%', '15%'],
    ['latency_p95_ms', 0, '10%'],
    ['latency_p95_ms', '0%', '10%'],
  ])('the default detect of %s with budget %j is %j', (metric, budget, detect) => {
    const found = defaultDetect(metric, budget);
    if (typeof detect === 'number') expect(found).toBeCloseTo(detect, 12);
    else expect(found).toBe(detect);
  });

  it.each([
    ['accuracy', true],
    ['worst_group_accuracy:dialect', true],
    ['latency_p95_ms', false],
    ['cost_usd_total', false],
    ['log_likelihood', false],
  ])('%s is a unit metric: %s', (metric, unit) => {
    expect(isUnitMetric(metric)).toBe(unit);
  });

  it.each([
    ['the floor of 0/1 scores', 0.01, true, 0.05, 100, Math.sqrt((0.05 * 0.95) / 100)],
    ['the bootstrap above the floor', 0.05, true, 0.05, 100, 0.05],
    ['no floor off [0, 1]', 0.01, false, 0.05, 100, 0.01],
    ['no floor without instances', 0.01, true, 0.05, 0, 0.01],
    ['no detect: no floor', 0.01, true, null, 100, 0.01],
    ['a detect beyond 1 is clamped', 0.01, true, 2, 100, 0.01],
  ])('plannedSpread: %s', (_, sd, unit, detect, instances, expected) => {
    expect(plannedSpread(sd, unit, detect, instances)).toBeCloseTo(expected, 12);
  });

  it('the standard error to plan for, and none when detect is not above the budget', () => {
    expect(standardErrorToDetect(0.1, 0.02, 0.05)).toBeCloseTo((0.85 * 0.08) / (Z95 + Z80), 12);
    expect(standardErrorToDetect(0.05, 0.05, 0.05)).toBeUndefined();
  });

  it.each([
    // n (spread / needed)^2 = 10 x 1/4 = 2.5: rounded up.
    ['rounds up', 1, 10, 2, 1, 3],
    ['never below the minimum', 1, 10, 2, 20, 20],
    ['exact', 2, 10, 1, 1, 40],
  ])('instancesToDetect %s', (_, spread, instances, needed, minimum, expected) => {
    expect(instancesToDetect(spread, instances, needed, minimum)).toBe(expected);
  });

  it.each([
    // room = (needed / spread)^2 - (1 - share); K' = ceil(share K / room).
    ['rounds up: 5 / 4 samples -> 2', 1, 1, 5, 2, 2],
    ['rounds up: 9 x 0.5 / 3.5 -> 2', 1, 0.5, 9, 2, 2],
    ['at least one', 1, 1, 1, 2, 1],
    ['no room at all (exactly 0): more samples cannot reach it', 1, 0, 4, 1, undefined],
    ['the part between instances alone is over', 1, 0.1, 4, 0.5, undefined],
  ])('samplesToDetect %s', (_, spread, share, samples, needed, expected) => {
    expect(samplesToDetect(spread, share, samples, needed)).toBe(expected);
  });
});

describe('metric definitions at their edges', () => {
  it('a group no resample drew is left out of its interval, not counted as 0 (an empty ratio slot is NaN)', () => {
    // One instance of 100 in the group "rare", right: every resample that draws it gives 1.
    const records = Array.from({ length: 100 }, (_, i) =>
      record({ id: String(i), correct: i === 0 ? 1 : 0, groups: { dialect: i === 0 ? 'rare' : 'common' } }),
    );
    const metrics = computeMetrics(buildTable(records), { resamples: 200, seed: 1, minGroupSize: 1 });
    expect(metrics.overall['group_accuracy:dialect=rare']).toMatchObject({ value: 1, ci: [1, 1], n: 1 });
  });

  it.each([
    ['a group of exactly min_group_size counts', 10, { 'worst_group_accuracy:dialect': 0, 'group_accuracy_gap:dialect': 1 }],
    ['a group one record short does not', 9, {}],
  ])('%s', (_, size, expected) => {
    const records = [
      ...Array.from({ length: 10 }, (_, i) => record({ id: `a${i}`, correct: 1, groups: { dialect: 'a' } })),
      ...Array.from({ length: size }, (_, i) => record({ id: `b${i}`, correct: 0, groups: { dialect: 'b' } })),
    ];
    const values = overallValues(records, 10);
    const worst = Object.fromEntries(Object.entries(values).filter(([name]) => /^(worst_group_accuracy|group_accuracy_gap):/.test(name)));
    expect(worst).toEqual(expected);
  });
});
