import { describe, expect, it } from '@jest/globals';
import { type SampledUnits, varianceComponents } from '../src/stats/variance-components.js';

/*
 * The split of a mean's variance into the part between units and the sampling noise within groups
 * (src/stats/variance-components.ts; docs/statistics.md, "Samples per example") on tiny one-way ANOVA
 * tables worked out by hand, and checked in exact fractions with python3 (fractions.Fraction, the
 * formulas of docs/statistics.md). The comparison with the Python reference on random units, which
 * starts a program, is in plan.test.ts.
 */

type Split = { between: number; within: number; samples: number; share: number; units: number };

function expectSplit(runs: SampledUnits[], expected: Split) {
  const split = varianceComponents(runs);
  expect(split).toBeDefined();
  for (const key of ['between', 'within', 'samples', 'share'] as const) {
    expect([key, split![key]]).toEqual([key, expect.closeTo(expected[key], 12)]);
  }
  expect(split!.units).toBe(expected.units);
}

describe('the split of the variance (one-way random-effects ANOVA)', () => {
  it.each<[string, SampledUnits[], Split]>([
    [
      // Examples A = [1, 1, 0], B = [0, 0], C = [1, 0, 1, 1]; means 2/3, 0, 3/4.
      // Within: SS = (2 (1/3)^2 + (2/3)^2) + 0 + (3 (1/4)^2 + (3/4)^2) = 2/3 + 3/4 = 17/12 on 2 + 1 + 3 = 6
      // degrees of freedom: sigma_w^2 = 17/72. Sampling adds sigma_w^2 mean(1/K) = 17/72 x 13/36 = 221/2592,
      // so K = 36/13 (the harmonic mean of 3, 2, 4). The means' variance: mean 17/36, deviations 7/36,
      // -17/36, 10/36: S^2 = (49 + 289 + 100) / 1296 / 2 = 219/1296; sigma_b^2 = 219/1296 - 221/2592 = 217/2592;
      // share = (221/2592) / (219/1296) = 221/438.
      'one run, one example per unit, unequal samples',
      [[[[1, 1, 0]], [[0, 0]], [[1, 0, 1, 1]]]],
      { between: 217 / 2592, within: 17 / 72, samples: 36 / 13, share: 221 / 438, units: 3 },
    ],
    [
      // Unit 1: [1, 1] (mean 1, SS 0, 1 df) and [1] (no df): value 1, c = (1/2 + 1) / 2^2 = 3/8.
      // Unit 2: [0, 1] (1/2, SS 1/2, 1 df) and [0, 0, 0] (0, SS 0, 2 df): value 1/4, c = (1/2 + 1/3) / 4 = 5/24.
      // Unit 3: [0, 0] (0, 1 df), [1, 0] (1/2, SS 1/2, 1 df), [0]: value 1/6, c = (1/2 + 1/2 + 1) / 9 = 2/9.
      // sigma_w^2 = 1 / 6 (SS 1 on 6 df); within (one sample per example) = 1/6 x mean(1/E) = 1/6 x 4/9 = 2/27;
      // sampling = 1/6 x mean(c) = 1/6 x 29/108 = 29/648; K = (2/27) / (29/648) = 48/29. Values 1, 1/4, 1/6
      // (mean 17/36, deviations 19, -8, -11 / 36): S^2 = 546/1296 / 2 = 273/1296; sigma_b^2 = 273/1296 -
      // 58/1296 = 215/1296; share = 58/273.
      'several examples per unit, groups of one sample among them',
      [
        [
          [[1, 1], [1]],
          [
            [0, 1],
            [0, 0, 0],
          ],
          [[0, 0], [1, 0], [0]],
        ],
      ],
      { between: 215 / 1296, within: 2 / 27, samples: 48 / 29, share: 58 / 273, units: 3 },
    ],
    [
      // Candidate A = [1, 0], B = [1, 1], C = [0, 0]: SS 1/2 on 3 degrees, s_c^2 = 1/6, K_c = 2.
      // Baseline A = [1, 1, 1], B = [0, 1, 0], C = [0, 1, 1]: SS 0 + 2/3 + 2/3 on 6, s_b^2 = 2/9, K_b = 3.
      // Sampling adds s_c^2 / 2 + s_b^2 / 3 = 1/12 + 2/27 = 17/108 to a difference; within (at K = 1)
      // 1/6 + 2/9 = 7/18, so K = (7/18) / (17/108) = 42/17. The differences -1/2, 2/3, -2/3 (mean -1/6):
      // S^2 = (1/9 + 25/36 + 1/4) / 2 = 19/36; sigma_b^2 = 19/36 - 17/108 = 10/27. The fourth unit, missing
      // in the baseline, is left out.
      'two runs paired on their units; a unit missing in a run left out',
      [
        [[[1, 0]], [[1, 1]], [[0, 0]], [[1, 1]]],
        [[[1, 1, 1]], [[0, 1, 0]], [[0, 1, 1]], []],
      ],
      { between: 10 / 27, within: 7 / 18, samples: 42 / 17, share: 17 / 57, units: 3 },
    ],
  ])('%s', (_, runs, expected) => expectSplit(runs, expected));

  it.each<[string, SampledUnits[], Split]>([
    [
      // [1, 0] and [0, 1]: SS 1/2 + 1/2 on 2 df, sigma_w^2 = 1/2, sampling 1/4; both means 1/2, S^2 = 0:
      // sigma_b^2 = max(0, -1/4) = 0, and all of the variance is sampling noise.
      'units that agree, samples that do not: two units, the least there is',
      [[[[1, 0]], [[0, 1]]]],
      { between: 0, within: 1 / 2, samples: 2, share: 1, units: 2 },
    ],
    [
      // The unit without examples is left out. [1, 0] (SS 1/2, 1 df), [0, 0, 1] (SS 2/3, 2 df):
      // sigma_w^2 = 7/18; sampling 7/18 x (1/2 + 1/3) / 2 = 35/216; K = 12/5. Means 1/2, 1/3: S^2 = 1/72,
      // below the sampling part: sigma_b^2 = max(0, 1/72 - 35/216) = 0.
      'a unit without examples left out; the estimate below 0 clamped',
      [[[[1, 0]], [], [[0, 0, 1]]]],
      { between: 0, within: 7 / 18, samples: 12 / 5, share: 1, units: 2 },
    ],
    [
      // Computed in fractions (python3): candidate sigma_w^2 = 7/24 (SS 7/6 on 4 df), mean(1/E) = 2/3,
      // mean(c) = 13/36; baseline 1/4 (SS 1 on 4 df), 7/9, 11/27. within = 7/36 + 7/36 = 7/18, sampling
      // 7/24 x 13/36 + 1/4 x 11/27 = 179/864, K = 336/179. Differences -1/4, -1/2, 1/6: S^2 = 49/432 <
      // 179/864, so sigma_b^2 = 0.
      'paired runs with several examples per unit, clamped',
      [
        [[[1, 0], [1]], [[0, 0], [0]], [[1, 1, 0]]],
        [[[1, 1]], [[0, 1], [1, 1], [0]], [[1, 0]]],
      ],
      { between: 0, within: 7 / 18, samples: 336 / 179, share: 1, units: 3 },
    ],
  ])('the part between units clamped at 0: %s', (_, runs, expected) => expectSplit(runs, expected));

  it.each<[string, SampledUnits[], Split]>([
    [
      // No sampling noise: K is the runs' effective count, the harmonic mean of 2, 3, 4 (36/13); the
      // means 1, 0, 1 vary by S^2 = 1/3, all of it between units.
      'one example per unit: K the harmonic mean',
      [[[[1, 1]], [[0, 0, 0]], [[1, 1, 1, 1]]]],
      { between: 1 / 3, within: 0, samples: 36 / 13, share: 0, units: 3 },
    ],
    [
      // mean(1/E) = (1/2 + 1) / 2 = 3/4; mean(c) = ((1/2 + 1) / 4 + 1/3) / 2 = 17/48; K = (3/4) / (17/48)
      // = 36/17. Values (1 + 0) / 2 = 1/2 and 0: S^2 = 1/8.
      'several examples per unit: K = mean(1/E) / mean(c)',
      [[[[1, 1], [0]], [[0, 0, 0]]]],
      { between: 1 / 8, within: 0, samples: 36 / 17, share: 0, units: 2 },
    ],
    [
      // K = 2 in the candidate, 3 in the baseline: their mean 5/2. Differences 1 - 1, 0 - 1: S^2 = 1/2.
      'paired runs: K the mean of the runs',
      [
        [[[1, 1]], [[0, 0]]],
        [[[1, 1, 1]], [[1, 1, 1]]],
      ],
      { between: 1 / 2, within: 0, samples: 5 / 2, share: 0, units: 2 },
    ],
    [
      // Nothing varies: no share of 0 / 0, but none.
      'and units that agree too: no variance at all',
      [[[[1, 1]], [[1, 1]]]],
      { between: 0, within: 0, samples: 2, share: 0, units: 2 },
    ],
  ])('samples that all agree within their examples: %s', (_, runs, expected) => expectSplit(runs, expected));

  it('with K equal samples it is the textbook (MS_between - MS_within) / K', () => {
    const groups = [
      [1, 0, 1],
      [0, 0, 1],
      [1, 1, 1],
      [0, 1, 0.5],
    ];
    const grand = groups.flat().reduce((a, b) => a + b) / 12;
    const means = groups.map((group) => group.reduce((a, b) => a + b) / 3);
    const msBetween = (3 * means.reduce((sum, m) => sum + (m - grand) ** 2, 0)) / 3;
    const msWithin = groups.reduce((sum, group, g) => sum + group.reduce((s, y) => s + (y - means[g]) ** 2, 0), 0) / 8;
    const split = varianceComponents([groups.map((group) => [group])])!;
    expect(split.within).toBeCloseTo(msWithin, 12);
    expect(split.between).toBeCloseTo((msBetween - msWithin) / 3, 12);
    expect(split.samples).toBeCloseTo(3, 12);
  });

  it.each<[string, SampledUnits[]]>([
    ['no unit', [[]]],
    ['one unit', [[[[1, 0, 1]]]]],
    ['one unit with examples, the other without', [[[[1, 0]], []]]],
    [
      'one unit present in both runs',
      [
        [[[1, 0]], [[0, 1]]],
        [[[1, 1]], []],
      ],
    ],
    ['one sample per example', [[[[1]], [[0]], [[1]]]]],
    [
      'one sample per example in the baseline',
      [
        [[[1, 0]], [[1, 1]]],
        [[[1]], [[0]]],
      ],
    ],
    [
      'one sample per example in the candidate',
      [
        [[[1]], [[0]]],
        [[[1, 0]], [[1, 1]]],
      ],
    ],
  ])('is not identifiable (undefined): %s', (_, runs) => {
    expect(varianceComponents(runs)).toBeUndefined();
  });
});
