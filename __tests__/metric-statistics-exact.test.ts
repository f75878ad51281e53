import { describe, expect, it } from '@jest/globals';
import { compareMetric } from '../src/metrics/paired.js';
import { scopeNamed, subScopes } from '../src/metrics/scope.js';
import { prepareStatistics, ScopeStatistics } from '../src/metrics/statistics.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { Random } from '../src/stats/random.js';
import { overallValues, record } from './helpers/records.js';

/*
 * The metric statistics (src/metrics/statistics.ts) on hand-made records where a slip would show: a
 * metric compared alone (a paired comparison prepares only its own), a metric without its inputs, and
 * a resample's weights that leave a group out.
 */

const CALIBRATION = ['ece', 'brier', 'ece_10_bin', 'selective_cov_acc_area', 'selective_acc@10'];

/** Records with confidences: right answers at `right`, wrong ones at `wrong` (more confident when wrong: another ranking). */
const confident = (right: number, wrong: number): EvalRecord[] =>
  Array.from({ length: 12 }, (_, i) => record({ id: `q${i}`, correct: i % 3 === 0 ? 0 : 1, confidence: i % 3 === 0 ? wrong : right }));

describe('a metric compared alone', () => {
  const candidate = buildTable(confident(0.9, 0.6));
  const baseline = buildTable(confident(0.3, 0.8));

  it.each(CALIBRATION)('%s: the paired difference of the point estimates is the difference of the values', (metric) => {
    const expected = overallValues(confident(0.9, 0.6))[metric] - overallValues(confident(0.3, 0.8))[metric];
    expect(expected).not.toBe(0);
    const comparison = compareMetric(candidate, baseline, metric, undefined, { resamples: 0, seed: 1, minGroupSize: 10 });
    expect(comparison?.difference).toBeCloseTo(expected, 12);
  });
});

describe('a worst group and a gap compared alone', () => {
  // Group a right 3 of 4, group b 1 of 4 in the baseline; b gets 2 more right in the candidate.
  const run = (bRight: number) =>
    buildTable(
      ['a', 'b'].flatMap((group) =>
        Array.from({ length: 4 }, (_, i) =>
          record({ id: `${group}${i}`, correct: i < (group === 'a' ? 3 : bRight) ? 1 : 0, groups: { g: group } }),
        ),
      ),
    );
  it.each([
    ['worst_group_accuracy:g', 0.5],
    ['group_accuracy_gap:g', -0.5],
  ])('%s', (metric, difference) => {
    const comparison = compareMetric(run(3), run(1), metric, undefined, { resamples: 0, seed: 1, minGroupSize: 1 });
    expect(comparison?.difference).toBeCloseTo(difference, 12);
  });
});

describe('a metric without its inputs', () => {
  it('no confidence: no calibration metric (never 0)', () => {
    const names = Object.keys(overallValues([record({ id: '1' }), record({ id: '2', correct: 0 })]));
    expect(names.filter((name) => CALIBRATION.includes(name))).toEqual([]);
    expect(names).toContain('accuracy');
  });
});

describe('a worst group and a gap under weights', () => {
  // Group a: 2 of 2 right; group b: 1 of 2 right. Instances numbered in order of first appearance.
  const table = buildTable([
    record({ id: 'a1', correct: 1, groups: { g: 'a' } }),
    record({ id: 'a2', correct: 1, groups: { g: 'a' } }),
    record({ id: 'b1', correct: 1, groups: { g: 'b' } }),
    record({ id: 'b2', correct: 0, groups: { g: 'b' } }),
  ]);
  const valuesUnder = (weights: number[]) => {
    const values: Record<string, number> = {};
    for (const statistic of prepareStatistics(table, scopeNamed(table), { minGroupSize: 1 })) {
      const evaluated = statistic.evaluate(Float64Array.from(weights));
      statistic.metrics.forEach(({ metric }, k) => (values[metric] = evaluated[k]));
    }
    return { worst: values['worst_group_accuracy:g'], gap: values['group_accuracy_gap:g'] };
  };

  it.each([
    ['every instance once', [1, 1, 1, 1], 0.5, 0.5],
    ['b1 twice: b is 2 of 3', [1, 1, 2, 1], 2 / 3, 1 / 3],
    ['group b left out: only a is seen', [1, 1, 0, 0], 1, 0],
    ['group a left out: only b is seen', [0, 0, 1, 1], 0.5, 0],
    ['nothing drawn: undefined, not infinite', [0, 0, 0, 0], NaN, NaN],
  ])('%s', (_, weights, worst, gap) => {
    const found = valuesUnder(weights as number[]);
    for (const [value, expected] of [
      [found.worst, worst],
      [found.gap, gap],
    ] as const) {
      if (Number.isNaN(expected)) expect(value).toBeNaN();
      else expect(value).toBeCloseTo(expected as number, 12);
    }
  });
});

describe("a subset's statistic for one metric (a paired comparison's little bootstrap)", () => {
  // 400 instances: a third perturbed (three rows each), confidences and latencies, a group attribute
  // with a rare value. Accuracy's slot and the calibrated and timed rows are picked by instance; the
  // calibration bins' and the rare group's slots (fewer entries than a quarter of the instances) are
  // passed over (src/metrics/by-instance.ts).
  const random = new Random(11);
  const records: EvalRecord[] = Array.from({ length: 400 }, (_, i) => {
    const base = {
      id: `q${i}`,
      correct: random.nextBelow(3) === 0 ? 0 : 1,
      confidence: (1 + random.nextBelow(99)) / 100,
      latency_ms: 100 + random.nextBelow(900),
      groups: { g: i % 40 === 0 ? 'rare' : i % 2 === 0 ? 'even' : 'odd' },
    };
    if (i % 3 !== 0) return [record(base)];
    const perturbed = (name: string, kind: 'robustness' | 'fairness') =>
      record({ ...base, perturbation: { name, kind }, correct: random.nextBelow(2), confidence: (1 + random.nextBelow(99)) / 100 });
    return [record(base), perturbed('typo', 'robustness'), perturbed('name', 'fairness')];
  }).flat();
  const table = buildTable(records);
  const scope = scopeNamed(table);
  const options = { minGroupSize: 1 };
  const metrics = ['accuracy', 'ece', 'ece_10_bin', 'accuracy_robust', 'accuracy_fair', 'latency_p95_ms', 'group_accuracy:g=rare'];

  it.each(metrics)("%s: as on the subset's own scope, subset after subset", (metric) => {
    const statistics = new ScopeStatistics(table, scope, options);
    const ownScope = subScopes(scope);
    for (let draw = 0; draw < 6; draw++) {
      const subset = Int32Array.from(Array.from({ length: 400 }, (_, instance) => instance).filter(() => random.nextBelow(3) === 0));
      const weights = Float64Array.from(subset, () => random.nextBelow(4));
      const valueOf = (found: ReturnType<typeof prepareStatistics>) => {
        const statistic = found.find((candidate) => candidate.metrics.some((info) => info.metric === metric));
        return statistic?.evaluate(weights)[statistic.metrics.findIndex((info) => info.metric === metric)];
      };
      const expected = valueOf(prepareStatistics(table, ownScope(subset), options));
      expect(expected).toBeDefined();
      expect(valueOf(statistics.subset(subset, metric))).toBe(expected);
    }
  });
});
