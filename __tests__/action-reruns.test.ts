import { beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { BASE_SHA, HEAD_SHA, regressionRuns, STRICT_POLICY, useFakeGitHub, writeFile, type ActionRun } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { useFakeCacheInProcess, type FakeCache } from './helpers/cache-server.js';
import { readJsonLines, writeSuite } from './helpers/evalgate.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { useFakeOpenAI, type FakeOpenAI } from './helpers/openai-server.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * Re-runs are not draws (issue 21): a pull request's runs at one head commit under one policy decide on
 * the candidate's records of all of them, kept in the Actions cache under the pull request's own key.
 * In-process, with the real @actions/cache against the local stand-in for the cache service. The
 * Done-when simulation: action-e2e-reruns.test.ts (the bundle).
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
let cache: FakeCache;
useFakeCacheInProcess((server) => (cache = server));
let model: FakeOpenAI;
useFakeOpenAI((server) => (model = server));

const runAction = (run: ActionRun) => runInProcess(github, run);
const reportOf = (result: { output(name: string): string | undefined }) =>
  JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;

const { baselineRecords, baseline, worseRecords } = regressionRuns();
/** The same worse model drawn lucky: 2 right answers lost (-0.7 points), not significantly worse alone. */
const luckyRecords = baselineRecords.map((r, i) => (i === 1 || i === 2 ? { ...r, correct: 0 } : r));

/** The candidate's records file as an eval-command writes it: one path, rewritten by every run. */
function candidateFile(records: object[], path = join(tempDir(), 'candidate.jsonl')): string {
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

/**
 * Budget 0: a significant worsening blocks. The worse model's run (15 right answers lost of 300) fails;
 * its lucky draw alone (2 lost: a resample holds neither instance about e^-2 of the time, p ~ 0.13)
 * passes; the two pooled (17 lost of 2 x 300) fail. Not STRICT_POLICY: a budget is tested as H0:
 * worsening <= budget, and this pool's 0.028 is over its 0.02 but not significantly (p ~ 0.14), so it
 * would pass there, rightly: two runs of 300 cannot show a model 5 points worse to be over a 2-point budget
 * once one of them drew 0.7.
 */
const POOLING_POLICY = 'version: 1\nname: support\nsettings:\n  resamples: 200\nchecks:\n  - metric: accuracy\n    max_regression: 0\n';

const runsKeys = () => cache.keys().filter((entry) => entry.startsWith('evalgate-runs-'));

describe("a pull request's re-runs", () => {
  const policy = writeFile('p.yml', POOLING_POLICY);
  const pullInputs = (candidate: string) => ({ policy, candidate, 'policy-source': 'head' });

  beforeAll(async () => {
    expect((await runAction({ event: 'push', sha: BASE_SHA, inputs: { policy, candidate: baseline } })).code).toBe(0);
  });

  it("pool the earlier attempts' records: a lucky re-run does not turn the failed commit green", async () => {
    const candidate = candidateFile(worseRecords);
    const first = await runAction({ pullNumber: 21, runId: '500', runAttempt: 1, inputs: pullInputs(candidate) });
    expect(first.code).toBe(1);
    expect(reportOf(first).evidence).toEqual({
      run: 1,
      runs: [{ run: 1, source: 'workflow run 500, attempt 1', records: 300, samples: { first: 0, last: 0 } }],
      kept: true,
    });
    expect(runsKeys()).toEqual([
      expect.stringMatching(new RegExp(`^evalgate-runs-support-[0-9a-f]{16}-pr21-${HEAD_SHA}-500-1-[0-9a-f]{8}$`)),
    ]);

    candidateFile(luckyRecords, candidate);
    const second = await runAction({ pullNumber: 21, runId: '500', runAttempt: 2, inputs: pullInputs(candidate) });
    expect(second.log).toContain("Restored the candidate's records of 1 earlier run(s) of pull request #21");
    expect(second.code).toBe(1);
    const report = reportOf(second);
    expect(report.candidate).toMatchObject({ file: candidate, records: 600, instances: 300 });
    expect(report.evidence?.runs.map((run) => [run.source, run.records, run.samples.first])).toEqual([
      ['workflow run 500, attempt 1', 300, 0],
      ['workflow run 500, attempt 2', 300, 1],
    ]);
    expect(report.checks[0].comparison?.worsening).toBeCloseTo(17 / 600, 10); // (15 + 2) right answers lost of 2 x 300
    expect(second.summary).toContain("> Evidence: run 2: decided on the candidate's records of runs 1-2 pooled (600 records;");
    // A new workflow run of the same head commit (the pull request reopened) pools them too.
    const third = await runAction({ pullNumber: 21, runId: '501', runAttempt: 1, inputs: pullInputs(candidate) });
    expect(reportOf(third).evidence?.run).toBe(3);
    expect(third.code).toBe(1);
    expect(runsKeys()).toHaveLength(3);

    // The same lucky records elsewhere decide alone, and pass: another pull request, another head commit, another policy.
    const otherPull = await runAction({ pullNumber: 22, runId: '502', inputs: pullInputs(candidate) });
    const otherHead = await runAction({ pullNumber: 21, sha: 'e'.repeat(40), runId: '503', inputs: pullInputs(candidate) });
    writeFileSync(policy, `${POOLING_POLICY}# edited\n`);
    const otherPolicy = await runAction({ pullNumber: 21, runId: '504', inputs: pullInputs(candidate) });
    writeFileSync(policy, POOLING_POLICY);
    for (const alone of [otherPull, otherHead, otherPolicy]) {
      expect(alone.log).not.toContain('Restored the candidate');
      expect(reportOf(alone).evidence?.run).toBe(1);
      expect(alone.code).toBe(0);
    }
  });

  it("never feed a baseline: a push of the pull request's head commit saves its own records only", async () => {
    const candidate = candidateFile(worseRecords);
    expect((await runAction({ pullNumber: 31, runId: '600', inputs: pullInputs(candidate) })).code).toBe(1);
    const merged = candidateFile(luckyRecords, candidate);
    const push = await runAction({ event: 'push', sha: HEAD_SHA, inputs: { policy, candidate: merged } });
    expect(push.log).not.toContain('Restored the candidate');
    expect(push.log).not.toContain('Kept the candidate');
    expect(reportOf(push).evidence).toBeUndefined();
    expect(cache.keys().filter((entry) => entry.startsWith('evalgate-baseline-support-'))).toContainEqual(
      expect.stringMatching(new RegExp(`-${HEAD_SHA}$`)),
    );
    // The next pull request is measured against the push's 300 lucky records, not the pool of pull request #31's runs.
    const next = await runAction({ pullNumber: 32, baseSha: HEAD_SHA, sha: 'a'.repeat(40), inputs: pullInputs(baseline) });
    const report = reportOf(next);
    expect(report.baseline).toMatchObject({ commit: HEAD_SHA, records: 300, instances: 300 });
    expect(report.checks[0].comparison?.baseline).toBeCloseTo(223 / 300, 10);
  });

  it('pool in suite mode too', async () => {
    const dir = tempDir();
    // The fake model at temperature 1 answers "refund", then "deny", then "escalate" to the same question: wrong, then right.
    const ids = Array.from({ length: 10 }, (_, i) => `q${i}`);
    const suite = writeSuite(
      dir,
      ids.map((id) => ({ id, input: `question ${id} of ${dir}`, references: ['deny'] })),
      'scorer: exact_match\ngeneration: { temperature: 1 }',
    );
    const inputs = {
      policy: writeFile('p.yml', 'version: 1\nname: sampled\nchecks:\n  - metric: accuracy\n    min: 0.6\n'),
      'policy-source': 'head',
      suite,
      model: 'openai:m',
      'base-url': model.url,
    };
    const env = { OPENAI_API_KEY: 'sk-test' };
    const first = await runAction({ pullNumber: 41, runId: '700', inputs, env });
    expect(first.output('verdict')).toBe('fail');
    const second = await runAction({ pullNumber: 41, runId: '700', runAttempt: 2, inputs, env });
    // This run's own records alone are all right; pooled with the first run's, accuracy is 0.5.
    expect(readJsonLines(second.output('records')!).map((r) => r.prediction)).toEqual(Array(10).fill('deny'));
    expect(reportOf(second).checks[0].candidate?.value).toBe(0.5);
    expect(reportOf(second).evidence?.run).toBe(2);
    expect(second.code).toBe(1);
  });
});

describe('without an Actions cache', () => {
  it('decides alone and says that the run was not kept', async () => {
    const variables = ['ACTIONS_RESULTS_URL', 'ACTIONS_CACHE_SERVICE_V2'] as const;
    const saved = variables.map((name) => process.env[name]);
    variables.forEach((name) => delete process.env[name]);
    try {
      const policy = writeFile('p.yml', STRICT_POLICY);
      const result = await runAction({ inputs: { policy, candidate: writeLines('c.jsonl', luckyRecords), 'policy-source': 'head' } });
      expect(reportOf(result).evidence).toMatchObject({ run: 1, kept: false });
      expect(result.summary).toContain('not kept: a re-run decides alone.');
    } finally {
      variables.forEach((name, i) => (process.env[name] = saved[i]));
    }
  });
});
