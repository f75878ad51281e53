import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';
import type { EvalRecord } from '../src/records/types.js';
import { record, tempDir, writeLines } from './helpers/records.js';
import { unwrapped } from './helpers/evalgate.js';

// The HTML report loads vega and vega-lite at once, which Jest's module linker fails the first time:
// loaded here one by one (as helpers/action-in-process.ts does).
await import('vega');
await import('vega-lite');

/*
 * Issue 21, point 2: the gate fails closed where the candidate cannot be compared, says "inconclusive"
 * where the baseline cannot tell, and counts the checks that did not run. Each fail-open case of the
 * issue, on records files through the CLI (in this process), as a user meets it.
 */

async function gate(...argv: string[]) {
  const dir = tempDir();
  const files = { json: join(dir, 'r.json'), markdown: join(dir, 'r.md'), html: join(dir, 'r.html') };
  let stdout = '';
  let stderr = '';
  const code = await runCli(['gate', ...argv, '--json', files.json, '--markdown', files.markdown, '--html', files.html], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  const read = (file: string) => (code === 2 ? '' : readFileSync(file, 'utf8'));
  const json = read(files.json);
  return {
    code,
    stdout,
    stderr,
    report: json ? parseGateReport(json, 'r.json') : undefined,
    markdown: read(files.markdown),
    html: read(files.html),
  };
}

function writePolicy(checks: string): string {
  const path = join(tempDir(), 'policy.yml');
  writeFileSync(path, `version: 1\nname: t\nsettings:\n  resamples: 200\nchecks:\n${checks}`);
  return path;
}

const statusOf = (report: GateReport | undefined, metric: string) => report?.checks.find((check) => check.metric === metric)?.status;

// 200 instances, right on 3 in 4, each with a latency and a confidence.
const baseRecords: EvalRecord[] = Array.from({ length: 200 }, (_, i) =>
  record({ id: String(i), correct: i % 4 === 0 ? 0 : 1, latency_ms: 100 + i, confidence: 0.8 }),
);
const baseline = writeLines('baseline.jsonl', baseRecords);
const REGRESSIONS =
  '  - metric: accuracy\n    max_regression: 0.01\n' +
  '  - metric: ece\n    max_regression: 0.02\n' +
  '  - metric: latency_p95_ms\n    max_regression: 20%\n';

describe('a candidate that cannot be compared fails closed', () => {
  it('errors on the metrics a candidate drops on the shared instances, though it adds new good instances', async () => {
    const dropped = [
      ...baseRecords.map(({ latency_ms: _latency, confidence: _confidence, ...rest }) => rest),
      ...Array.from({ length: 50 }, (_, i) => record({ id: `new-${i}`, correct: 1, latency_ms: 10, confidence: 0.99 })),
    ];
    const candidate = writeLines('dropped.jsonl', dropped);
    const result = await gate('--policy', writePolicy(REGRESSIONS), '--candidate', candidate, '--baseline', baseline);
    expect([result.code, result.report?.verdict]).toEqual([1, 'fail']);
    expect(['accuracy', 'ece', 'latency_p95_ms'].map((metric) => statusOf(result.report, metric))).toEqual(['pass', 'error', 'error']);
    expect(result.report?.checks[1].reasons).toEqual([
      'regression not checked: the candidate has no ece on the 200 instances the runs share',
    ]);
    expect(result.report?.notRun).toBe(2);
    expect(unwrapped(result.stdout)).toMatch(
      /^evalgate: FAIL \(2 blocking checks failed\) — 2 of 4 checks did not run \(2 errors\) · outcome error · policy t\n/,
    );
    expect(result.markdown).toMatch(
      /^## ❌ evalgate: fail \(2 blocking checks failed\) — 2 of 4 checks did not run \(2 errors\) · outcome error · policy t\n/,
    );
  });

  it("errors when every one of the baseline's calls failed: nothing of it can be compared", async () => {
    const failed = writeLines(
      'failed.jsonl',
      baseRecords.map(({ correct: _correct, ...rest }) => ({ ...rest, error: 'timeout' })),
    );
    const policy = writePolicy('  - metric: accuracy\n    max_regression: 0.01\n');
    const result = await gate('--policy', policy, '--candidate', baseline, '--baseline', failed);
    expect([result.code, result.report?.verdict, statusOf(result.report, 'accuracy')]).toEqual([1, 'fail', 'error']);
    expect(result.report?.checks[0].reasons).toEqual([
      'regression not checked: the baseline answered none of the 200 instances it shares with the candidate (every call failed)',
    ]);
  });
});

describe('a baseline without the metric', () => {
  // The candidate records confidence 0.95 and is right on half: its ece is 0.45; the baseline has no confidence.
  const confident = baseRecords.map((r, i) => ({ ...r, correct: i % 2, confidence: 0.95 }));
  const candidate = writeLines('confident.jsonl', confident);
  const noConfidence = writeLines(
    'no-confidence.jsonl',
    confident.map(({ confidence: _confidence, ...rest }) => rest),
  );

  it('makes the regression check inconclusive, a warning: never a pass', async () => {
    const result = await gate('--policy', writePolicy(REGRESSIONS), '--candidate', candidate, '--baseline', noConfidence);
    expect(result.report?.checks.find((check) => check.metric === 'ece')).toMatchObject({
      status: 'inconclusive',
      comparison: null,
      reasons: ['regression inconclusive: the baseline has no ece on the 200 instances the runs share (a metric it did not record)'],
    });
    expect([result.code, result.report?.verdict, result.report?.notRun]).toEqual([0, 'warn', 1]);
    expect(unwrapped(result.stdout)).toMatch(
      /^evalgate: WARN \(2 inconclusive\) — 1 of 4 checks did not run \(1 inconclusive\) · outcome inconclusive · policy t\n/,
    );
    expect(unwrapped(result.stdout)).toContain(
      '  inconclusive ece (overall) is inconclusive: regression inconclusive: the baseline has no ece',
    );
    expect(result.markdown).toContain('- ❔ **ece** (overall) is inconclusive: regression inconclusive: the baseline has no ece');
    expect(result.html).toContain('<h1>evalgate: warn — 1 of 4 checks did not run (1 inconclusive)</h1>');
  });

  it('still judges the bounds: a candidate over its maximum fails', async () => {
    const policy = writePolicy('  - metric: ece\n    max: 0.1\n    max_regression: 0.02\n');
    const result = await gate('--policy', policy, '--candidate', candidate, '--baseline', noConfidence);
    expect([result.code, result.report?.verdict, statusOf(result.report, 'ece')]).toEqual([1, 'fail', 'fail']);
    expect(result.report?.checks[0].reasons[0]).toBe('above the maximum 10% (the debiased estimate 45%)');
  });

  it('is inconclusive in a scenario the baseline does not have yet', async () => {
    const grown = writeLines('grown.jsonl', [...baseRecords, ...baseRecords.map((r) => ({ ...r, scenario: 'new' }))]);
    const policy = writePolicy('  - metric: accuracy\n    scenario: new\n    max_regression: 0.01\n');
    const result = await gate('--policy', policy, '--candidate', grown, '--baseline', baseline);
    expect(result.report?.checks[0]).toMatchObject({
      status: 'inconclusive',
      reasons: ['regression inconclusive: the baseline has no instance in new'],
    });
    expect(result.report?.verdict).toBe('warn');
  });
});

describe('a gate without a baseline', () => {
  const example = 'examples/billing/baseline.jsonl';

  it('says how many checks did not run, in every report, never a bare pass', async () => {
    const result = await gate('--policy', 'policies/default.yml', '--candidate', example);
    expect([result.code, result.report?.verdict, result.report?.notRun]).toEqual([0, 'pass', 6]);
    expect(unwrapped(result.stdout)).toMatch(
      /^evalgate: PASS — 6 of 8 checks did not run \(6 skipped\) · policy default · no baseline: regression budgets were skipped\n/,
    );
    expect(result.markdown).toMatch(
      /^## ✅ evalgate: pass — 6 of 8 checks did not run \(6 skipped\) · policy default · no baseline: regression budgets were skipped\n/,
    );
    expect(result.html).toContain('<title>evalgate: pass — 6 of 8 checks did not run (6 skipped) · default</title>');
    expect(result.html).toContain(
      'Verdict: PASS (0 blocking checks failed, 0 warnings, 0 inconclusive) — 6 of 8 checks did not run (6 skipped)',
    );
  });

  it('makes the regression checks inconclusive with --missing-baseline inconclusive (as the action on a pull request)', async () => {
    const result = await gate('--policy', 'policies/default.yml', '--candidate', example, '--missing-baseline', 'inconclusive');
    expect([result.code, result.report?.verdict, result.report?.notRun]).toEqual([0, 'warn', 6]);
    expect(result.report?.checks.map((check) => check.status)).toEqual([
      ...Array(4).fill('inconclusive'),
      'pass',
      'pass',
      'inconclusive',
      'inconclusive',
    ]);
    expect(unwrapped(result.stdout)).toMatch(
      /^evalgate: WARN — 6 of 8 checks did not run \(6 inconclusive\) · outcome inconclusive · policy default · no baseline: regression budgets were inconclusive\n/,
    );
    const wrong = await gate('--policy', 'policies/default.yml', '--candidate', example, '--missing-baseline', 'fail');
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining('expected skip or inconclusive, got "fail"')]);
  });
});

describe("the report's count of checks that did not run", () => {
  it('is read back only when it follows from the checks', async () => {
    const result = await gate('--policy', writePolicy(REGRESSIONS), '--candidate', baseline);
    const report = result.report!;
    expect(report.notRun).toBe(3);
    expect(() => parseGateReport(JSON.stringify({ ...report, notRun: 0 }), 'r.json')).toThrow(
      'r.json: notRun 0 does not follow from the checks (3 did not run)',
    );
    const { notRun: _notRun, ...older } = report; // reports from before the field read back
    expect(parseGateReport(JSON.stringify(older), 'r.json').notRun).toBeUndefined();
  });
});
