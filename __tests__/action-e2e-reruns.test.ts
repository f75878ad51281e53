import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { runAction, useFakeGitHub, writeFile } from './helpers/action.js';
import { cacheEnvironment, useFakeCache, type FakeCache } from './helpers/cache-server.js';
import { flakyPullRequest, PULL_REQUESTS, RERUNS_POLICY, rerunUntilGreen, type Reruns } from './helpers/flaky-model.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * Issue 21's Done-when, through the bundle: re-running a failed commit 5 times with a flaky model whose
 * true drop equals `detect` passes the step in at most 1 of 10 pull requests. Each run is the bundled
 * action in a child process with the Actions cache stand-in (the runs kept between attempts are the
 * bundle's own cache entries); the pull requests run one after another, each one's attempts in turn. The same
 * scenario in-process, with each run alone gated too (which escapes far more often):
 * action-reruns-simulation.test.ts.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
let cache: FakeCache;
useFakeCache((server) => (cache = server));

/** One pull request: its baseline given, the candidate's records drawn anew before every attempt (as its evaluation would). */
async function pullRequest(index: number, policy: string): Promise<Reruns> {
  const pull = flakyPullRequest(index);
  const baseline = writeLines('baseline.jsonl', pull.baseline);
  const candidate = join(tempDir(), 'candidate.jsonl');
  const inputs = { policy, 'policy-source': 'head', candidate, baseline, comment: 'false' };
  return rerunUntilGreen(async (attempt) => {
    writeFileSync(
      candidate,
      `${pull
        .draw()
        .map((record) => JSON.stringify(record))
        .join('\n')}\n`,
    );
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
}

describe('re-running a failed commit through the bundled action', () => {
  it('passes the step in at most 1 of 10 pull requests when the flaky model is truly `detect` worse', async () => {
    const policy = writeFile('reruns.yml', RERUNS_POLICY);
    // One pull request after another: bundles side by side would starve the other worker's tests of the CPUs.
    const outcomes: Reruns[] = [];
    for (let index = 0; index < PULL_REQUESTS; index++) outcomes.push(await pullRequest(index, policy));
    expect(outcomes.filter((outcome) => outcome.failedFirst).length).toBeGreaterThanOrEqual(6);
    expect(outcomes.filter((outcome) => outcome.escaped).length).toBeLessThanOrEqual(1);
    expect(cache.keys().filter((key) => key.startsWith('evalgate-runs-reruns-'))).toHaveLength(
      outcomes.reduce((total, outcome) => total + outcome.runs, 0),
    );
  }, 240_000);
});
