import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { gatePooled, poolRuns } from '../src/pipeline/pool-runs.js';
import { gateRun } from '../src/pipeline/gate-run.js';
import { parsePolicy } from '../src/policy/load.js';
import { readRecords } from '../src/records/read.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';
import { loadRun } from '../src/runs/load.js';
import { record, tempDir, writeLines } from './helpers/records.js';
import { evalgate } from './helpers/evalgate.js';

/*
 * Re-runs pooled as samples (issue 21, "Re-runs are not draws"): `evalgate gate --prior-run` and the
 * pipeline's poolRuns, which the action uses too (action-reruns.test.ts).
 */

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const POLICY = 'version: 1\nname: reruns\nsettings:\n  resamples: 400\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n';
const policyFile = () => writeLines('policy.yml', [POLICY.trimEnd()]);

// 300 instances, the baseline right on 3 in 4. A run of the truly worse model loses `lost` right answers of its own.
const baselineRecords = Array.from({ length: 300 }, (_, i) => record({ scenario: 's', id: String(i), correct: i % 4 === 0 ? 0 : 1 }));
const worseRun = (lost: number, shift: number) =>
  baselineRecords.map((r, i) => {
    const right = i % 4 !== 0 ? Math.floor(i / 4) * 3 + (i % 4) - 1 : -1; // the k-th right answer
    return right >= 0 && (right + shift) % 225 < lost ? { ...r, correct: 0 } : r;
  });

describe('poolRuns', () => {
  it("moves each run's samples past the earlier runs' and lists each run", async () => {
    const one = writeLines('one.jsonl', [record({ id: 'a', correct: 1 }), record({ id: 'b', correct: 0 })]);
    const two = writeLines('two.jsonl', [
      record({ id: 'a', correct: 0, sample: 0 }),
      record({ id: 'a', correct: 1, sample: 1 }),
      record({ id: 'b', correct: 1, sample: 0 }),
    ]);
    const three = writeLines('three.jsonl', [record({ id: 'a', correct: 1 }), record({ id: 'b', correct: 1, sample: 0 })]);
    const out = join(tempDir(), 'pooled.jsonl');
    const pooled = await poolRuns(
      [
        { file: one, source: 'one' },
        { file: two, source: 'two' },
        { file: three, source: 'three' },
      ],
      out,
    );
    expect((await readRecords(out)).map((r) => `${r.id}:${r.sample}:${r.correct}`)).toEqual([
      'a:0:1',
      'b:0:0',
      'a:1:0',
      'a:2:1',
      'b:1:1',
      'a:3:1',
      'b:3:1',
    ]);
    expect(pooled.runs).toEqual([
      { run: 1, source: 'one', records: 2, samples: { first: 0, last: 0 } },
      { run: 2, source: 'two', records: 3, samples: { first: 1, last: 2 } },
      { run: 3, source: 'three', records: 2, samples: { first: 3, last: 3 } },
    ]);
    // A pool given again as one run lists its runs, numbered on, their samples moved with it.
    const again = await poolRuns(
      [
        { file: out, source: 'kept', pooled: pooled.runs },
        { file: one, source: 'four' },
      ],
      join(tempDir(), 'again.jsonl'),
    );
    expect(again.runs.map((run) => [run.run, run.source, run.samples.first, run.samples.last])).toEqual([
      [1, 'one', 0, 0],
      [2, 'two', 1, 2],
      [3, 'three', 3, 3],
      [4, 'four', 4, 4],
    ]);
    // A pool whose list does not add up to its records is refused.
    await expect(poolRuns([{ file: out, source: 'kept', pooled: pooled.runs.slice(1) }], join(tempDir(), 'bad.jsonl'))).rejects.toThrow(
      'kept: the pooled runs it lists do not add up to its 7 records',
    );
  });

  it('changes no value, interval or decision when the same records are given twice (the engine averages an example’s samples)', async () => {
    const policy = parsePolicy(POLICY, 'reruns.yml');
    const baseline = await loadRun(writeLines('baseline.jsonl', baselineRecords));
    const file = writeLines('worse.jsonl', worseRun(15, 0));
    const alone = await gateRun({ policy, candidate: await loadRun(file), baseline });
    const pooled = await poolRuns(
      [
        { file, source: 'first' },
        { file, source: 'second' },
      ],
      join(tempDir(), 'pooled.jsonl'),
    );
    const twice = await gatePooled({ policy, baseline }, pooled, await loadRun(file));
    // Values, intervals, comparisons and decisions are unchanged. Only the built-in failure-rate check's
    // `n` doubles: error_rate is a share of calls, and every record (each sample of an example) is a call
    // (docs/statistics.md, "Failed calls cannot improve a metric"), while accuracy's n counts examples,
    // an example's samples together as one.
    const ignoringCallCount = (checks: GateReport['checks']) =>
      checks.map((check) =>
        check.metric === 'error_rate' && check.candidate ? { ...check, candidate: { ...check.candidate, n: 0 } } : check,
      );
    expect(ignoringCallCount(twice.checks)).toEqual(ignoringCallCount(alone.checks));
    expect(twice.checks.map((check) => [check.metric, check.candidate?.n])).toEqual([
      ['accuracy', 300],
      ['error_rate', 600],
    ]);
    expect(alone.checks.map((check) => [check.metric, check.candidate?.n])).toEqual([
      ['accuracy', 300],
      ['error_rate', 300],
    ]);
    expect(twice.verdict).toBe('fail');
    expect(twice.candidate).toEqual({ ...alone.candidate, records: 600 });
    expect(twice.evidence?.run).toBe(2);
  });
});

describe('evalgate gate --prior-run', () => {
  const baseline = writeLines('baseline.jsonl', baselineRecords);
  const failed = [writeLines('run1.jsonl', worseRun(15, 0)), writeLines('run2.jsonl', worseRun(15, 100))];
  const lucky = writeLines('run3.jsonl', worseRun(2, 50)); // the same worse model, drawn lucky: -0.7 points

  it('decides on every run given: a lucky draw alone passes, pooled with the failed runs it fails', async () => {
    const policy = policyFile();
    const alone = await cli('gate', '--policy', policy, '--candidate', lucky, '--baseline', baseline);
    expect(alone.code).toBe(0);
    const dir = tempDir();
    const [json, markdown, html] = [join(dir, 'report.json'), join(dir, 'report.md'), join(dir, 'report.html')];
    const args = ['--prior-run', failed[0], '--prior-run', failed[1], '--json', json, '--markdown', markdown];
    const pooled = await cli('gate', '--policy', policy, '--candidate', lucky, '--baseline', baseline, ...args);
    expect(pooled.stderr).toBe('');
    expect(pooled.code).toBe(1);
    const report: GateReport = parseGateReport(readFileSync(json, 'utf8'), json);
    expect(report.verdict).toBe('fail');
    expect(report.candidate).toMatchObject({ file: lucky, records: 900, instances: 300 });
    expect(report.evidence).toEqual({
      run: 3,
      runs: [
        { run: 1, source: failed[0], records: 300, samples: { first: 0, last: 0 } },
        { run: 2, source: failed[1], records: 300, samples: { first: 1, last: 1 } },
        { run: 3, source: lucky, records: 300, samples: { first: 2, last: 2 } },
      ],
    });
    // The pooled worsening: (15 + 15 + 2) / 3 answers of 300.
    expect(report.checks[0].comparison?.worsening).toBeCloseTo(32 / 900, 10);
    expect(readFileSync(markdown, 'utf8')).toContain(
      "> Evidence: run 3: decided on the candidate's records of runs 1-3 pooled (900 records; run j's records are further samples of each example).",
    );
    expect(pooled.stdout).toContain('Evidence: run 3:');
    // The HTML report (the bundle draws its charts) says it under the verdict, as the comment does.
    const page = await evalgate([
      'gate',
      '--policy',
      policy,
      '--candidate',
      lucky,
      '--baseline',
      baseline,
      ...args.slice(0, 4),
      '--html',
      html,
    ]);
    expect(page.stderr).toBe('');
    expect(readFileSync(html, 'utf8')).toContain(
      '<p class="context">Evidence: run 3: decided on the candidate&#39;s records of runs 1-3 pooled (900 records; run j&#39;s records are further samples of each example).</p>',
    );
    // Read back (a posted report), the evidence must be consistent: run k is the last of the runs listed.
    const forged = { ...report, evidence: { ...report.evidence!, run: 1 } };
    expect(() => parseGateReport(JSON.stringify(forged), 'forged.json')).toThrow('evidence: run is the last of runs, numbered from 1');
  });

  it('refuses a metrics file and a bad record, naming the file and line', async () => {
    const policy = policyFile();
    const metrics = join(tempDir(), 'metrics.json');
    const computed = await cli('metrics', failed[0], '--json');
    expect(computed.code).toBe(0);
    writeFileSync(metrics, computed.stdout);
    const asMetrics = await cli('gate', '--policy', policy, '--candidate', lucky, '--prior-run', metrics);
    expect(asMetrics.code).toBe(2);
    expect(asMetrics.stderr).toContain(`${metrics} is a metrics file: only records files can be pooled`);
    const bad = writeLines('bad.jsonl', [record({ id: 'a', correct: 1 }), { scenario: 's', id: 'b', correct: 'yes' }]);
    const badRun = await cli('gate', '--policy', policy, '--candidate', lucky, '--prior-run', bad);
    expect(badRun.code).toBe(2);
    expect(badRun.stderr).toContain(`${bad}:2:`);
    expect(badRun.stderr).toContain('correct');
  });

  it('says so when the pooled runs hold more samples of an example than a records file may', async () => {
    const many = (name: string) =>
      writeLines(
        name,
        Array.from({ length: 600 }, (_, sample) => record({ id: 'a', correct: sample % 2, sample })),
      );
    const policy = join(tempDir(), 'p.yml');
    writeFileSync(policy, 'version: 1\nname: many\nchecks:\n  - metric: accuracy\n    min: 0.1\n');
    const result = await cli('gate', '--policy', policy, '--candidate', many('b.jsonl'), '--prior-run', many('a.jsonl'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/The runs pooled \(.*a\.jsonl, .*b\.jsonl\) cannot be one candidate: .*more than 1000 samples/);
  });
});
