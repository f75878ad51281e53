import { describe, expect, it } from '@jest/globals';
import { absoluteSumTests, type BoundTests, minimumTests, rangeTests } from '../src/stats/bound-estimators.js';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';

/*
 * The tests on biased metrics (src/stats/bound-estimators.ts) on a few resamples' deviations worked out
 * by hand, at their edges: a deviation that is NaN (a resample without the component), a component
 * without spread, resampled statistics equal to the observed one, one-sided maxima that are not
 * symmetric, bounds clamped at 0. Deviations are multiples of 1/4 so that sums and comparisons are exact.
 */

const rows = (...values: number[][]) => values.map((row) => Float64Array.from(row));

// The fixtures, and the values expected of them that the code under test computes, are made inside
// each test: code run outside every test is counted static by Stryker, and its mutants then run every test.
type Fixture = () => BoundTests;
type Expected = number | (() => number);
const valueOf = (expected: Expected) => (typeof expected === 'function' ? expected() : expected);
/** Phi(z), the normal p-value of a test from the spreads. */
const phi = (z: number) => () => normalCdf(z);

// Calibration error from parts 1/4 and -1/4 (value 1/2).
// D* = 1/4, 1/4, 1/2, 0; spreads sqrt(1/48) and sqrt(1/24), together sqrt(3/48) = 1/4.
const calibration = () => absoluteSumTests([0.25, -0.25], rows([0.25, 0], [0, -0.25], [0.25, 0.25], [0, 0]));
// A NaN deviation leaves out its part only: D* = 1/4, 1/2, 0; spreads of [1/2, 0] and [1/4, 0]: variances 1/8 + 1/32 = 5/32.
const calibrationPartly = () => absoluteSumTests([0.25, -0.25], rows([NaN, 0.25], [0.5, NaN], [0, 0]));
// The second part has one deviation, no spread: s is the first part's, 1/4.
const calibrationOneSpread = () => absoluteSumTests([0.25, -0.25], rows([0.25, NaN], [-0.25, NaN], [0, 0]));
// No deviation at all: D* = 0, 0 and s = 0.
const calibrationStill = () => absoluteSumTests([0.25, -0.25], rows([0, 0], [0, 0]));

// Worst group of one: deviations 3/4, -1/4, -1/4, -1/4 (mean 0, spread sqrt(3/4 / 3) = 1/2); how far
// below, -t: -3/2, 1/2, 1/2, 1/2 (+t would give 3/2, -1/2, -1/2, -1/2).
const worstAsymmetric = () => minimumTests([0.5], rows([0.75], [-0.25], [-0.25], [-0.25]));
// Groups at 3/4 and 1/2 that never move.
const worstStill = () => minimumTests([0.75, 0.5], rows([0, 0], [0, 0]));
// Spreads sqrt(1/6) (0.5, -0.5, 0, 0) and 1/2 (0, 0.5, -0.5; the NaN left out). -t per resample: 0,
// 0.5 / sqrt(1/6) = 1.2247 (the second group absent), 0, 1.
const worstPartly = () => minimumTests([0.5, 0.5], rows([0.5, 0], [-0.5, NaN], [0, 0.5], [0, -0.5]));
// Spread 1/2 (0.5, -0.5, 0); -t: -1, 1, 0; the last resample holds no group and has no maximum.
const worstEmptyResample = () => minimumTests([0.5], rows([0.5], [-0.5], [0], [NaN]));
// The second group never moves (spread 0): left out of the maxima, which are the first group's -1, 1, 0.
const worstOneStill = () => minimumTests([0.5, 0.75], rows([0.5, 0], [-0.5, 0], [0, 0]));
// The second group (the worst, 1/2) has no deviation: no spread of its own. With sizes 4 and 4 the pooled
// per-record variance is 4^2 (1/2)^2 / 4 = 4, a spread of sqrt(4 / 4) / 2 = 1/2 for each group; without, none.
const worstDeviations = () => rows([0.5, NaN], [-0.5, NaN], [0, NaN]);
const worstFloored = () => minimumTests([0.75, 0.5], worstDeviations(), [4, 4]);
const worstUnfloored = () => minimumTests([0.75, 0.5], worstDeviations());
// Sizes that sum to 0 pool nothing: the spreads stay 1/2 and 1/2.
const worstNoWeight = () => minimumTests([0.75, 0.5], rows([0.5, 0.5], [-0.5, -0.5], [0, 0]), [0, 0]);

// Gap between 1/4 and 3/4 (1/2): the pair's deviations 3/4, -1/4, -1/4, -1/4, spread 1/2; |t|: 3/2,
// 1/2, 1/2, 1/2 (-t would give -3/2, 1/2, 1/2, 1/2).
const gapAsymmetric = () => rangeTests([0.25, 0.75], rows([0.75, 0], [-0.25, 0], [0, 0.25], [-0.25, 0]));
const gapStill = () => rangeTests([0.25, 0.75], rows([0, 0], [0, 0]));

describe('the values', () => {
  it('the worst group is the smallest, the gap the widest', () => {
    expect(worstStill().value).toBe(0.5);
    expect(gapAsymmetric().value).toBe(0.5);
  });
});

describe('p-values, worked by hand', () => {
  it.each<[string, Fixture, 'pAbove' | 'pBelow', number, number]>([
    // value - limit = 1/4: D* at least 1/4 are 1/4, 1/4, 1/2.
    ['a sum: resampled distances equal to the observed one count', calibration, 'pAbove', 0.25, 4 / 5],
    ['a sum: one distance beyond 1/2', calibration, 'pAbove', 0, 2 / 5],
    ['a sum: a NaN deviation leaves out only its part (1/4 and 1/2 of 3)', calibrationPartly, 'pAbove', 0.25, 3 / 4],
    ['a sum without resampled distance: (0 + 1) / (2 + 1)', calibrationStill, 'pAbove', 0.25, 1 / 3],
    // t = (limit - 1/2) / (1/2).
    ['a minimum: how far below, not above (t = 0)', worstAsymmetric, 'pBelow', 0.5, 4 / 5],
    ['a minimum: how far below, not above (t = 3/4)', worstAsymmetric, 'pBelow', 0.875, 1 / 5],
    // t = (3/4 - 1/2) / sqrt(1/6) = 0.61: the maxima 1.22 and 1.
    ['a minimum: a NaN deviation leaves out that group only', worstPartly, 'pBelow', 0.75, 3 / 5],
    // t = 0: the maxima 1 and 0, of three.
    ['a minimum: a resample holding no group has no maximum', worstEmptyResample, 'pBelow', 0.5, 3 / 4],
    // t = max(1/2, 0 for the still group at the limit): the maximum 1, of three.
    ['a minimum: a group without spread is left out of the maxima', worstOneStill, 'pBelow', 0.75, 2 / 4],
    // t = (1/2 - limit) / (1/2).
    ['a gap: either way (t = 1)', gapAsymmetric, 'pAbove', 0, 2 / 5],
    ['a gap: either way (t = 1/2)', gapAsymmetric, 'pAbove', 0.25, 1],
  ])('%s', (_, tests, claim, limit, expected) => {
    expect(tests()[claim](limit)).toBeCloseTo(expected, 12);
  });

  it.each<[string, Fixture, 'pAbove' | 'pBelow', number, Expected]>([
    ['a sum: the parts spreads together (1/4)', calibration, 'pBelow', 0.75, phi(-1)],
    ['a sum: spreads without the NaN deviations (sqrt(5/32))', calibrationPartly, 'pBelow', 1, phi(-0.5 / Math.sqrt(5 / 32))],
    ['a sum: a part without spread adds none', calibrationOneSpread, 'pBelow', 0.75, phi(-1)],
    ['a minimum: a still group above the limit adds nothing', worstOneStill, 'pAbove', 0.25, phi(-0.5)],
    ['a minimum: a still group below the limit decides', worstOneStill, 'pAbove', 0.875, 1],
    ['a minimum: the pooled spread given to a group without one', worstFloored, 'pAbove', 0.25, phi(-0.5)],
    ['a minimum: a group without spread, no sizes', worstUnfloored, 'pAbove', 0.25, phi(-1)],
    ['a minimum: sizes summing to 0 pool nothing', worstNoWeight, 'pAbove', 0.25, phi(-0.5)],
  ])('from the spreads: %s', (_, tests, claim, limit, expected) => {
    expect(tests()[claim](limit)).toBeCloseTo(valueOf(expected), 12);
  });

  it.each<[string, Fixture, 'pAbove' | 'pBelow', number, Expected]>([
    ['a sum below the limit', calibrationStill, 'pBelow', 0.625, 0],
    ['a sum at the limit', calibrationStill, 'pBelow', 0.5, 1],
    ['a sum above the limit', calibrationStill, 'pBelow', 0.375, 1],
    ['a minimum whose worst group is below the limit', worstStill, 'pAbove', 0.625, 1],
    ['a minimum whose worst group is at the limit', worstStill, 'pAbove', 0.5, phi(0)],
    ['a minimum whose groups are above the limit', worstStill, 'pAbove', 0.25, 0],
    ['a gap above the limit', gapStill, 'pBelow', 0.25, 1],
    ['a gap at the limit', gapStill, 'pBelow', 0.5, phi(0)],
    ['a gap below the limit', gapStill, 'pBelow', 0.75, 0],
    // Max-t with groups that never move: each of the 2 resamples' maximum is 0 (nothing strays), t is
    // +Infinity beyond the limit (shown beyond it, as every resample is), 0 on it, -Infinity within.
    ['a minimum whose worst group is below the limit, shown below', worstStill, 'pBelow', 0.625, 1 / 3],
    ['a minimum whose worst group is at the limit, not shown below', worstStill, 'pBelow', 0.5, 1],
    ['a minimum whose groups are above the limit, not shown below', worstStill, 'pBelow', 0.25, 1],
    ['a gap above the limit, shown above', gapStill, 'pAbove', 0.25, 1 / 3],
    ['a gap at the limit, not shown above', gapStill, 'pAbove', 0.5, 1],
    ['a gap below the limit, not shown above', gapStill, 'pAbove', 0.75, 1],
  ])('without any spread: %s', (_, tests, claim, limit, expected) => {
    expect(tests()[claim](limit)).toBe(valueOf(expected));
  });
});

describe('bounds, worked by hand', () => {
  it.each<[string, Fixture, number, 'lower' | 'upper', Expected]>([
    ['a sum: the median of D* (1/4)', calibration, 0.5, 'lower', 0.25],
    ['a sum: the 75% quantile of D* (5/16)', calibration, 0.25, 'lower', 0.1875],
    ['a sum: a part without spread adds none', calibrationOneSpread, 0.25, 'upper', () => 0.5 + normalQuantile(0.75) * 0.25],
    ['a minimum: c = the median of -t (1/2)', worstAsymmetric, 0.5, 'upper', 0.75],
    ['a minimum: c = the median of -t, without the resample holding no group (0)', worstEmptyResample, 0.5, 'upper', 0.5],
    ['a gap: c = the median of |t| (1/2)', gapAsymmetric, 0.5, 'lower', 0.25],
    ['a gap: c = the 75% quantile of |t| (3/4)', gapAsymmetric, 0.25, 'lower', 0.125],
    ['a gap: c = the 90% quantile of |t| (6/5), clamped at 0', gapAsymmetric, 0.1, 'lower', 0],
  ])('%s', (_, tests, alpha, side, expected) => {
    expect(tests().bounds(alpha)[side]).toBeCloseTo(valueOf(expected), 12);
  });
});
