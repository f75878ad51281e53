import { describe, expect, it } from '@jest/globals';
import { minimumTests, rangeTests } from '../src/stats/bound-estimators.js';
import { multinomialDrawer } from '../src/stats/bootstrap.js';
import { quantileSorted } from '../src/stats/quantile.js';
import { Random } from '../src/stats/random.js';

/*
 * The error rate of the bounds on a worst group and a gap, by simulation (seeded): a statistical test,
 * seconds long, so not among the mutation tests (__tests__/mutation/decision-tests.ts), whose exact
 * cases of the same estimators are in bound-estimators.test.ts.
 */

/** Seeded trials: groups (or bins) with equal true values, bootstrapped as the gate would. */
function equalGroupsTrials(trials: number) {
  const random = new Random(2101);
  const sizes = [60, 40, 20];
  const n = sizes.reduce((a, b) => a + b, 0);
  const group = Int32Array.from(sizes.flatMap((size, g) => Array.from({ length: size }, () => g)));
  const draw = multinomialDrawer(n, n);
  const counts = new Float64Array(n);
  const results = { devMin: 0, devRange: 0, percentileMin: 0, percentileRange: 0 };
  for (let trial = 0; trial < trials; trial++) {
    const correct = Float64Array.from({ length: n }, () => (random.nextFloat() < 0.75 ? 1 : 0));
    const accuracies = (weights: Float64Array) => {
      const right = [0, 0, 0];
      const total = [0, 0, 0];
      for (let i = 0; i < n; i++) {
        right[group[i]] += weights[i] * correct[i];
        total[group[i]] += weights[i];
      }
      return right.map((r, g) => r / total[g]);
    };
    const values = accuracies(new Float64Array(n).fill(1));
    const deviations: Float64Array[] = [];
    const minima: number[] = [];
    const ranges: number[] = [];
    for (let r = 0; r < 200; r++) {
      draw(random, counts);
      const resampled = accuracies(counts);
      deviations.push(Float64Array.from(resampled, (a, g) => a - values[g]));
      minima.push(Math.min(...resampled));
      ranges.push(Math.max(...resampled) - Math.min(...resampled));
    }
    // Lenient bounds at the true values: a min of 0.75, a max gap of 0.
    if (minimumTests(values, deviations, sizes).pBelow(0.75) < 0.05) results.devMin++;
    if (rangeTests(values, deviations, sizes).pAbove(0) < 0.05) results.devRange++;
    if (quantileSorted(Float64Array.from(minima).sort(), 0.95) < 0.75) results.percentileMin++;
    if (quantileSorted(Float64Array.from(ranges).sort(), 0.05) > 0) results.percentileRange++;
  }
  return results;
}

describe('error control where the plug-in is most biased', () => {
  it('blocks lenient bounds at the true worst group and gap about alpha of the time, where the percentile bootstrap blocks far more', () => {
    const trials = 200;
    const results = equalGroupsTrials(trials);
    expect(results.devMin / trials).toBeLessThanOrEqual(0.08);
    expect(results.devRange / trials).toBeLessThanOrEqual(0.08);
    // The rule before: the minimum's resamples lie below the truth most of the time, the range's above.
    expect(results.percentileMin / trials).toBeGreaterThan(0.3);
    expect(results.percentileRange / trials).toBeGreaterThan(0.9);
  });
});
