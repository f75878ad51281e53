import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateRun } from '../src/pipeline/gate-run.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import type { GateReport } from '../src/report/json.js';
import { loadRun } from '../src/runs/load.js';
import { runAction, useFakeGitHub, writeFile } from './helpers/action.js';
import { cacheEnvironment, useFakeCache, type FakeCache } from './helpers/cache-server.js';
import { flakyPullRequest, PULL_REQUESTS, RERUNS, RERUNS_POLICY, rerunUntilGreen, type Reruns } from './helpers/flaky-model.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * Issue 21's Done-when, through the bundle: re-running a failed commit 5 times with a flaky model whose
 * true drop equals `detect` passes the step in at most 1 of 10 pull requests. Each run is the bundled
 * action in a child process with the Actions cache stand-in (the runs kept between attempts are the
 * bundle's own cache entries); the pull requests run one after another, each one's attempts in turn.
 * Each run alone (the rule before runs were pooled) is gated too, in-process on the same draws, to show
 * that the scenario can fail: alone, re-running is a lottery.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
let cache: FakeCache;
useFakeCache((server) => (cache = server));

/** Whether each of the runs, deciding alone, fails; stops at the first that passes after a failed first. */
async function aloneRuns(baseline: string, draws: EvalRecord[][]): Promise<Reruns> {
  const policy = parsePolicy(RERUNS_POLICY, 'reruns.yml');
  const against = await loadRun(baseline);
  return rerunUntilGreen(async (attempt) => {
    const report = await gateRun({ policy, candidate: await loadRun(writeLines('alone.jsonl', draws[attempt - 1])), baseline: against });
    return report.verdict !== 'fail';
  });
}

/**
 * One pull request: its baseline given, the candidate's records drawn anew before every attempt (as its
 * evaluation would), through the bundled action (runs pooled), and each run alone on the same draws.
 */
async function pullRequest(index: number, policy: string): Promise<{ pooled: Reruns; alone: Reruns }> {
  const pull = flakyPullRequest(index);
  const draws = Array.from({ length: RERUNS + 1 }, () => pull.draw());
  const baseline = writeLines('baseline.jsonl', pull.baseline);
  const candidate = join(tempDir(), 'candidate.jsonl');
  const inputs = { policy, 'policy-source': 'head', candidate, baseline, comment: 'false' };
  const pooled = await rerunUntilGreen(async (attempt) => {
    writeFileSync(candidate, `${draws[attempt - 1].map((record) => JSON.stringify(record)).join('\n')}\n`);
    const result = await runAction(github, {
      pullNumber: 200 + index,
      runId: String(8000 + index),
      runAttempt: attempt,
      inputs,
      env: cacheEnvironment(cache),
    });
    const report = JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;
    // Run k decides on the records of runs 1..k, and says so.
    expect(report.evidence?.run).toBe(attempt);
    expect(report.candidate.records).toBe(attempt * pull.baseline.length);
    expect(result.code === 0).toBe(report.verdict !== 'fail');
    return result.code === 0;
  });
  return { pooled, alone: await aloneRuns(baseline, draws) };
}

describe('re-running a failed commit through the bundled action', () => {
  it('passes the step in at most 1 of 10 pull requests when the flaky model is truly `detect` worse; alone, far more often', async () => {
    const policy = writeFile('reruns.yml', RERUNS_POLICY);
    // One pull request after another: bundles side by side would starve the other worker's tests of the CPUs.
    const outcomes: Array<{ pooled: Reruns; alone: Reruns }> = [];
    for (let index = 0; index < PULL_REQUESTS; index++) outcomes.push(await pullRequest(index, policy));
    const pooled = outcomes.map((outcome) => outcome.pooled);
    const alone = outcomes.map((outcome) => outcome.alone);
    const count = (runs: Reruns[], key: 'failedFirst' | 'escaped') => runs.filter((run) => run[key]).length;
    // The first run is the same decision under both rules: it sees the drop most of the time.
    expect(count(pooled, 'failedFirst')).toBe(count(alone, 'failedFirst'));
    expect(count(pooled, 'failedFirst')).toBeGreaterThanOrEqual(6);
    expect(count(pooled, 'escaped')).toBeLessThanOrEqual(1);
    expect(count(alone, 'escaped')).toBeGreaterThanOrEqual(3);
    expect(cache.keys().filter((key) => key.startsWith('evalgate-runs-reruns-'))).toHaveLength(
      pooled.reduce((total, outcome) => total + outcome.runs, 0),
    );
  }, 300_000);
});
