import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { minimumDetectableWorsening } from '../src/gate/power.js';
import type { PlanRow } from '../src/pipeline/plan.js';
import type { EvalRecord } from '../src/records/types.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * evalgate validate and evalgate plan count the built-in test of the judge's unknown verdicts in the
 * blocking family where the gate does: a judged suite (validate --suite), runs with an unknown verdict
 * or a failed judge call (plan), as the failure-rate test is counted where a run failed a call.
 */

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let [stdout, stderr] = ['', ''];
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const JUDGE = 'judge model=openai:judge-a template=closed_qa:0123456789abcdef temperature=0 seed=0 max_tokens=512 parser=1';

/** 400 judged instances, 80% passed; `unknown` of them with no verdict. */
function judgedRun(name: string, unknown: number): string {
  const records = Array.from({ length: 400 }, (_, i): EvalRecord => {
    const base = { scenario: 's', id: String(i), prediction: 'p', provenance: { scorer: JUDGE } };
    if (i < unknown) return { ...base, judge: { verdict: 'unknown', raw: 'maybe', problem: 'not JSON' } } as EvalRecord;
    const passed = i % 5 !== 0;
    return { ...base, correct: passed ? 1 : 0, judge: { verdict: passed ? 'pass' : 'fail' } } as EvalRecord;
  });
  return writeLines(name, records);
}

/** A policy of one regression check of accuracy; its error_rate point bound means no built-in failure-rate test. */
function policyFile(resamples = 1000): string {
  const file = join(tempDir(), 'judged.yml');
  writeFileSync(
    file,
    `version: 1\nname: judged\nsettings:\n  resamples: ${resamples}\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n    detect: 0.04\n  - metric: error_rate\n    max: 0.1\n`,
  );
  return file;
}

describe("the judge's built-in test in the blocking family", () => {
  it('evalgate plan counts it when a run has an unknown verdict, as the gate tests it then', async () => {
    const plan = async (baseline: string) => {
      const { stdout } = await cli('plan', '--policy', policyFile(), '--baseline', baseline, '--json');
      return (JSON.parse(stdout) as { rows: PlanRow[] }).rows[0];
    };
    const clean = await plan(judgedRun('clean.jsonl', 0));
    // No unknown verdict: the gate passes the built-in check outside the family; one test has all of 0.05.
    expect(clean.mde).toBeCloseTo(minimumDetectableWorsening(clean.spread, 0.01, 0.05), 12);
    const unknowns = await plan(judgedRun('unknowns.jsonl', 4));
    // With one: two tests share 0.05 under Holm.
    expect(unknowns.mde).toBeCloseTo(minimumDetectableWorsening(unknowns.spread, 0.01, 0.05 / 2), 12);
  });

  it('evalgate validate --suite counts it for a judged suite, naming it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'answers.jsonl'), '{"id": "q1", "input": "question", "references": ["answer"]}\n');
    const suite = (scorer: string) => {
      const file = join(dir, `${scorer}.yaml`);
      const options = scorer === 'judge' ? '\n    scorer_options:\n      model: command:"node judge.mjs"' : '';
      writeFileSync(file, `version: 1\nname: s\nscenarios:\n  - name: answers\n    data: answers.jsonl\n    scorer: ${scorer}${options}\n`);
      return file;
    };
    // 39 resamples reach 0.05 for one test (39 + 1 > 1 / 0.05), not for two.
    const policy = policyFile(39);
    expect((await cli('validate', policy)).code).toBe(0);
    expect((await cli('validate', policy, '--suite', suite('exact_match'))).code).toBe(0);
    const judged = await cli('validate', policy, '--suite', suite('judge'));
    expect(judged.code).toBe(2);
    expect(judged.stderr).toContain(
      "settings.resamples: 39 resamples cannot reach significance 0.05 over 2 tests (holm, one of them the built-in test of the judge's unknown verdicts): a p-value is at least 1/(resamples + 1); use at least 40",
    );
  });
});
