import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { parseGateReport } from '../src/report/json.js';
import type { EvalRecord } from '../src/records/types.js';
import { recordProblem } from '../src/records/validate.js';
import { wilsonInterval } from '../src/stats/proportion.js';
import { overallValues, tempDir, writeLines } from './helpers/records.js';

/* The judge's metrics on hand-worked labelled sets, and what the gate makes of judged runs. */

const JUDGE_A =
  'judge model=openai:judge-a served=judge-a template=closed_qa:0123456789abcdef temperature=0 seed=0 max_tokens=512 parser=1';
const JUDGE_B =
  'judge model=openai:judge-b served=judge-b template=closed_qa:0123456789abcdef temperature=0 seed=0 max_tokens=512 parser=1';

/** A judged record: a verdict (or "unknown", or "error": a failed judge call), a label, a fingerprint. */
function judged(id: string, verdict: 'pass' | 'fail' | 'unknown' | 'error', human?: number, scorer = JUDGE_A, scenario = 's'): EvalRecord {
  const base = { scenario, id, prediction: 'p', provenance: { scorer }, ...(human === undefined ? {} : { human }) };
  if (verdict === 'error') return { ...base, judge_error: 'HTTP 500: judge overloaded' };
  if (verdict === 'unknown') return { ...base, judge: { verdict, raw: 'maybe', problem: 'not JSON' } };
  return { ...base, correct: verdict === 'pass' ? 1 : 0, judge: { verdict } };
}

/** A labelled set: right answers passed 4, failed 1; wrong answers failed 3, passed 2; and the unlabelled or ungraded. */
function labelledSet(): EvalRecord[] {
  return [
    ...['a1', 'a2', 'a3', 'a4'].map((id) => judged(id, 'pass', 1)),
    judged('b1', 'fail', 0.9),
    ...['c1', 'c2', 'c3'].map((id) => judged(id, 'fail', 0)),
    ...['d1', 'd2'].map((id) => judged(id, 'pass', 0.2)),
    judged('u1', 'unknown', 1),
    judged('e1', 'error', 0),
    judged('n1', 'pass'),
  ];
}

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

  it('has no judge metric for records no judge graded', () => {
    const values = overallValues([{ scenario: 's', id: '1', correct: 1 }]);
    expect(Object.keys(values).filter((name) => name.startsWith('judge_'))).toEqual([]);
  });
});

/** `evalgate gate` in this process on two records files: exit code, output and the JSON report. */
async function gate(candidate: EvalRecord[], baseline: EvalRecord[], checks = '  - metric: accuracy\n    max_regression: 0.05\n') {
  const dir = tempDir();
  const policy = join(dir, 'policy.yml');
  writeFileSync(policy, `version: 1\nname: judged\nsettings:\n  resamples: 500\nchecks:\n${checks}`);
  const json = join(dir, 'report.json');
  let out = '';
  const args = ['gate', '--policy', policy, '--candidate', writeLines('c.jsonl', candidate), '--baseline', writeLines('b.jsonl', baseline)];
  const code = await runCli([...args, '--json', json], { stdout: (text) => (out += text), stderr: (text) => (out += text) });
  return { code, out, report: parseGateReport(readFileSync(json, 'utf8'), json) };
}

const many = (count: number, verdict: (index: number) => 'pass' | 'fail' | 'unknown', scorer = JUDGE_A) =>
  Array.from({ length: count }, (_, index) => judged(`q${index}`, verdict(index), undefined, scorer));

describe('a gate of judged runs', () => {
  it('is an error naming both fingerprints when the baseline and the candidate were judged by different judges', async () => {
    const { code, report } = await gate(
      many(60, () => 'pass', JUDGE_B),
      many(60, () => 'pass'),
    );
    expect(code).toBe(1);
    const accuracy = report.checks.find((check) => check.metric === 'accuracy')!;
    expect(accuracy.status).toBe('error');
    // Both judges named by the parts of their fingerprints that differ: a report cuts data at 400 characters.
    expect(accuracy.reasons.join(' ')).toContain(
      'the baseline was judged by "judge model=openai:judge-a served=judge-a ..." and the candidate by "judge model=openai:judge-b served=judge-b ..." in scenario "s"',
    );
    expect(accuracy.reasons.join(' ')).toContain('evalgate rejudge');
  });

  it('reads no fingerprint in failed calls and failed judge calls, which nothing graded', async () => {
    const candidate = [
      ...many(60, () => 'pass'),
      { scenario: 's', id: 'x', error: 'HTTP 500' },
      judged('y', 'error', undefined, 'judge unnamed'),
    ];
    const { report } = await gate(
      candidate,
      many(60, () => 'pass'),
    );
    expect(report.checks.find((check) => check.metric === 'accuracy')!.status).not.toBe('error');
  });

  it('applies no trade-off on an improvement graded by another judge', async () => {
    const tradeoff =
      '  - metric: accuracy\n    max_regression: 0.05\n  - metric: latency_p50_ms\n    max_regression: 1\ntradeoffs:\n  - name: judged\n    allow:\n      - { metric: latency_p50_ms, max_regression: 100 }\n    when:\n      - { metric: accuracy, min_improvement: 0.01 }\n';
    const { report } = await gate(
      many(60, () => 'pass', JUDGE_B),
      many(60, (index) => (index % 2 === 0 ? 'pass' : 'fail')),
      tradeoff,
    );
    expect(report.tradeoffs[0]).toMatchObject({ applied: false });
    expect(report.tradeoffs[0].reasons.join(' ')).toContain('the baseline was judged by');
  });

  it('calls a judge against records no judge graded different too', async () => {
    const { report } = await gate(
      many(60, () => 'pass'),
      Array.from({ length: 60 }, (_, i) => ({ scenario: 's', id: `q${i}`, correct: 1 })),
    );
    expect(report.checks.find((check) => check.metric === 'accuracy')!.reasons.join(' ')).toContain(
      'judged by no judge and the candidate by',
    );
  });

  it('compares runs judged alike, and blocks a candidate the judge leaves ungraded more often (the built-in check)', async () => {
    const same = await gate(
      many(60, () => 'pass'),
      many(60, () => 'pass'),
    );
    expect(same.code).toBe(0);
    const builtin = same.report.checks.find((check) => check.metric === 'judge_unknown_rate')!;
    expect(builtin).toMatchObject({ status: 'pass', builtin: true });
    // A candidate whose wrong answers come back unknown: its accuracy looks perfect, the built-in check blocks it.
    const hiding = await gate(
      many(60, (index) => (index % 3 === 0 ? 'unknown' : 'pass')),
      many(60, () => 'pass'),
    );
    const accuracy = hiding.report.checks.find((check) => check.metric === 'accuracy')!;
    expect(accuracy.candidate?.value).toBe(1);
    expect(accuracy.status).not.toBe('fail');
    expect(hiding.report.checks.find((check) => check.metric === 'judge_unknown_rate')).toMatchObject({ status: 'fail', builtin: true });
    expect(hiding.code).toBe(1);
    // Nor do they cover the baseline's instances: coverage counts answers the judge graded.
    expect(hiding.report.coverage).toMatchObject({ covered: 40, baselineInstances: 60 });
  });

  it('lets a policy that checks judge_unknown_rate itself rule it, and bound the agreement with people', async () => {
    const labelled = Array.from({ length: 40 }, (_, index) => judged(`q${index}`, 'pass', 1));
    const { report } = await gate(
      labelled,
      labelled,
      '  - metric: judge_unknown_rate\n    max: 0.1\n  - metric: judge_tpr\n    min: 0.8\n',
    );
    expect(report.checks.filter((check) => check.metric === 'judge_unknown_rate')).toHaveLength(1);
    expect(report.checks.find((check) => check.metric === 'judge_tpr')).toMatchObject({ status: 'pass' });
  });
});
