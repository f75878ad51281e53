import { describe, expect, it, jest } from '@jest/globals';
import { computeOptionsOf, isSignificant, metricMeta, MetricsMemo, RunComparer } from '../src/gate/compare.js';
import { compareAhead, evaluateGate } from '../src/gate/evaluate.js';
import { RunMetrics, type MetricsReport, type MetricValue } from '../src/metrics/compute.js';
import { PairedRuns } from '../src/metrics/paired.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { constantRun, gateOf, policyOf, recordsRun, seen } from './helpers/exact.js';

/*
 * Comparing a candidate with a baseline (src/gate/compare.ts, not-compared.ts, tradeoffs.ts) on small
 * hand-made runs: what is compared and how (paired on shared instances, or the point estimates of a
 * metrics file), and, where nothing can be, the reason a reader sees. Fast, for mutation testing too.
 */

const B20 = 'settings:\n  resamples: 40\n';
const gate = (yaml: string, candidate: RunInput, baseline?: RunInput) => gateOf(yaml, candidate, baseline, 20);

/** A records run of `n` instances of scenario s, each record given `fields`. */
function runOf(n: number, fields: (index: number) => Partial<EvalRecord>, scenario = 's'): RunInput {
  return recordsRun('r.jsonl', () =>
    Array.from({ length: n }, (_, i) => ({ scenario, id: String(i), correct: 1, ...fields(i) }) as EvalRecord),
  );
}

/** A metrics file (summary numbers, no interval) with these overall values and scenario s's. */
function metricsFile(overall: Record<string, number>, s: Record<string, number> = {}): RunInput {
  const values = (metrics: Record<string, number>) =>
    Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, { value, ci: null, n: 100 } as MetricValue]));
  const report: MetricsReport = { overall: values(overall), scenarios: Object.keys(s).length > 0 ? { s: values(s) } : {} };
  return { kind: 'metrics', file: 'm.json', report };
}

/** Each record's judge fingerprint (provenance.scorer), by instance number. */
const judgedBy =
  (scorer: (index: number) => string) =>
  (index: number): Partial<EvalRecord> => ({ provenance: { scorer: scorer(index) } });
const plain = () => ({});

describe('runs judged differently are not compared, and the reason names both judges', () => {
  const check = `${B20}checks:\n  - metric: accuracy\n    max_regression: 0.1\n    detect: 0.9\n`;
  const twoJudges = (index: number) => (index < 20 ? 'judge b' : 'judge a');

  it.each([
    // One fingerprint each: the first word, then only the parts the other lacks.
    [
      'one judge each: the parts in which they differ',
      judgedBy(() => 'judge model=b served=b t=0'),
      judgedBy(() => 'judge model=a served=a t=0'),
      '"judge model=b served=b ..."',
      '"judge model=a served=a ..."',
    ],
    ['a baseline no judge graded', plain, judgedBy(() => 'judge x'), 'no judge', '"judge x"'],
    ['a candidate no judge graded', judgedBy(() => 'judge x'), plain, '"judge x"', 'no judge'],
    // More than one fingerprint in a run: every one whole, sorted.
    ['two judges in the baseline', judgedBy(twoJudges), judgedBy(() => 'judge c'), '"judge a" and "judge b"', '"judge c"'],
    ['two judges in the candidate', judgedBy(() => 'judge c'), judgedBy(twoJudges), '"judge c"', '"judge a" and "judge b"'],
  ])('%s', (_, baseline, candidate, baselineNamed, candidateNamed) => {
    const result = gate(check, runOf(40, candidate), runOf(40, baseline));
    expect(seen(result)).toEqual({
      status: 'error',
      reasons: [
        `regression not checked: the baseline was judged by ${baselineNamed} and the candidate by ${candidateNamed} in scenario "s": ` +
          "re-judge the baseline with the candidate's suite (evalgate rejudge)",
      ],
    });
    expect(result.checks[0].comparison).toBeUndefined();
  });

  it('compares runs judged alike', () => {
    const judged = runOf(
      40,
      judgedBy(() => 'judge a'),
    );
    expect(gate(check, judged, judged).checks[0].comparison).toMatchObject({ method: 'paired', shared: 40 });
  });
});

describe('a comparison on point estimates (a metrics file on either side)', () => {
  const check = (metric: string, budget: number, scenario = '') =>
    `checks:\n  - metric: ${metric}\n${scenario}    max_regression: ${budget}\n`;
  const summary = (candidate: number, baseline: number, worsening: number) => ({
    method: 'summary',
    candidate,
    baseline,
    change: candidate - baseline,
    worsening,
  });

  it.each([
    // accuracy: higher is better, a worsening is a fall.
    [
      'a fall in accuracy',
      check('accuracy', 0.1),
      metricsFile({ accuracy: 0.75 }),
      metricsFile({ accuracy: 1 }),
      summary(0.75, 1, 0.25),
      'fail',
      ['worse than the baseline by 25 pts, over the budget 10 pts'],
    ],
    [
      'a rise in accuracy',
      check('accuracy', 0.1),
      metricsFile({ accuracy: 1 }),
      metricsFile({ accuracy: 0.75 }),
      summary(1, 0.75, -0.25),
      'pass',
      [],
    ],
    [
      'a fall at the budget',
      check('accuracy', 0.25),
      metricsFile({ accuracy: 0.75 }),
      metricsFile({ accuracy: 1 }),
      summary(0.75, 1, 0.25),
      'pass',
      [],
    ],
    // latency: lower is better, a worsening is a rise.
    [
      'a rise in latency',
      check('latency_p50_ms', 10),
      metricsFile({ latency_p50_ms: 120 }),
      metricsFile({ latency_p50_ms: 100 }),
      summary(120, 100, 20),
      'fail',
      ['worse than the baseline by 20 ms, over the budget 10 ms'],
    ],
    [
      'a fall in latency',
      check('latency_p50_ms', 10),
      metricsFile({ latency_p50_ms: 80 }),
      metricsFile({ latency_p50_ms: 100 }),
      summary(80, 100, -20),
      'pass',
      [],
    ],
    [
      'one scenario of the files',
      check('accuracy', 0.1, '    scenario: s\n'),
      metricsFile({ accuracy: 1 }, { accuracy: 0.5 }),
      metricsFile({ accuracy: 1 }, { accuracy: 0.75 }),
      summary(0.5, 0.75, 0.25),
      'fail',
      ['worse than the baseline by 25 pts, over the budget 10 pts'],
    ],
    // A records run against a metrics file: its point estimate, no pairing.
    [
      'records against a metrics file',
      check('accuracy', 0.1),
      constantRun(40, 0.75),
      metricsFile({ accuracy: 1 }),
      summary(0.75, 1, 0.25),
      'fail',
      ['worse than the baseline by 25 pts, over the budget 10 pts'],
    ],
    [
      'a metrics file against records',
      check('accuracy', 0.1),
      metricsFile({ accuracy: 0.75 }),
      constantRun(40, 1),
      summary(0.75, 1, 0.25),
      'fail',
      ['worse than the baseline by 25 pts, over the budget 10 pts'],
    ],
  ])('%s', (_, yaml, candidate, baseline, comparison, status, reasons) => {
    const result = gate(yaml, candidate, baseline);
    expect(result.checks[0].comparison).toEqual(comparison);
    expect(seen(result)).toEqual({ status, reasons });
  });

  it('a bound on a biased metric of a metrics file is judged on its value: no components to correct it with', () => {
    const ece = (max: number) => gate(`checks:\n  - metric: ece\n    max: ${max}\n`, metricsFile({ ece: 0.125 }));
    expect(seen(ece(0.125))).toEqual({ status: 'pass', reasons: [] });
    expect(seen(ece(0.1))).toEqual({ status: 'fail', reasons: ['above the maximum 10%'] });
  });

  it("a metric evalgate does not know goes the policy's way", () => {
    const imported = (value: number) => metricsFile({ 'hellaswag/acc_norm': value });
    const yaml = (direction: string) =>
      `checks:\n  - metric: hellaswag/acc_norm\n    direction: ${direction}\n    dimension: robustness\n    max_regression: 0.1\n`;
    const higher = gate(yaml('higher'), imported(0.5), imported(0.75));
    expect([higher.checks[0].status, higher.checks[0].comparison!.worsening, higher.checks[0].dimension]).toEqual([
      'fail',
      0.25,
      'robustness',
    ]);
    const lower = gate(yaml('lower'), imported(0.5), imported(0.75));
    expect([lower.checks[0].status, lower.checks[0].comparison!.worsening]).toEqual(['pass', -0.25]);
  });
});

describe('a comparison that cannot be made: who lacks what, where', () => {
  const budget = (metric: string, scenario?: string) =>
    `${B20}checks:\n  - metric: ${metric}\n${scenario ? `    scenario: ${scenario}\n` : ''}    max_regression: 0.1\n    detect: 0.9\n`;
  const confident = (index: number): Partial<EvalRecord> => ({ confidence: 0.9, id: String(index) });
  // The candidate's confidence only on instances 20-39, which the baseline (instances 0-19) lacks.
  const confidentLate = (index: number): Partial<EvalRecord> => (index < 20 ? {} : { confidence: 0.9 });

  it.each([
    [
      'the baseline did not record the metric, in a scenario',
      budget('ece', 's'),
      runOf(40, confident),
      runOf(40, plain),
      'inconclusive',
      'regression inconclusive: the baseline has no ece on the 40 instances the runs share in s (a metric it did not record)',
    ],
    [
      'the candidate has the metric only on instances the baseline lacks',
      budget('ece'),
      runOf(40, confidentLate),
      runOf(20, confident),
      'error',
      'regression not checked: the candidate has no ece on the 20 instances the runs share',
    ],
    [
      "every one of the baseline's calls failed",
      budget('accuracy'),
      constantRun(40, 1),
      runOf(40, () => ({ correct: undefined, error: 'timeout' })),
      'error',
      'regression not checked: the baseline answered none of the 40 instances it shares with the candidate (every call failed)',
    ],
    [
      'the baseline lacks the scenario',
      budget('accuracy', 't'),
      constantRun(40, 1, ['s', 't']),
      constantRun(40, 1),
      'inconclusive',
      'regression inconclusive: the baseline has no instance in t',
    ],
    [
      'a metrics file without the metric',
      budget('accuracy'),
      metricsFile({ accuracy: 0.75 }),
      metricsFile({ f1: 0.75 }),
      'inconclusive',
      'regression inconclusive: the baseline has no accuracy (a metric it did not record)',
    ],
    [
      'a records baseline without the metric, against a metrics file',
      budget('ece'),
      metricsFile({ ece: 0.1 }),
      constantRun(40, 1),
      'inconclusive',
      'regression inconclusive: the baseline has no ece (a metric it did not record)',
    ],
    [
      'a metrics file without it in the scenario',
      budget('accuracy', 's'),
      metricsFile({ accuracy: 0.75 }, { accuracy: 0.75 }),
      metricsFile({ accuracy: 0.75 }),
      'inconclusive',
      'regression inconclusive: the baseline has no accuracy in s (a metric it did not record)',
    ],
    // 20 shared instances, as many as a paired comparison needs, but a latency on 10 of them: it rests on the 10.
    [
      'too few records of the metric on the shared instances',
      budget('latency_p50_ms').replace('0.9', '50'),
      runOf(20, (index) => (index < 10 ? { latency_ms: 100 } : {})),
      runOf(20, (index) => (index < 10 ? { latency_ms: 100 } : {})),
      'error',
      'regression not checked: 10 records of the metric on the 20 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
    ],
  ])('%s', (_, yaml, candidate, baseline, status, reason) => {
    expect(seen(gate(yaml, candidate, baseline))).toEqual({ status, reasons: [reason] });
  });
});

describe('no baseline at all', () => {
  const yaml = `${B20}checks:\n  - metric: accuracy\n    max_regression: 0.1\n`;

  it.each([
    ['plain use: skipped', undefined, 'skipped', 'regression not checked: no baseline'],
    ['skip', 'skip', 'skipped', 'regression not checked: no baseline'],
    // A change gated without a baseline (the action on a pull request) cannot be called safe.
    ['a change gated', 'inconclusive', 'inconclusive', 'regression inconclusive: no baseline to compare the change with'],
  ] as const)('%s', (_, missingBaseline, status, reason) => {
    const result = evaluateGate({ policy: policyOf(yaml, 20), candidate: constantRun(40, 1), missingBaseline });
    expect(seen(result)).toEqual({ status, reasons: [reason] });
  });
});

describe("a trade-off's terms", () => {
  const tradeoff = (term: string, check = '') =>
    `${B20}checks:\n  - metric: latency_p50_ms\n    max_regression: 1\n${check}tradeoffs:\n  - name: t\n` +
    `    allow: [{ metric: latency_p50_ms, max_regression: 100 }]\n    when: [{ ${term} }]\n`;
  const reasonsOf = (yaml: string, candidate: RunInput, baseline?: RunInput) => gate(yaml, candidate, baseline).tradeoffs[0];

  it.each([
    [
      'no baseline',
      tradeoff('metric: accuracy, min_improvement: 0.1'),
      metricsFile({ accuracy: 1, latency_p50_ms: 1 }),
      undefined,
      false,
      'no baseline to measure improvements against',
    ],
    // A metrics file: the point estimates, no p-value to ask for.
    [
      'an improvement in a metrics file',
      tradeoff('metric: accuracy, min_improvement: 0.25'),
      metricsFile({ accuracy: 1, latency_p50_ms: 1 }),
      metricsFile({ accuracy: 0.75, latency_p50_ms: 1 }),
      true,
      'accuracy (overall) improved by 25 pts (needs an improvement of 25 pts)',
    ],
    // No change is an improvement of 0: enough for a min_improvement of 0.
    [
      'no change',
      tradeoff('metric: accuracy, min_improvement: 0'),
      metricsFile({ accuracy: 0.75, latency_p50_ms: 1 }),
      metricsFile({ accuracy: 0.75, latency_p50_ms: 1 }),
      true,
      'accuracy (overall) improved by 0 pts (needs an improvement of 0 pts)',
    ],
    [
      'a worsening is not enough',
      tradeoff('metric: accuracy, min_improvement: 0.1'),
      metricsFile({ accuracy: 0.75, latency_p50_ms: 1 }),
      metricsFile({ accuracy: 1, latency_p50_ms: 1 }),
      false,
      'accuracy (overall) got worse by 25 pts (needs an improvement of 10 pts): not enough',
    ],
    // "10%" of a baseline of -2 is an improvement of 0.2, whatever the sign; -2.1 is 0.1 worse.
    [
      'a percentage of a negative baseline',
      tradeoff('metric: log_likelihood, min_improvement: "10%", direction: higher'),
      metricsFile({ log_likelihood: -2.1, latency_p50_ms: 1 }),
      metricsFile({ log_likelihood: -2, latency_p50_ms: 1 }),
      false,
      'log_likelihood (overall) got worse by 0.1 (needs an improvement of 0.2): not enough',
    ],
    [
      'a metric the baseline lacks',
      tradeoff('metric: accuracy, min_improvement: 0.1'),
      metricsFile({ accuracy: 1, latency_p50_ms: 1 }),
      metricsFile({ latency_p50_ms: 1 }),
      false,
      'accuracy (overall): not in both runs',
    ],
    [
      'a metric the candidate lacks',
      tradeoff('metric: accuracy, min_improvement: 0.1'),
      metricsFile({ latency_p50_ms: 1 }),
      metricsFile({ accuracy: 1, latency_p50_ms: 1 }),
      false,
      'accuracy (overall): not in both runs',
    ],
    // A metric evalgate does not know: the term's direction (over its check's), else its check's.
    [
      "the term's direction",
      tradeoff(
        'metric: hellaswag/acc_norm, min_improvement: 0.25, direction: lower',
        '  - metric: hellaswag/acc_norm\n    direction: higher\n    max: 1\n',
      ),
      metricsFile({ 'hellaswag/acc_norm': 0.5, latency_p50_ms: 1 }),
      metricsFile({ 'hellaswag/acc_norm': 0.75, latency_p50_ms: 1 }),
      true,
      'hellaswag/acc_norm (overall) improved by 0.25 (needs an improvement of 0.25)',
    ],
    [
      "the check's direction",
      tradeoff('metric: hellaswag/acc_norm, min_improvement: 0.25', '  - metric: hellaswag/acc_norm\n    direction: lower\n    max: 1\n'),
      metricsFile({ 'hellaswag/acc_norm': 0.5, latency_p50_ms: 1 }),
      metricsFile({ 'hellaswag/acc_norm': 0.75, latency_p50_ms: 1 }),
      true,
      'hellaswag/acc_norm (overall) improved by 0.25 (needs an improvement of 0.25)',
    ],
    [
      'an improvement graded by another judge',
      tradeoff('metric: accuracy, scenario: s, min_improvement: 0.1'),
      runOf(
        40,
        judgedBy(() => 'judge a'),
      ),
      runOf(
        40,
        judgedBy(() => 'judge b'),
      ),
      false,
      'accuracy (s): the baseline was judged by "judge b ..." and the candidate by "judge a ..." in scenario "s": ' +
        "re-judge the baseline with the candidate's suite (evalgate rejudge)",
    ],
    // Paired: a fall in latency on every resample is an improvement, p = 1/21 (pBetter of a lower-is-better metric).
    [
      'a paired improvement in latency',
      tradeoff('metric: latency_p50_ms, min_improvement: 50'),
      runOf(40, () => ({ latency_ms: 100 })),
      runOf(40, () => ({ latency_ms: 200 })),
      true,
      'latency_p50_ms (overall) improved by 100 ms (needs an improvement of 50 ms, p = 0.048)',
    ],
    [
      'an improvement on exactly the shared instances a paired comparison needs',
      tradeoff('metric: accuracy, min_improvement: 0.25'),
      constantRun(20, 1),
      constantRun(20, 0.75),
      true,
      'accuracy (overall) improved by 25 pts (needs an improvement of 25 pts, p = 0.048)',
    ],
    [
      'an improvement on too few shared instances',
      tradeoff('metric: accuracy, min_improvement: 0.1'),
      constantRun(19, 1),
      constantRun(19, 0.75),
      false,
      'accuracy (overall): 19 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
    ],
  ])('%s', (_, yaml, candidate, baseline, applied, reason) => {
    expect(reasonsOf(yaml, candidate, baseline)).toEqual({ name: 't', applied, reasons: [reason] });
  });
});

describe('trade-offs that apply grant their budgets', () => {
  // Accuracy up by 0.25, latency up by 50 against a check's budget of 1.
  const candidate = metricsFile({ accuracy: 1, latency_p50_ms: 150 });
  const baseline = metricsFile({ accuracy: 0.75, latency_p50_ms: 100 });
  const tradeoff = (name: string, allowed: number, needed = 0.1) =>
    `  - name: ${name}\n    allow: [{ metric: latency_p50_ms, max_regression: ${allowed} }]\n    when: [{ metric: accuracy, min_improvement: ${needed} }]\n`;
  const policy = (...tradeoffs: string[]) =>
    `checks:\n  - metric: latency_p50_ms\n    max_regression: 1\ntradeoffs:\n${tradeoffs.join('')}`;

  it.each([
    ['one that applies', [tradeoff('t1', 60)], 'pass', { value: 60, from: 'trade-off "t1"' }],
    ['one that does not', [tradeoff('t1', 60, 0.5)], 'fail', { value: 1, from: 'the check' }],
    // Both apply: the more generous budget, whichever comes first.
    ['two, the first more generous', [tradeoff('t1', 60), tradeoff('t2', 40)], 'pass', { value: 60, from: 'trade-off "t1"' }],
    ['two, the second more generous', [tradeoff('t1', 40), tradeoff('t2', 60)], 'pass', { value: 60, from: 'trade-off "t2"' }],
  ])('%s', (_, tradeoffs, status, budget) => {
    const result = gate(policy(...tradeoffs), candidate, baseline);
    expect([result.checks[0].status, result.checks[0].budget]).toEqual([status, budget]);
  });
});

describe('the helpers every comparison uses', () => {
  const policy = (lines = '') => policyOf(`checks:\n  - metric: accuracy\n    min: 0\n${lines}`);
  const imported = '  - metric: hellaswag/acc_norm\n    max: 1\n';

  it.each([
    ['a metric evalgate knows: the registry', policy(), 'latency_p50_ms', undefined, { direction: 'lower', dimension: 'efficiency' }],
    [
      "another tool's: its check's direction, the accuracy dimension",
      policy(imported + '    direction: lower\n'),
      'hellaswag/acc_norm',
      undefined,
      { direction: 'lower', dimension: 'accuracy' },
    ],
    [
      "its check's dimension",
      policy(imported + '    direction: lower\n    dimension: robustness\n'),
      'hellaswag/acc_norm',
      undefined,
      { direction: 'lower', dimension: 'robustness' },
    ],
    [
      "a trade-off term's direction over its check's",
      policy(imported + '    direction: lower\n'),
      'hellaswag/acc_norm',
      'higher',
      { direction: 'higher', dimension: 'accuracy' },
    ],
  ] as const)('metricMeta: %s', (_, stated, metric, termDirection, meta) => {
    expect(metricMeta(stated, metric, termDirection)).toMatchObject(meta);
  });

  it('metricMeta refuses a metric with no direction anywhere (a policy that was not validated)', () => {
    expect(() => metricMeta(policy(), 'hellaswag/acc_norm')).toThrow(
      'no direction for the metric hellaswag/acc_norm: the policy was not validated',
    );
  });

  it.each([
    ['off: always', 'off', undefined, true],
    ['no p-value: never', 0.05, undefined, false],
    ['below the level', 0.05, 0.049, true],
    ['at the level: not below it', 0.05, 0.05, false],
  ] as const)('isSignificant %s', (_, significance, p, expected) => {
    expect(isSignificant(significance, p)).toBe(expected);
  });

  it('compares metrics files on their point estimates only: no instances, judges or resamples', () => {
    const comparer = new RunComparer(
      metricsFile({ f1: 0.5 }),
      metricsFile({ accuracy: 0.75 }),
      computeOptionsOf(policy()),
      new MetricsMemo(),
    );
    expect(comparer.sharedInstances(undefined)).toBeUndefined();
    expect(comparer.judgeMismatch(undefined)).toBeUndefined();
    expect(comparer.sharesNoInstance(undefined)).toBe(false);
    expect(comparer.compare('accuracy', undefined, 'higher')).toBeUndefined();
    expect(comparer.samples('accuracy', undefined)).toBeUndefined();
    // The candidate lacks accuracy, the baseline f1.
    expect(comparer.whyNotCompared('accuracy', undefined)).toEqual({ lacks: 'candidate', baselineAnswered: true });
    expect(comparer.whyNotCompared('f1', undefined)).toEqual({ lacks: 'baseline', baselineAnswered: true });
  });

  it("reads a records run's point estimates under the policy's settings (min_group_size), against a metrics file", () => {
    // Two groups of 20: a right everywhere, b wrong everywhere; the worst group scores 0.
    const grouped = runOf(40, (index) => ({ correct: index < 20 ? 1 : 0, groups: { region: index < 20 ? 'a' : 'b' } }));
    const worst = 'worst_group_accuracy:region';
    const comparer = new RunComparer(metricsFile({ [worst]: 0.5 }), grouped, computeOptionsOf(policy()), new MetricsMemo());
    expect(comparer.compare(worst, undefined, 'higher')).toEqual({
      method: 'summary',
      candidate: 0.5,
      baseline: 0,
      change: 0.5,
      worsening: -0.5,
    });
    expect(comparer.whyNotCompared('group_accuracy_gap:region', undefined)).toEqual({ lacks: 'candidate', baselineAnswered: true });
  });

  it('says which records run lacks a metric on the instances they share', () => {
    const options = computeOptionsOf(policy());
    const confident = runOf(40, () => ({ confidence: 0.9 }));
    const without = new RunComparer(confident, runOf(40, plain), options, new MetricsMemo());
    expect(without.whyNotCompared('ece', undefined)).toEqual({ lacks: 'baseline', shared: 40, baselineAnswered: true });
    const lacking = new RunComparer(runOf(40, plain), confident, options, new MetricsMemo());
    expect(lacking.whyNotCompared('ece', undefined)).toEqual({ lacks: 'candidate', shared: 40, baselineAnswered: true });
  });
});

describe('the comparisons made ahead (while a second thread computes the candidate)', () => {
  // Budgets in effect and the trade-offs' terms are compared; a bound, a check turned off and a
  // metrics file are not. The gate's own comparisons are the same ones, read from the memo.
  const policy = policyOf(
    'checks:\n  - metric: accuracy\n    max_regression: 0.1\n  - metric: accuracy\n    scenario: s\n    max_regression: 0.1\n' +
      '  - metric: accuracy\n    scenario: t\n    min: 0.5\n  - metric: accuracy\n    scenario: t\n    max_regression: 0.1\n    severity: off\n' +
      'tradeoffs:\n  - name: t\n    allow: [{ metric: accuracy, scenario: s, max_regression: 0.3 }]\n' +
      '    when: [{ metric: accuracy, scenario: t, min_improvement: 0.1 }]\n',
  );
  const candidate = constantRun(8, { s: 0.75, t: 1 }, ['s', 't']);
  const baseline = constantRun(8, { s: 1, t: 0.75 }, ['s', 't']);

  it.each([
    [
      'two records files',
      baseline,
      [
        ['accuracy', 't'],
        ['accuracy', undefined],
        ['accuracy', 's'],
      ],
    ],
    ['a metrics file', { kind: 'metrics', file: 'm.json', report: { overall: {}, scenarios: {} } } as RunInput, []],
  ])('%s', (_, against, expected) => {
    const compare = jest.spyOn(PairedRuns.prototype, 'compare');
    try {
      compareAhead(policy, candidate, against, new MetricsMemo());
      expect(compare.mock.calls).toEqual(expected);
    } finally {
      compare.mockRestore();
    }
  });
});

describe('scopes computed elsewhere (a second thread), adopted by the memo once settled', () => {
  const run = constantRun(8, { s: 0.75, t: 0.5 }, ['s', 't']);
  const options = { resamples: 20, seed: 1, minGroupSize: 1 };
  const table = run.kind === 'records' ? run.table : undefined;
  const settledReport = async (scopes: () => Promise<ReturnType<RunMetrics['computeScopes']> | undefined>) => {
    const memo = new MetricsMemo();
    memo.computedElsewhere(run as Extract<RunInput, { kind: 'records' }>, options, scopes);
    await memo.settled();
    return memo.of(run, options);
  };

  it('reads the adopted scopes, not its own: scopes of another seed show', async () => {
    const own = new MetricsMemo().of(run, options);
    const elsewhere = new RunMetrics(table!, { ...options, seed: 2 }).computeScopes([undefined, 's', 't']);
    const adopted = await settledReport(async () => structuredClone(elsewhere));
    expect(adopted.overall.accuracy.value).toBe(own.overall.accuracy.value);
    expect(adopted).toEqual(new RunMetrics(table!, { ...options, seed: 2 }).report());
    expect(adopted).not.toEqual(own);
  });

  it('computes them itself when none came', async () => {
    expect(await settledReport(async () => undefined)).toEqual(new MetricsMemo().of(run, options));
  });
});
