import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { parseGateReport } from '../src/report/json.js';
import type { EvalRecord } from '../src/records/types.js';
import { JUDGE_A, JUDGE_B, judged } from './helpers/judged.js';
import { tempDir, writeLines } from './helpers/records.js';

/* What the gate makes of judged runs, through the CLI in this process (the judge's metrics: judge-metrics.test.ts). */

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
