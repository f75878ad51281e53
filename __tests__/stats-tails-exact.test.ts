import { describe, expect, it } from '@jest/globals';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import { lerp, quantileSorted, weightedQuantileSorted } from '../src/stats/quantile.js';

/*
 * The normal distribution, Wilson's interval and the quantiles at each branch, each boundary and in
 * the far tails, against values computed independently (python3, the tools named at each table).
 */

describe("the normal quantile: Wichura's AS 241 in each of its three regions", () => {
  // p; AS 241 as CPython 3.11 computes it (statistics.NormalDist().inv_cdf(p), a C transcription of
  // the published algorithm), the same double wherever V8's Math.log and the C library's log agree, as
  // they do at each p here (not at p = 0.99: log 0.010000000000000009 differs in its last bit); the
  // true quantile rounded to a double (mpmath 1.3 at 60 digits: the root of log ncdf(x) = log p for
  // the exact double p, by symmetry above 1/2).
  it.each([
    // Central region, |p - 1/2| <= 0.425.
    [0.5, 0, 0],
    [0.3, -0.5244005127080407, -0.5244005127080408],
    [0.7, 0.5244005127080407, 0.5244005127080407],
    // p = 0.075: q = -0.425 exactly, still the central approximation (1 ulp off; the tail one is 2).
    [0.075, -1.4395314709384557, -1.439531470938456],
    // Just past it on either side: the tail approximation with r - 1.6 near 0.
    [0.0749, -1.4402382675279632, -1.4402382675279637],
    [0.925, 1.439531470938456, 1.4395314709384561], // q = 0.42500000000000004
    // Tails with r = sqrt(-log min(p, 1 - p)) <= 5.
    [0.01, -2.3263478740408408, -2.326347874040841],
    [0.95, 1.6448536269514715, 1.6448536269514722],
    [0.975, 1.9599639845400536, 1.9599639845400538],
    [1e-5, -4.2648907939228256, -4.264890793922825],
    [1e-10, -6.361340902404056, -6.361340902404057],
    [1 - 1e-10, 6.361340889697421, 6.361340889697422],
    // r = 5 exactly (log p = -25 in doubles): still the r <= 5 approximation.
    [Math.exp(-25), -6.6579046435011024, -6.657904643501103],
    // The far tails, r > 5, down to the smallest double and up to the largest below 1.
    [1e-12, -7.034483825301132, -7.034483825301132],
    [1 - 1e-12, 7.0344869100478356, 7.0344869100478356],
    [1e-20, -9.262340089798405, -9.262340089798407],
    [1e-50, -14.933337534788489, -14.933337534788489],
    [1e-100, -21.27345356096532, -21.273453560965326],
    [1e-300, -37.0470962993612, -37.0470962993612],
    [Number.MIN_VALUE, -38.46740561714434, -38.467405617144344],
    [1 - 2 ** -53, 8.209536151601386, 8.209536151601387],
  ])('normalQuantile(%p) is AS 241 to the last bit (%p), within 5e-16 of the true quantile', (p, as241, truth) => {
    const value = normalQuantile(p);
    expect(value).toBe(as241);
    expect(Math.abs(value - truth)).toBeLessThanOrEqual(5e-16 * Math.abs(truth));
  });

  it.each([
    [0, -Infinity],
    [1, Infinity],
    [-0.1, NaN],
    [1.1, NaN],
    [-Infinity, NaN],
    [Infinity, NaN],
    [NaN, NaN],
  ])('normalQuantile(%p) = %p: the ends of [0, 1] are infinite, outside is undefined', (p, expected) => {
    expect(normalQuantile(p)).toBe(expected);
  });
});

describe('the normal CDF (Numerical Recipes erfc fit, relative error below 1.2e-7)', () => {
  // x and Phi(x) by scipy 1.17 (scipy.stats.norm.cdf). The fit's error is relative to the smaller
  // tail: erfc/2 is the tail, 1 - erfc/2 the rest.
  it.each([
    [-6, 9.865876450376946e-10],
    [-3, 0.0013498980316300933],
    [-1.5, 0.06680720126885807],
    [-0.5, 0.3085375387259869],
    [-1e-9, 0.49999999960105773],
    [1e-9, 0.5000000003989423],
    [0.5, 0.6914624612740131],
    [1.5, 0.9331927987311419],
    [3, 0.9986501019683699],
  ])('normalCdf(%p) = %p within 1.2e-7 of its smaller tail', (x, phi) => {
    expect(Math.abs(normalCdf(x) - phi)).toBeLessThanOrEqual(1.2e-7 * Math.min(phi, 1 - phi));
  });

  it('x = 0 takes the upper branch, 1 - erfc(0)/2: the fit gives erfc(0) = exp(sum of its coefficients) = 1 + 3.0e-8', () => {
    // python3: 1 - math.exp(math.fsum([-1.26551223, 1.00002368, ..., 0.17087277])) / 2. The lower
    // branch, erfc(0)/2, would be 0.5000000150000002.
    expect(normalCdf(0)).toBeCloseTo(0.49999998499999976, 15);
    expect(normalCdf(-0)).toBeCloseTo(0.49999998499999976, 15);
  });
});

describe("Wilson's score interval", () => {
  it.each([
    ['no trial', 0, 0],
    ['no trial, one success', 1, 0],
    ['a count of trials that is not a number', 0, NaN],
    ['negative trials', 0, -1],
    ['negative successes', -1, 5],
    ['more successes than trials', 6, 5],
  ])('none with %s (%p of %p)', (_, successes, n) => {
    expect(wilsonInterval(successes, n)).toBeUndefined();
  });

  // successes, n, level; the bounds by scipy 1.17:
  // scipy.stats.binomtest(successes, n).proportion_ci(confidence_level=level, method='wilson').
  it.each([
    [2, 7, 0.95, 0.08221892400405673, 0.6410655481673807],
    [3, 4, 0.95, 0.30064184258240184, 0.9544127391902995],
    [1, 2, 0.9, 0.12086631942227366, 0.8791336805777263],
    [5, 10, 0.99, 0.1842255182472355, 0.8157744817527646],
    [1, 1, 0.95, 0.20654931437723745, 1],
    [0, 1, 0.95, 0, 0.7934506856227626],
    [0, 10, 0.95, 0, 0.27753279986288926],
    [10, 10, 0.95, 0.7224672001371109, 1],
  ])('%p of %p at %p: [%p, %p]', (successes, n, level, low, high) => {
    const interval = wilsonInterval(successes, n, level)!;
    expect(interval[0]).toBeCloseTo(low, 14);
    expect(interval[1]).toBeCloseTo(high, 14);
  });

  it.each([
    // The formula's upper bound at n of n rounds to 0.9999999999999999 (7 of 7 at 95%) or to
    // 1.0000000000000002 (3 of 3 at 80%); its lower bound at 0 of n to a few 1e-17.
    [7, 7, 0.95],
    [3, 3, 0.8],
    [0, 7, 0.95],
    [0, 3, 0.8],
  ])('%p of %p at %p: the end at 0 or n successes is 0 or 1 exactly', (successes, n, level) => {
    const [low, high] = wilsonInterval(successes, n, level)!;
    if (successes === 0) expect(low).toBe(0);
    else expect(high).toBe(1);
    expect(low).toBeLessThan(high);
  });
});

describe("numpy's linear quantile to the last bit", () => {
  // low, high, t; numpy 2.4's np.quantile([low, high], t): low + (high - low) t below t = 1/2, high -
  // (high - low)(1 - t) from it on. The other formula would give the number in the comment.
  it.each([
    [0.1, 0.7, 0.3, 0.28], // 0.27999999999999997
    [0.1, 1.1, 0.5, 0.6000000000000001], // 0.6
    [0.1, 0.7, 0.7, 0.5199999999999999], // 0.52
  ])('lerp(%p, %p, %p) = %p', (low, high, t, expected) => {
    expect(lerp(low, high, t)).toBe(expected);
    expect(quantileSorted([low, high], t)).toBe(expected);
  });

  // weightedQuantileSorted(sorted, instanceOf, weights, total, q) is quantileSorted of the list where
  // sorted[i] appears weights[instanceOf[i]] times; expected: numpy 2.4's np.quantile of that list.
  const expand = (sorted: number[], instanceOf: number[], weights: number[]) =>
    sorted.flatMap((value, index) => new Array<number>(weights[instanceOf[index]]).fill(value));
  const weighted = (sorted: number[], instanceOf: number[], weights: number[], q: number) =>
    weightedQuantileSorted(
      Float64Array.from(sorted),
      Int32Array.from(instanceOf),
      Float64Array.from(weights),
      expand(sorted, instanceOf, weights).length,
      q,
    );

  it.each([
    ['the median of two, from the bottom: the second copy is the high rank', [1, 2], [0, 1], [1, 1], 0.5, 1.5],
    ['from the top down to the first value, [1, 1, 1, 2] at 0.7', [1, 2], [0, 1], [3, 1], 0.7, 1.0999999999999996],
    [
      'from the top: the copy at rank 4 of 6 is the fifth value, not the sixth',
      [1, 2, 3, 4, 5, 6],
      [0, 1, 2, 3, 4, 5],
      [1, 1, 1, 1, 1, 1],
      0.7,
      4.5,
    ],
    ['one copy in all, at 0.5', [1, 2, 3], [0, 1, 2], [0, 1, 0], 0.5, 2],
    ['one copy in all, at 1', [1, 2, 3], [0, 1, 2], [0, 1, 0], 1, 2],
    ['one copy in all, at 0', [1, 2, 3], [0, 1, 2], [0, 1, 0], 0, 2],
    // Two instances with two values each: [0.1, 0.7, 0.7, 1.1, 2.3, 2.3].
    ['shared instances, at 0.1', [0.1, 0.7, 1.1, 2.3], [1, 0, 1, 0], [2, 1], 0.1, 0.39999999999999997],
    ['shared instances, at 0.3', [0.1, 0.7, 1.1, 2.3], [1, 0, 1, 0], [2, 1], 0.3, 0.7],
    ['shared instances, at 0.5', [0.1, 0.7, 1.1, 2.3], [1, 0, 1, 0], [2, 1], 0.5, 0.9],
    ['shared instances, at 0.95', [0.1, 0.7, 1.1, 2.3], [1, 0, 1, 0], [2, 1], 0.95, 2.3],
  ])('%s', (_, sorted, instanceOf, weights, q, expected) => {
    expect(weighted(sorted, instanceOf, weights, q)).toBe(expected);
  });

  it('is quantileSorted of the expanded list at every twentieth', () => {
    const sorted = [0.1, 0.7, 1.1, 2.3, 2.9];
    const instanceOf = [2, 0, 1, 2, 0];
    const weights = [3, 0, 2];
    const expanded = expand(sorted, instanceOf, weights); // [0.1, 0.1, 0.7 x 3, 2.3 x 2, 2.9 x 3]
    for (let k = 0; k <= 20; k++) expect(weighted(sorted, instanceOf, weights, k / 20)).toBe(quantileSorted(expanded, k / 20));
  });

  it.each([
    ['a resample that drew none of the values (total 0)', [1, 2], [0, 1], [0, 0]],
    ['no value', [], [], []],
  ])('none of %s: NaN', (_, sorted, instanceOf, weights) => {
    expect(weighted(sorted, instanceOf, weights, 0.5)).toBeNaN();
    expect(weighted(sorted, instanceOf, weights, 0.95)).toBeNaN();
  });
});
