import { describe, expect, it } from '@jest/globals';
import { compareMetric } from '../src/metrics/paired.js';
import { lookupMetric, METRICS } from '../src/metrics/registry.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { metricsOf, overallValues, record } from './helpers/records.js';

// Every expected number below is worked out by hand in the comments next to it.

describe('calibration metrics', () => {
  // Confidences 0, 0.1, 0.5, 0.5, 1.0 with correct 0, 1, 1, 0, 1.
  const edges = [
    record({ id: '1', confidence: 0, correct: 0 }),
    record({ id: '2', confidence: 0.1, correct: 1 }),
    record({ id: '3', confidence: 0.5, correct: 1 }),
    record({ id: '4', confidence: 0.5, correct: 0 }),
    record({ id: '5', confidence: 1.0, correct: 1 }),
  ];

  it('bins confidence exactly 0, 0.1, 0.5 and 1.0', () => {
    // Equal width: bins 0, 1, 5, 5, 9. Only bin 1 is off: |1 - 0.1| * 1/5 = 0.18.
    // Equal mass: 5 chunks of one, boundaries 0.05, 0.3, 0.5, 0.75, 1.0; both 0.5 sit on the 0.5
    // boundary and fall in the lower bin together (accuracy 0.5 = confidence 0.5): again only 0.18.
    const values = overallValues(edges);
    expect(values.ece).toBeCloseTo(0.18, 12);
    expect(values.ece_10_bin).toBeCloseTo(0.18, 12);
    // Brier: (0 + 0.81 + 0.25 + 0.25 + 0) / 5
    expect(values.brier).toBeCloseTo(1.31 / 5, 12);
  });

  // Twelve records where the two binnings differ.
  const confidences = [0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95, 0.96, 0.97];
  const correct = [1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1];
  const twelve = confidences.map((confidence, i) => record({ id: String(i), confidence, correct: correct[i] }));

  it('computes equal-width ECE', () => {
    // Bins 0..8 hold one record each: .95 + .15 + .75 + .65 + .45 + .45 + .35 + .25 + .15 = 4.15;
    // bin 9 holds .95, .96, .97, all right: 3 * |1 - .96| = .12. ECE = 4.27 / 12.
    expect(overallValues(twelve).ece).toBeCloseTo(4.27 / 12, 12);
  });

  it("computes HELM's equal-mass ece_10_bin with numpy.array_split chunks", () => {
    // array_split(12, 10): two chunks of 2 then eight of 1 -> bins {.05,.15} {.25,.35} {.45} ... {.97}.
    // {.05,.15}: acc .5, conf .1 -> 2 * .4; {.25,.35}: acc 1, conf .3 -> 2 * .7;
    // then .45 + .45 + .35 + .25 + .15 + .05 + .04 + .03 = 1.77. ECE = (0.8 + 1.4 + 1.77) / 12.
    expect(overallValues(twelve).ece_10_bin).toBeCloseTo(3.97 / 12, 12);
  });

  it('computes selective accuracy, most confident first', () => {
    // Descending: correct 1,1,1,1,1,1,1,0,1,1,0,1 -> acc_k = 1 (k <= 7), 7/8, 8/9, 9/10, 9/11, 10/12.
    const values = overallValues(twelve);
    expect(values.selective_cov_acc_area).toBeCloseTo((7 + 7 / 8 + 8 / 9 + 9 / 10 + 9 / 11 + 10 / 12) / 12, 12);
    // k = floor(0.1 * 12) + 1 = 2 -> 2/2.
    expect(values['selective_acc@10']).toBe(1);
  });

  it('keeps input order among tied confidences', () => {
    // Descending with ties in input order: (.9, 0), (.9, 1), (.5, 1) -> acc_k = 0, 1/2, 2/3.
    const tied = [
      record({ id: 'a', confidence: 0.9, correct: 0 }),
      record({ id: 'b', confidence: 0.9, correct: 1 }),
      record({ id: 'c', confidence: 0.5, correct: 1 }),
    ];
    const values = overallValues(tied);
    expect(values.selective_cov_acc_area).toBeCloseTo((0 + 1 / 2 + 2 / 3) / 3, 12);
    expect(values['selective_acc@10']).toBe(0); // k = floor(0.3) + 1 = 1
    const swapped = overallValues([tied[1], tied[0], tied[2]]);
    expect(swapped.selective_cov_acc_area).toBeCloseTo((1 + 1 / 2 + 2 / 3) / 3, 12);
  });

  it('uses only original records that have a confidence and no error', () => {
    const values = overallValues([
      ...edges,
      record({ id: '6', correct: 1 }), // no confidence
      record({ id: '1', confidence: 0.9, correct: 0, perturbation: { name: 'typos', kind: 'robustness' } }),
      { scenario: 's', id: '7', confidence: 0.99, error: 'timeout' },
    ]);
    expect(values.ece).toBeCloseTo(0.18, 12);
    expect(metricsOf(edges).overall.ece.n).toBe(5);
  });
});

describe('accuracy and HELM worst-case robustness and fairness', () => {
  const typos = { name: 'typos', kind: 'robustness' } as const;
  const lowercase = { name: 'lowercase', kind: 'robustness' } as const;
  const dialect = { name: 'dialect', kind: 'fairness' } as const;
  const records: EvalRecord[] = [
    // i1: original 1, typos 0, dialect 1
    record({ id: 'i1', correct: 1 }),
    record({ id: 'i1', correct: 0, perturbation: typos }),
    record({ id: 'i1', correct: 1, perturbation: dialect }),
    // i2: original only
    record({ id: 'i2', correct: 1 }),
    // i3: the original failed; its perturbation does not count anywhere but error_rate
    { scenario: 's', id: 'i3', error: 'HTTP 500' },
    record({ id: 'i3', correct: 1, perturbation: typos }),
    // i4: partial credit 0.5, lowercase 1
    record({ id: 'i4', correct: 0.5 }),
    record({ id: 'i4', correct: 1, perturbation: lowercase }),
    // i5: original 1, its perturbation failed
    record({ id: 'i5', correct: 1 }),
    { scenario: 's', id: 'i5', error: 'timeout', perturbation: typos },
  ];

  it('computes each metric over the right records', () => {
    const { overall } = metricsOf(records);
    expect(overall.accuracy).toEqual({ value: (1 + 1 + 0.5 + 1) / 4, ci: null, n: 4 });
    // Worst over original and robustness variants: i1 0, i2 1, i4 0.5, i5 1.
    expect(overall.accuracy_robust).toEqual({ value: (0 + 1 + 0.5 + 1) / 4, ci: null, n: 4 });
    // Worst over original and fairness variants: i1 1, i2 1, i4 0.5, i5 1.
    expect(overall.accuracy_fair).toEqual({ value: 3.5 / 4, ci: null, n: 4 });
    // 2 failed of 10 records.
    expect(overall.error_rate).toEqual({ value: 0.2, ci: null, n: 10 });
  });

  it('omits worst-case metrics when no variant of that kind exists', () => {
    const values = overallValues(records.filter((r) => r.perturbation?.kind !== 'fairness'));
    expect(values).toHaveProperty('accuracy_robust');
    expect(values).not.toHaveProperty('accuracy_fair');
  });

  it('records may come in any order', () => {
    const shuffled = [...records].reverse();
    expect(metricsOf(shuffled).overall.accuracy_robust.value).toBe(metricsOf(records).overall.accuracy_robust.value);
  });
});

describe('group fairness', () => {
  const groupRecord = (id: string, dialect: string, correct: number) => record({ id, correct, groups: { dialect } });
  const records = [
    groupRecord('1', 'sae', 1),
    groupRecord('2', 'sae', 1),
    groupRecord('3', 'sae', 0),
    groupRecord('4', 'aae', 0),
    groupRecord('5', 'aae', 1),
    groupRecord('6', 'aae', 0),
    groupRecord('7', 'ind', 1), // a group of one: below min_group_size 3
    record({ id: '8', correct: 0 }), // no group
  ];

  it('leaves groups below min_group_size out of the worst group and the gap, but reports them', () => {
    const { overall } = metricsOf(records, 3);
    expect(overall['worst_group_accuracy:dialect']).toEqual({ value: 1 / 3, ci: null, n: 6 });
    expect(overall['group_accuracy_gap:dialect'].value).toBeCloseTo(2 / 3 - 1 / 3, 15);
    expect(overall['group_accuracy:dialect=ind']).toEqual({ value: 1, ci: null, n: 1 });
    expect(overall['group_accuracy:dialect=sae']).toEqual({ value: 2 / 3, ci: null, n: 3 });
  });

  it('omits worst group and gap when no group is large enough', () => {
    const { overall } = metricsOf(records, 4);
    expect(overall).not.toHaveProperty('worst_group_accuracy:dialect');
    expect(overall).not.toHaveProperty('group_accuracy_gap:dialect');
    expect(overall).toHaveProperty(['group_accuracy:dialect=aae']);
  });

  it('omits worst group and gap when only one group is large enough (one group has nothing to compare)', () => {
    // 190 sae records all right, 9 aae all wrong, min_group_size 10: only sae counts. Before, the gap
    // read "0 [0, 0]" and the worst group 1, hiding the 9 aae failures behind a pass.
    const skewed = [
      ...Array.from({ length: 190 }, (_, i) => groupRecord(`s${i}`, 'sae', 1)),
      ...Array.from({ length: 9 }, (_, i) => groupRecord(`a${i}`, 'aae', 0)),
    ];
    const { overall } = metricsOf(skewed, 10);
    expect(overall).not.toHaveProperty(['worst_group_accuracy:dialect']);
    expect(overall).not.toHaveProperty(['group_accuracy_gap:dialect']);
    expect(overall['group_accuracy:dialect=aae']).toEqual({ value: 0, ci: null, n: 9 });
  });
});

describe('efficiency, toxicity and reliability', () => {
  const records: EvalRecord[] = [
    record({ id: '1', latency_ms: 100, toxicity: 0.5, output_tokens: 10, cost_usd: 0.1 }),
    record({ id: '2', latency_ms: 200, toxicity: 0.49, output_tokens: 20, cost_usd: 0.2 }),
    record({ id: '3', latency_ms: 1000, toxicity: 0.9 }),
    record({ id: '4', latency_ms: 300 }),
    record({ id: '1', latency_ms: 400, perturbation: { name: 'typos', kind: 'robustness' } }),
    { scenario: 's', id: '5', error: 'timeout', latency_ms: 30000, toxicity: 1, cost_usd: 1 },
  ];

  it('computes numpy-style percentiles, rates, means and totals over non-error records', () => {
    const { overall } = metricsOf(records);
    // Sorted 100, 200, 300, 400, 1000. p50: h = 2 -> 300. p95: h = 3.8 -> 400 + 0.8 * 600 = 880.
    expect(overall.latency_p50_ms).toEqual({ value: 300, ci: null, n: 5 });
    expect(overall.latency_p95_ms.value).toBeCloseTo(880, 10);
    // toxicity >= 0.5: 0.5 and 0.9 of three scored records.
    expect(overall.toxicity_rate).toEqual({ value: 2 / 3, ci: null, n: 3 });
    expect(overall.output_tokens_mean).toEqual({ value: 15, ci: null, n: 2 });
    expect(overall.cost_usd_total.value).toBeCloseTo(0.3, 15);
    expect(overall.error_rate.value).toBeCloseTo(1 / 6, 15);
  });

  it('omits a metric whose inputs are absent instead of reporting 0', () => {
    expect(Object.keys(metricsOf([record({ id: '1' }), record({ id: '2', correct: 0 })]).overall)).toEqual(['accuracy', 'error_rate']);
  });
});

describe('scopes', () => {
  it('computes each scenario alone and overall with all records pooled', () => {
    const report = metricsOf([
      record({ scenario: 'billing', id: '1', correct: 1 }),
      record({ scenario: 'billing', id: '2', correct: 1 }),
      record({ scenario: 'refunds', id: '1', correct: 0 }),
    ]);
    expect(report.overall.accuracy.value).toBeCloseTo(2 / 3, 15);
    expect(report.scenarios.billing.accuracy.value).toBe(1);
    expect(report.scenarios.refunds.accuracy.value).toBe(0);
    expect(Object.keys(report.scenarios)).toEqual(['billing', 'refunds']);
  });
});

describe('the registry', () => {
  it('gives every metric a dimension, a direction and a description', () => {
    for (const metric of METRICS) {
      expect(metric.description.length).toBeGreaterThan(10);
      expect(['higher', 'lower']).toContain(metric.direction);
    }
  });

  it('resolves per-attribute names and rejects malformed ones', () => {
    expect(lookupMetric('worst_group_accuracy:dialect')?.direction).toBe('higher');
    expect(lookupMetric('group_accuracy_gap:dialect')?.direction).toBe('lower');
    expect(lookupMetric('ece')?.dimension).toBe('calibration');
    expect(lookupMetric('worst_group_accuracy')).toBeUndefined();
    expect(lookupMetric('accuracy:dialect')).toBeUndefined();
    expect(lookupMetric('acuracy')).toBeUndefined();
  });
});

describe('repeated samples', () => {
  // sample(id, k, fields): sample k of an example (one of K generations of the same prompt).
  const sample = (id: string, k: number, fields: Partial<EvalRecord> = {}) => record({ id, sample: k, ...fields });
  const typos = { name: 'typos', kind: 'robustness' } as const;
  const lowercase = { name: 'lowercase', kind: 'robustness' } as const;
  const dialect = { name: 'dialect', kind: 'fairness' } as const;

  it("average an example's samples before the mean over examples", () => {
    // i1: three samples 1, 0, 0 (mean 1/3); i2: one sample, right. (1/3 + 1) / 2 = 2/3, not 2/4.
    const records = [
      sample('i1', 0, { correct: 1 }),
      sample('i1', 1, { correct: 0 }),
      sample('i1', 2, { correct: 0 }),
      record({ id: 'i2' }),
    ];
    expect(metricsOf(records).overall.accuracy).toEqual({ value: (1 / 3 + 1) / 2, ci: null, n: 2 });
    expect(metricsOf(records).overall.accuracy.value).toBeCloseTo(0.6667, 4);
    // A failed fourth sample is left out of the mean (i1 stays 1/3) and counts in error_rate: 1 call of 5.
    const failed = metricsOf([...records, { scenario: 's', id: 'i1', sample: 3, error: 'timeout' }]).overall;
    expect(failed.accuracy.value).toBeCloseTo(2 / 3, 15);
    expect(failed.error_rate).toEqual({ value: 1 / 5, ci: null, n: 5 });
  });

  it('take the worst case over the per-example means of the samples', () => {
    const records: EvalRecord[] = [
      // i1: original 1, 1, 0 (2/3); typos 1, 0 and a failed call (1/2); lowercase 1; dialect 0, 1, 1 (2/3).
      sample('i1', 0, { correct: 1 }),
      sample('i1', 1, { correct: 1 }),
      sample('i1', 2, { correct: 0 }),
      sample('i1', 0, { correct: 1, perturbation: typos }),
      sample('i1', 1, { correct: 0, perturbation: typos }),
      { scenario: 's', id: 'i1', sample: 2, perturbation: typos, error: 'HTTP 500' },
      record({ id: 'i1', correct: 1, perturbation: lowercase }),
      sample('i1', 0, { correct: 0, perturbation: dialect }),
      sample('i1', 1, { correct: 1, perturbation: dialect }),
      sample('i1', 2, { correct: 1, perturbation: dialect }),
      // i2: original 1, 1 (1); typos 0, 1, 1, 1 (3/4); no fairness variant.
      sample('i2', 0),
      sample('i2', 1),
      ...[0, 1, 1, 1].map((correct, k) => sample('i2', k, { correct, perturbation: typos })),
    ];
    const { overall } = metricsOf(records);
    // Robust: i1 min(2/3, 1/2, 1) = 1/2, i2 min(1, 3/4) = 3/4 -> 5/8. Per record it would be min 0 and 0.
    expect(overall.accuracy_robust).toEqual({ value: 5 / 8, ci: null, n: 2 });
    // Fair: i1 min(2/3, 2/3), i2 1 (no fairness variant) -> 5/6.
    expect(overall.accuracy_fair.value).toBeCloseTo(5 / 6, 15);
    expect(overall.accuracy.value).toBeCloseTo(5 / 6, 15);
    expect(overall.error_rate).toEqual({ value: 1 / 16, ci: null, n: 16 });
  });

  it('give each example one vote in its group, and count examples against min_group_size', () => {
    const groupSamples = (id: string, dialect: string, scores: number[]) =>
      scores.map((correct, k) => sample(id, k, { correct, groups: { dialect } }));
    const records = [
      ...groupSamples('e1', 'sae', [1, 1, 1, 0]), // 3/4
      ...groupSamples('e2', 'sae', [1]), // 1
      ...groupSamples('e3', 'sae', [0, 0]), // 0
      ...groupSamples('e4', 'aae', [1, 0]), // 1/2
      ...groupSamples('e5', 'aae', [0, 0, 1]), // 1/3
    ];
    const { overall } = metricsOf(records, 2);
    // sae (3/4 + 1 + 0) / 3 = 7/12 over 3 examples; aae (1/2 + 1/3) / 2 = 5/12 over 2 examples (5 records).
    expect(overall['group_accuracy:dialect=sae'].value).toBeCloseTo(7 / 12, 15);
    expect(overall['group_accuracy:dialect=sae'].n).toBe(3);
    expect(overall['group_accuracy:dialect=aae']).toMatchObject({ n: 2 });
    expect(overall['group_accuracy:dialect=aae'].value).toBeCloseTo(5 / 12, 15);
    expect(overall['worst_group_accuracy:dialect'].value).toBeCloseTo(5 / 12, 15);
    expect(overall['worst_group_accuracy:dialect'].n).toBe(5);
    expect(overall['group_accuracy_gap:dialect'].value).toBeCloseTo(1 / 6, 15);
    // min_group_size 3: aae has 2 examples (though 5 records), so one group is left: no worst group, no gap.
    const three = metricsOf(records, 3).overall;
    expect(three).not.toHaveProperty(['worst_group_accuracy:dialect']);
    expect(three).not.toHaveProperty(['group_accuracy_gap:dialect']);
  });

  it('weight each calibrated sample 1/K of its example in ece and brier, and count every sample in ece_10_bin', () => {
    const records = [
      sample('e1', 0, { confidence: 0.9, correct: 1 }),
      sample('e1', 1, { confidence: 0.9, correct: 0 }),
      record({ id: 'e2', confidence: 0.25, correct: 0 }),
      sample('e3', 0, { confidence: 0.6, correct: 1 }),
      sample('e3', 1, { confidence: 0.8, correct: 1 }),
      sample('e3', 2, { correct: 0 }), // no confidence: in accuracy, not in calibration
    ];
    const { overall } = metricsOf(records);
    // Brier: e1 (0.01 + 0.81) / 2 = 0.41, e2 0.0625, e3 (0.16 + 0.04) / 2 = 0.1; mean over 3 examples.
    expect(overall.brier.value).toBeCloseTo((0.41 + 0.0625 + 0.1) / 3, 15);
    expect(overall.brier.n).toBe(3);
    // ECE bins (weights): 0.9 -> 1 (acc 0.5, off 0.4); 0.25 -> 1 (off 0.25); 0.6 -> 1/2 (off 0.4); 0.8 -> 1/2 (off 0.2).
    expect(overall.ece.value).toBeCloseTo((0.4 + 0.25 + 0.5 * 0.4 + 0.5 * 0.2) / 3, 15);
    expect(overall.ece.n).toBe(3);
    // ece_10_bin over the 5 calibrated records: one per chunk, the two 0.9 in one bin (acc 0.5):
    // (0.25 + 0.4 + 0.2 + 2 * 0.4) / 5.
    expect(overall.ece_10_bin.value).toBeCloseTo(1.65 / 5, 15);
    expect(overall.ece_10_bin.n).toBe(5);
    expect(overall['selective_acc@10'].n).toBe(5);
    // Accuracy: e1 1/2, e2 0, e3 2/3.
    expect(overall.accuracy).toMatchObject({ n: 3 });
    expect(overall.accuracy.value).toBeCloseTo((1 / 2 + 0 + 2 / 3) / 3, 15);
  });

  it('count every call in error_rate, latency, tokens, cost and toxicity', () => {
    const { overall } = metricsOf([
      sample('e1', 0, { latency_ms: 100, output_tokens: 10, cost_usd: 0.1, toxicity: 0.9 }),
      sample('e1', 1, { latency_ms: 200, output_tokens: 20, cost_usd: 0.2, toxicity: 0.1 }),
      { scenario: 's', id: 'e1', sample: 2, error: 'timeout' },
      record({ id: 'e2', latency_ms: 600, output_tokens: 30, cost_usd: 0.3, toxicity: 0 }),
    ]);
    expect(overall.error_rate).toEqual({ value: 1 / 4, ci: null, n: 4 });
    expect(overall.latency_p50_ms).toEqual({ value: 200, ci: null, n: 3 });
    expect(overall.output_tokens_mean).toEqual({ value: 20, ci: null, n: 3 });
    expect(overall.cost_usd_total.value).toBeCloseTo(0.6, 15);
    expect(overall.toxicity_rate).toEqual({ value: 1 / 3, ci: null, n: 3 });
  });

  it('compare runs with different numbers of samples on the instances they share, each averaging its own', () => {
    // Candidate, three samples each: 2/3, 1, 1/3 (mean 2/3); baseline, one each: 1, 1, 1.
    const candidate = ['i1', 'i2', 'i3'].flatMap((id, i) =>
      [
        [1, 1, 0],
        [1, 1, 1],
        [0, 0, 1],
      ][i].map((correct, k) => sample(id, k, { correct })),
    );
    const baseline = ['i1', 'i2', 'i3', 'i4'].map((id) => record({ id }));
    const comparison = compareMetric(buildTable(candidate), buildTable(baseline), 'accuracy', undefined, {
      resamples: 200,
      seed: 1,
      minGroupSize: 10,
    })!;
    expect(comparison.shared).toBe(3);
    expect(comparison.candidateValue).toBeCloseTo(2 / 3, 15);
    expect(comparison.baselineValue).toBe(1);
    expect(comparison.difference).toBeCloseTo(-1 / 3, 15);
  });
});
