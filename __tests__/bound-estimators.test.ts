import { describe, expect, it } from '@jest/globals';
import {
  absoluteSumTests,
  biasCorrected,
  debiasedCalibrationError,
  foldedNormalMean,
  minimumTests,
  rangeTests,
} from '../src/stats/bound-estimators.js';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';

const rows = (...values: number[][]) => values.map((row) => Float64Array.from(row));

describe('bias correction and the debiased calibration error', () => {
  it('corrects by the bootstrap bias, leaving out undefined resamples', () => {
    expect(biasCorrected(1, [1, 2, 3, NaN])).toBe(0);
    expect(biasCorrected(0.5, [NaN])).toBeNaN();
  });

  it("takes the folded normal's mean in closed form (checked against quadrature)", () => {
    expect(foldedNormalMean(0, 1)).toBeCloseTo(Math.sqrt(2 / Math.PI), 12);
    expect(foldedNormalMean(-0.3, 0)).toBe(0.3);
    expect(foldedNormalMean(0, 0)).toBe(0); // no spread: |mu|, not the formula's 0 x exp(-0 / 0)
    for (const [mu, s] of [
      [0.1, 0.2],
      [-0.5, 0.3],
      [2, 0.5],
    ]) {
      let integral = 0;
      const step = s / 2000;
      for (let x = mu - 12 * s; x < mu + 12 * s; x += step) {
        const middle = x + step / 2;
        integral += Math.abs(middle) * Math.exp(-((middle - mu) ** 2) / (2 * s * s)) * step;
      }
      expect(foldedNormalMean(mu, s)).toBeCloseTo(integral / (s * Math.sqrt(2 * Math.PI)), 6);
    }
  });

  it("subtracts each bin's normal bias (Kumar, Liang and Ma's estimator), worked by hand", () => {
    // Bin 1: 4 records, 2 right, confidences summing to 2: gap 0, ybar 0.5, s = sqrt(0.25 / 4) = 0.25:
    //   2 * 0 - 0.25 sqrt(2 / pi) = -0.199471. Bin 2: 2 records, both right, confidences 1.6: gap 0.2,
    //   s = 0 (ybar 1): 2 * 0.2 - 0.2 = 0.2. Weighted 4/6 and 2/6: -0.132981 + 0.066667.
    expect(debiasedCalibrationError([4, 2], [2, 2], [2, 1.6])).toBeCloseTo((4 / 6) * -0.25 * Math.sqrt(2 / Math.PI) + (2 / 6) * 0.2, 12);
    // A clearly miscalibrated bin keeps its gap: the bias is negligible there.
    expect(debiasedCalibrationError([1000], [900], [600])).toBeCloseTo(0.3, 6);
    expect(debiasedCalibrationError([0, 0], [0, 0], [0, 0])).toBeNaN();
  });
});

describe('tests on a sum of absolute parts (calibration error)', () => {
  // Parts 0.1 and -0.05 (value 0.15); four resamples' deviations.
  // Made in each test: Stryker counts code run outside every test static.
  const sumTests = () => absoluteSumTests([0.1, -0.05], rows([0.01, 0.02], [-0.03, 0], [0.02, -0.01], [0, 0]));

  it('bounds below by the value minus a quantile of sum |deviation|, worked by hand', () => {
    const tests = sumTests();
    // D* = 0.03, 0.03, 0.03, 0; its 75% quantile (numpy's linear) is 0.03.
    expect(tests.value).toBeCloseTo(0.15, 12);
    expect(tests.bounds(0.25).lower).toBeCloseTo(0.12, 12);
    // Spreads: sqrt(0.0014 / 3) and sqrt(0.000475 / 3); together sqrt(0.000625) = 0.025.
    expect(tests.bounds(0.05).upper).toBeCloseTo(0.15 + normalQuantile(0.95) * 0.025, 12);
  });

  it('gives p-values for either claim', () => {
    const tests = sumTests();
    expect(tests.pAbove(0.13)).toBeCloseTo(4 / 5, 12); // D* >= 0.02: three of four
    expect(tests.pAbove(0.11)).toBeCloseTo(1 / 5, 12); // D* >= 0.04: none
    expect(tests.pAbove(0.2)).toBe(1);
    expect(tests.pBelow(0.2)).toBeCloseTo(normalCdf(-2), 12);
  });
});

describe('tests on a minimum and a range of group accuracies', () => {
  const deviations = rows([0.1, 0], [-0.1, 0.1], [0, -0.1]);

  it('bounds the minimum: plainly below, simultaneously above, worked by hand', () => {
    // Spreads 0.1 and 0.1; max over groups of -deviation / spread: 0, 1, 1.
    const tests = minimumTests([0.7, 0.8], deviations);
    const bounds = tests.bounds(1 / 3);
    expect(bounds.upper).toBeCloseTo(0.8, 12); // c = 1: min(0.7 + 0.1, 0.8 + 0.1)
    expect(bounds.lower).toBeCloseTo(0.7 - normalQuantile(2 / 3) * 0.1, 12);
    expect(tests.pBelow(0.75)).toBeCloseTo(3 / 4, 12); // t = 0.5: two of three maxima at least
    expect(tests.pBelow(0.85)).toBeCloseTo(1 / 4, 12); // t = 1.5: none
    expect(tests.pAbove(0.6)).toBeCloseTo(normalCdf(-1), 12);
  });

  it("floors a group's spread at the pooled variance", () => {
    // Pooled per-record variance (100^2 0.01 + 400^2 0.01) / 500 = 3.4: the small group's spread becomes
    // sqrt(3.4 / 100), the large group keeps its own 0.1 (above sqrt(3.4 / 400)).
    const tests = minimumTests([0.7, 0.8], deviations, [100, 400]);
    expect(tests.pAbove(0.6)).toBeCloseTo(normalCdf(-0.1 / Math.sqrt(3.4 / 100)), 12);
  });

  it('bounds the range: plainly above, simultaneously below, worked by hand', () => {
    // One pair: deviations 0.1, -0.2, 0.1, spread sqrt(0.03); |deviation| / spread: 0.577, 1.155, 0.577.
    const tests = rangeTests([0.7, 0.8], deviations);
    const se = Math.sqrt(0.03);
    expect(tests.value).toBeCloseTo(0.1, 12);
    expect(tests.bounds(0.05).upper).toBeCloseTo(0.1 + normalQuantile(0.95) * se, 12);
    expect(tests.pAbove(0.1 - se)).toBeCloseTo(2 / 4, 12); // t = 1: one maximum at least
    expect(tests.pBelow(0.3)).toBeCloseTo(normalCdf(-0.2 / se), 12);
  });
});
