import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { evalgate, unwrapped } from './helpers/evalgate.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * When failed calls decide the gate (error_rate, coverage, a metric no record has), the report of the
 * bundled `evalgate gate` names their most common error, in every format.
 */

const NOT_FOUND = 'HTTP 404: 404 The model `gpt-5-mini-typo` does not exist';

/** `evalgate gate` with its JSON and markdown reports: their texts and stdout. */
async function gate(policyChecks: string, candidate: string, baseline?: string) {
  const dir = tempDir();
  const policy = join(dir, 'p.yml');
  writeFileSync(
    policy,
    `version: 1\nname: failures\nsettings:\n  resamples: 200\n  coverage: { severity: block }\nchecks:\n${policyChecks}`,
  );
  const reports = ['--json', join(dir, 'report.json'), '--markdown', join(dir, 'comment.md')];
  const result = await evalgate([
    'gate',
    '--policy',
    policy,
    '--candidate',
    candidate,
    ...(baseline ? ['--baseline', baseline] : []),
    ...reports,
  ]);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as GateReport;
  return { result, report, markdown: readFileSync(join(dir, 'comment.md'), 'utf8') };
}

/** 30 records: the first `failed` with errors (three in four NOT_FOUND, the rest a time-out), the others right. */
function run(name: string, failed: number): string {
  return writeLines(
    name,
    Array.from({ length: 30 }, (_, i) =>
      i < failed ? { scenario: 's', id: `q${i}`, error: i % 4 === 3 ? 'timed out' : NOT_FOUND } : record({ id: `q${i}` }),
    ),
  );
}

describe('the gate names the most common failed call', () => {
  it('where a metric has no value because every call failed', async () => {
    const { result, report, markdown } = await gate('  - metric: accuracy\n    min: 0.8\n', run('all-failed.jsonl', 30));
    expect(result.code).toBe(1);
    const accuracy = report.checks.find((check) => check.metric === 'accuracy')!;
    expect(accuracy.status).toBe('error');
    expect(accuracy.reasons).toEqual([
      'the candidate has no accuracy for overall',
      `the most common error of the candidate's 30 failed calls (23 of them): ${NOT_FOUND}`,
    ]);
    expect(unwrapped(result.stdout)).toContain("the most common error of the candidate's 30 failed calls (23 of them): HTTP 404");
    expect(markdown).toContain(
      "the most common error of the candidate's 30 failed calls (23 of them): HTTP 404: 404 The model \\`gpt-5-mini-typo\\`",
    );
  });

  it('where error_rate fails, and not where it passes', async () => {
    const failing = await gate('  - metric: error_rate\n    max: 0.05\n', run('some-failed.jsonl', 8));
    expect(failing.result.code).toBe(1);
    expect(failing.report.checks[0].reasons.at(-1)).toBe(
      `the most common error of the candidate's 8 failed calls (6 of them): ${NOT_FOUND}`,
    );
    const passing = await gate('  - metric: error_rate\n    max: 0.5\n  - metric: accuracy\n    min: 0.1\n', run('few-failed.jsonl', 8));
    expect(passing.report.verdict).toBe('pass');
    expect(JSON.stringify(passing.report.checks)).not.toContain('most common error');
  });

  it('where coverage falls short', async () => {
    const { report, result } = await gate('  - metric: accuracy\n    min: 0.1\n', run('candidate.jsonl', 8), run('baseline.jsonl', 0));
    expect(result.code).toBe(1);
    expect(report.coverage).toMatchObject({ status: 'fail', covered: 22 });
    expect(report.coverage!.reason).toMatch(
      new RegExp(
        `^the candidate answered 22 of the baseline's 30 instances .*; the most common error of the candidate's 8 failed calls \\(6 of them\\): HTTP 404`,
      ),
    );
    // The accuracy check passed: its reasons do not blame failures.
    expect(report.checks[0].reasons.join(' ')).not.toContain('most common error');
  });
});
