import { describe, expect, it } from '@jest/globals';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { recordProblem } from '../src/records/validate.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import { JUDGE_A, judged, labelledSet } from './helpers/judged.js';
import { overallValues } from './helpers/records.js';

/* The judge's metrics on hand-worked labelled sets (a gate of judged runs: judge-gate.test.ts). */

describe('judged records', () => {
  it.each([
    [{ judge: { verdict: 'unknown' }, correct: 1 }, '"correct" must be absent when the judge gave no verdict'],
    [{ judge_error: 'HTTP 500', correct: 0 }, '"correct" must be absent when the judge gave no verdict'],
    [{ judge: { verdict: 'pass' } }, '"correct" is required'],
    [{ judge: { verdict: 'maybe' }, correct: 1 }, '"judge.verdict" must be "pass", "fail" or "unknown"'],
    [{ judge: { verdict: 'pass', score: 2 }, correct: 1 }, '"judge.score" must be a number in [0, 1]'],
    [{ judge: { verdict: 'pass' }, judge_error: 'x' }, '"judge" must be absent when "judge_error" is set'],
    [{ error: 'HTTP 500', judge: { verdict: 'fail' } }, '"judge" and "judge_error" must be absent when "error" is set'],
    [{ correct: 1, human: 2 }, '"human" must be a number in [0, 1]'],
    [{ correct: 1, provenance: { scorer: 'x'.repeat(1001) } }, '"provenance.scorer" must be a non-empty string of at most 1000 characters'],
  ])('refuses %j', (fields, problem) => {
    expect(recordProblem({ scenario: 's', id: '1', ...fields })).toContain(problem);
  });

  it('accepts the three kinds of judged record', () => {
    for (const verdict of ['pass', 'unknown', 'error'] as const) expect(recordProblem(judged('1', verdict, 1))).toBeUndefined();
  });
});

describe('the judge metrics', () => {
  it('equal the hand-computed agreement, true positive and true negative rates, over the labelled records with a verdict', () => {
    const values = overallValues(labelledSet());
    expect(values.judge_agreement).toBeCloseTo(7 / 10, 12); // a1-a4, c1-c3 agree; b1, d1, d2 do not
    expect(values.judge_tpr).toBeCloseTo(4 / 5, 12);
    expect(values.judge_tnr).toBeCloseTo(3 / 5, 12);
    expect(values.judge_unknown_rate).toBeCloseTo(2 / 13, 12); // u1 and e1 of 13 judged
    expect(values.judge_error_rate).toBeCloseTo(1 / 13, 12);
    // Ungraded records are left out of accuracy, as failed calls are, and are no failed call of the model.
    expect(values.accuracy).toBeCloseTo(7 / 11, 12);
    expect(values.error_rate).toBe(0);
    // Per scenario too: a second scenario's labels are its own.
    const report = computeMetrics(buildTable([...labelledSet(), judged('z1', 'fail', 1, JUDGE_A, 't')]), {
      resamples: 0,
      seed: 1,
      minGroupSize: 10,
    });
    expect(report.scenarios.s.judge_tpr.value).toBeCloseTo(4 / 5, 12);
    expect(report.scenarios.t.judge_tpr).toMatchObject({ value: 0, n: 1 });
    expect(report.scenarios.t.judge_tnr).toBeUndefined();
    expect(report.overall.judge_tpr.value).toBeCloseTo(4 / 6, 12);
  });

  it("gives the rates Wilson's interval: 4 of 5 is [0.3755, 0.9638]", () => {
    const [low, high] = wilsonInterval(4, 5)!;
    expect(low).toBeCloseTo(0.37553, 4);
    expect(high).toBeCloseTo(0.96378, 4);
    expect(wilsonInterval(0, 10)![0]).toBe(0);
    expect(wilsonInterval(10, 10)![1]).toBe(1);
    const report = computeMetrics(buildTable(labelledSet()), { resamples: 200, seed: 1, minGroupSize: 10 });
    expect(report.overall.judge_tpr.ci![0]).toBeCloseTo(0.37553, 4);
    expect(report.overall.judge_tpr.n).toBe(5);
    expect(report.overall.judge_agreement.ci).toEqual(wilsonInterval(7, 10));
  });

  it("totals the judge's cost apart from the model's", () => {
    const records: EvalRecord[] = [
      { ...judged('1', 'pass'), cost_usd: 0.5, judge: { verdict: 'pass', cost_usd: 0.25 } },
      { ...judged('2', 'unknown'), cost_usd: 0.5, judge: { verdict: 'unknown', raw: '?', cost_usd: 0.125 } },
      { ...judged('3', 'error'), cost_usd: 0.5 },
    ];
    const values = overallValues(records);
    expect(values.cost_usd_total).toBe(1.5);
    expect(values.judge_cost_usd_total).toBe(0.375);
  });

  it("gives the probes' rates their hand-computed values: self-agreement, wins, flips, and wins of the longer answer", () => {
    const pair = (outcome: 'win' | 'loss' | 'tie' | 'unknown', longer?: 'candidate' | 'baseline' | 'same') => ({
      outcome,
      ...(outcome === 'unknown' ? {} : { flipped: outcome === 'tie' }),
      candidate_first: { verdict: 'A' as const },
      baseline_first: { verdict: 'B' as const },
      ...(longer ? { longer } : {}),
    });
    const samples = (...verdicts: Array<'pass' | 'fail' | 'unknown'>) => verdicts.map((verdict) => ({ verdict }));
    const records = [
      // Three samples that agree; a win of the longer answer.
      {
        ...judged('1', 'pass'),
        judge: { verdict: 'pass', samples: samples('pass', 'pass', 'pass') },
        judge_pairwise: pair('win', 'candidate'),
      },
      // Samples that disagree; a tie that flipped with the order (no longer or shorter answer won).
      {
        ...judged('2', 'pass'),
        judge: { verdict: 'pass', samples: samples('pass', 'fail', 'pass') },
        judge_pairwise: pair('tie', 'baseline'),
      },
      // A loss of the longer answer: the shorter won.
      { ...judged('3', 'fail'), judge_pairwise: pair('loss', 'candidate') },
      // No outcome: a loss for the win rate, no flip either way; samples all unknown do not agree.
      { ...judged('4', 'fail'), judge: { verdict: 'fail', samples: samples('unknown', 'unknown') }, judge_pairwise: pair('unknown') },
    ] as EvalRecord[];
    const values = overallValues(records);
    expect(values.judge_self_agreement).toBeCloseTo(1 / 3, 12);
    expect(values.judge_win_rate).toBeCloseTo((1 + 0.5 + 0 + 0) / 4, 12);
    expect(values.judge_flip_rate).toBeCloseTo(1 / 3, 12);
    expect(values.judge_longer_wins_rate).toBeCloseTo(1 / 2, 12);
  });

  it('has no judge metric for records no judge graded', () => {
    const values = overallValues([{ scenario: 's', id: '1', correct: 1 }]);
    expect(Object.keys(values).filter((name) => name.startsWith('judge_'))).toEqual([]);
  });
});
