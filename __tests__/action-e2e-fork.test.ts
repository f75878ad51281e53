import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import {
  BASE_SHA,
  HEAD_SHA,
  runAction as runActionOn,
  TOKEN,
  writeFile,
  type ActionRun,
  regressionRuns,
  STRICT_POLICY,
} from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { namedRuns } from './helpers/named-groups.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * The fork-safe pair: a fork's pull_request run evaluates with a read-only token and uploads what it
 * made; the workflow_run job (the base repository's workflow file, with write access) decides. What
 * the fork uploaded is its own claim: the decision is taken here, under the policy at the pull
 * request's base and against the baseline in the Actions cache, and posted only on the pull request
 * whose head the fork's run built.
 */

let github: FakeGitHub;
let cache: FakeCache;
beforeAll(async () => {
  [github, cache] = await Promise.all([startFakeGitHub('octo', 'models'), startFakeCache()]);
});
afterAll(async () => {
  await Promise.all([github.close(), cache.close()]);
});
beforeEach(() => github.reset());
const cacheEnv = { ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: '', ACTIONS_RUNTIME_TOKEN: 'runtime-token' };
const runAction = (run: ActionRun) => runActionOn(github, { ...run, env: { ...cacheEnv, ACTIONS_RESULTS_URL: cache.url, ...run.env } });

// "worse": -5 points, paired, over the base's budget of 0.02.
const { baselineRecords, baseline, worse } = regressionRuns();
const strictPolicy = STRICT_POLICY;
const POLICY = 'policies/support.yml';
const FORK_RUN = { headSha: HEAD_SHA, headOwner: 'forker', headBranch: 'feature', pullRequests: [] };
/** The workflow_run job deciding on what a fork's run built and uploaded (`inputs` beside policy POLICY). */
const decide = (inputs: Record<string, string>, workflowRun: ActionRun['workflowRun'] = FORK_RUN) =>
  runAction({ event: 'workflow_run', workflowRun, inputs: { policy: POLICY, ...inputs }, cwd: tempDir() });

/** The base repository: the policy at the base commit, and main's baseline saved by a push. */
async function baseRepository(): Promise<void> {
  github.files.set(`${BASE_SHA}:${POLICY}`, strictPolicy);
  github.pulls.set(7, { head: { sha: HEAD_SHA, ref: 'feature', owner: 'forker' }, base: { sha: BASE_SHA, ref: 'main' } });
  if (cache.keys().some((key) => key.startsWith('evalgate-baseline-support-'))) return;
  const repo = tempDir();
  execFileSync('git', ['init', '-q', repo]);
  mkdirSync(join(repo, 'policies'));
  writeFileSync(join(repo, POLICY), strictPolicy);
  const push = await runAction({ event: 'push', sha: BASE_SHA, inputs: { policy: POLICY, candidate: baseline }, cwd: repo });
  expect(push.code).toBe(0);
}

const reportOf = (result: { output(name: string): string | undefined }) =>
  JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;

describe('the workflow_run job gates the records a fork uploaded', () => {
  it('under the policy at the base and the cached baseline, posts the verdict and a commit status, and saves nothing', async () => {
    await baseRepository();
    const keys = cache.keys();
    // No checkout: the job reads the policy at the pull request's base through the API.
    const failing = await decide({ candidate: worse, 'save-baseline': 'true' });
    expect(failing.code).toBe(1);
    expect(failing.summary).toContain(`at the base commit ${BASE_SHA.slice(0, 7)}`);
    expect(reportOf(failing).baseline?.commit).toBe(BASE_SHA);
    expect(reportOf(failing).github?.pullRequest).toEqual({ number: 7, baseSha: BASE_SHA, headSha: HEAD_SHA });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).toMatch(/^<!-- evalgate:path=policies\/support.yml policy=support -->\n## ❌ evalgate: fail/);
    expect(github.comments[0].body).toContain("The records were uploaded by the pull request's own run");
    expect(github.statuses).toEqual([
      {
        sha: HEAD_SHA,
        state: 'failure',
        context: `evalgate: ${POLICY}`,
        description: 'fail · policy support',
        target_url: 'https://github.com/octo/models/actions/runs/99',
      },
    ]);
    expect(failing.stdout).toContain('::warning::save-baseline: true is ignored on workflow_run events');
    expect(cache.keys()).toEqual(keys);
    // The token is only ever named to the runner to mask it.
    const printed = failing.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    expect(printed.join('\n') + failing.stderr + failing.summary + github.comments[0].body).not.toContain(TOKEN);

    const passing = await decide({ candidate: baseline });
    expect(passing.code).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).toContain('## ✅ evalgate: pass');
    expect(github.statuses.map((status) => status.state)).toEqual(['failure', 'success']);
  });

  it("finds a branch of the repository's own by the run's payload, says when it cannot gate, and gates nothing when the pull request has moved on", async () => {
    await baseRepository();
    const own = await decide({ candidate: worse }, { headSha: HEAD_SHA, pullRequests: [7] });
    expect(own.code).toBe(1);
    expect(github.statuses.at(-1)).toMatchObject({ sha: HEAD_SHA, state: 'failure' });

    // A job that cannot gate says so on the pull request (the required check fails instead of waiting).
    const missing = await decide({ policy: 'policies/other.yml', candidate: worse });
    expect(missing.code).toBe(1);
    expect(github.statuses.at(-1)).toMatchObject({
      sha: HEAD_SHA,
      state: 'error',
      context: 'evalgate: policies/other.yml',
      description: expect.stringMatching(/^The policy policies\/other.yml does not exist at the base commit bbbbbbb/),
    });

    github.comments.length = 0;
    github.statuses.length = 0;
    github.pulls.set(7, { head: { sha: 'd'.repeat(40), ref: 'feature', owner: 'forker' }, base: { sha: BASE_SHA, ref: 'main' } });
    const stale = await decide({ candidate: worse });
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain('::warning::Pull request #7 is not at commit ccccccc: not commenting.');
    expect([github.comments.length, github.statuses.length]).toEqual([0, 0]);
  });
});

describe('a report posted by the workflow_run job (the older mode)', () => {
  /** The fork's own run: gated under the policy in its checkout, its report uploaded. */
  async function forkReport(candidate: string, policyText = strictPolicy): Promise<string> {
    const run = await runAction({
      inputs: { policy: writeFile('p.yml', policyText), candidate, baseline, 'policy-source': 'head', comment: 'false' },
    });
    return run.output('report')!;
  }

  it('is gated again under the policy at the base: a forged report claiming pass is posted as the failure it is, marked unverified', async () => {
    await baseRepository();
    github.files.set(`${BASE_SHA}:${POLICY}`, 'version: 1\nname: support\nchecks:\n  - metric: accuracy\n    min: 0.9\n');
    // Accuracy 0.12 against ">= 0.9": every status rewritten to pass, the verdict to match.
    const poor = writeLines(
      'poor.jsonl',
      baselineRecords.map((r, i) => ({ ...r, correct: i % 25 < 3 ? 1 : 0 })),
    );
    const real = JSON.parse(
      readFileSync(await forkReport(poor, 'version: 1\nname: support\nchecks:\n  - metric: accuracy\n    min: 0.9\n'), 'utf8'),
    );
    expect(real.verdict).toBe('fail');
    const forged = writeFile(
      'report.json',
      JSON.stringify({
        ...real,
        verdict: 'pass',
        outcome: 'pass', // consistent with its checks, or it would be refused as it is read
        checks: real.checks.map((check: object) => ({ ...check, status: 'pass', reasons: [] })),
        policy: { ...real.policy, source: `at the base commit ${BASE_SHA.slice(0, 7)}` },
      }),
    );
    const posted = await decide({ report: forged });
    expect(posted.code).toBe(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).toMatch(
      /^<!-- evalgate:path=policies\/support.yml policy=support -->\n## ❌ evalgate: fail \(1 blocking check failed\) · unverified report/,
    );
    expect(github.comments[0].body).toMatch(/- ❌ \*\*accuracy\*\* \(overall\) blocks: [\d.]+% is below its minimum 90%/);
    expect(github.comments[0].body).toContain('Unverified: the candidate');
    expect(github.statuses).toEqual([
      expect.objectContaining({ sha: HEAD_SHA, state: 'failure', description: 'fail, unverified report · policy support' }),
    ]);
  });

  it('reaches only its own pull request, and is refused when it does not hold together', async () => {
    await baseRepository();
    github.pulls.set(42, { head: { sha: 'd'.repeat(40) }, base: { sha: BASE_SHA, ref: 'main' } });
    const report = await forkReport(worse);
    const posted = await decide({ report });
    expect(posted.code).toBe(1);
    expect(github.comments).toHaveLength(1);

    // A report that claims a commit the workflow run did not build is not posted.
    const mismatch = await decide({ report }, { ...FORK_RUN, headSha: 'e'.repeat(40) });
    expect(mismatch.stdout).toContain('::warning::The report is for commit ccccccc, but the workflow run built eeeeeee: not commenting.');
    // Aimed at another pull request: not posted there.
    const original = JSON.parse(readFileSync(report, 'utf8'));
    const retarget = writeFile(
      'report.json',
      JSON.stringify({ ...original, github: { ...original.github, pullRequest: { ...original.github.pullRequest, number: 42 } } }),
    );
    const elsewhere = await decide({ report: retarget });
    expect(elsewhere.stdout).toContain('Pull request #42 is not at commit ccccccc: not commenting.');
    expect(github.requests.some((request) => request.includes('/issues/42/') || request.includes(`/statuses/${'d'.repeat(40)}`))).toBe(
      false,
    );
    // A verdict that does not follow from its checks, or markup where a number belongs: refused.
    const forgedVerdict = writeFile('report.json', JSON.stringify({ ...original, verdict: 'pass' }));
    const forged = await decide({ report: forgedVerdict });
    expect(forged.code).toBe(1);
    expect(forged.stdout).toContain('the verdict "pass" does not follow from the checks (they give "fail")');
    const injected = writeFile(
      'report.json',
      JSON.stringify({
        ...original,
        candidate: { ...original.candidate, records: '<img src=https://evil.example/t.png> @octo-org/admins' },
      }),
    );
    const refused = await decide({ report: injected });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('not an evalgate report: candidate.records: ');
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0].body).not.toContain('<img');
  }, 120_000);
  it('reads a scenario called "overall" as a scenario: the pooled numbers it claims are those of its pooled checks', async () => {
    await baseRepository();
    const { candidate } = namedRuns();
    const forkPolicy =
      'version: 1\nname: support\nchecks:\n  - metric: accuracy\n    min: 0.6\n  - metric: accuracy\n    scenario: overall\n    min: 0.6\n';
    const report = await forkReport(candidate, forkPolicy);
    expect(JSON.parse(readFileSync(report, 'utf8')).checks.map((check: { scopeKind: string }) => check.scopeKind)).toEqual([
      'pooled',
      'scenario',
      'pooled', // the built-in failure-rate check
    ]);
    // Pooled 0.725, the scenario "overall" 0.45: read as one scope, the later check's 0.45 would fail the first.
    github.files.set(
      `${BASE_SHA}:${POLICY}`,
      'version: 1\nname: support\nchecks:\n  - metric: accuracy\n    min: 0.7\n  - metric: accuracy\n    scenario: overall\n    max: 0.5\n',
    );
    const posted = await decide({ report });
    expect(posted.code).toBe(0);
    expect(github.comments[0].body).toMatch(/## ✅ evalgate: pass .*· unverified report/);
    expect(github.comments[0].body).toMatch(/\| ✅ pass \| accuracy \(scenario overall\) \| +45% \\\[/);
    expect(github.comments[0].body).toMatch(/\| ✅ pass \| accuracy \(overall\) +\| +72\.5% \\\[/);
  });

  it('follows the rule of bases too: a report for a pull request into another branch is gated only when base-branches lists it, under its own status', async () => {
    await baseRepository();
    const otherBase = 'a'.repeat(40);
    github.files.set(`${otherBase}:${POLICY}`, strictPolicy);
    github.pulls.set(8, { head: { sha: HEAD_SHA, ref: 'feature', owner: 'forker' }, base: { sha: otherBase, ref: 'policy-branch' } });
    const original = JSON.parse(readFileSync(await forkReport(worse), 'utf8'));
    const report = writeFile(
      'report.json',
      JSON.stringify({ ...original, github: { ...original.github, pullRequest: { ...original.github.pullRequest, number: 8 } } }),
    );
    const skipped = await decide({ report });
    expect(skipped.stdout).toContain('::warning::Pull request #8 is into policy-branch, which is not gated here');
    expect([github.statuses.length, github.comments.length]).toEqual([0, 0]);
    const gated = await decide({ report, 'base-branches': 'policy-branch' });
    expect(gated.code).toBe(0); // no baseline on that branch: the regression check is inconclusive, a warning
    expect(github.statesOf(HEAD_SHA)).toEqual({ [`evalgate: ${POLICY} (policy-branch)`]: 'success' });
  });
});

describe('what a fork plants in the workspace of the workflow_run job', () => {
  /** A workspace holding what the fork's run uploaded: its records and the planted files. */
  function artifact(planted: Record<string, string>): string {
    const workspace = tempDir();
    for (const [path, text] of Object.entries(planted)) {
      mkdirSync(join(workspace, path, '..'), { recursive: true });
      writeFileSync(join(workspace, path), text);
    }
    return workspace;
  }
  const decideIn = (workspace: string, inputs: Record<string, string>) =>
    runAction({ event: 'workflow_run', workflowRun: FORK_RUN, inputs: { policy: POLICY, ...inputs }, cwd: workspace });

  it('a file named .evalgate does not switch off the regression checks: the baseline is restored outside the workspace', async () => {
    await baseRepository();
    const result = await decideIn(artifact({ '.evalgate': 'planted' }), { candidate: worse });
    expect(reportOf(result).baseline?.commit).toBe(BASE_SHA);
    expect([result.code, result.output('verdict')]).toEqual([1, 'fail']);
    expect(github.statesOf(HEAD_SHA)).toEqual({ [`evalgate: ${POLICY}`]: 'failure' });
  });

  it('a planted policies/.git does not move the policy lookup, and allow-new-policy is refused', async () => {
    await baseRepository();
    // The fork's lax copy where the lookup would land ("p.yml" is not at the base), and a .git file that would make policies/ the repository.
    const workspace = artifact({ 'policies/.git': 'gitdir: /nowhere', 'policies/support.yml': strictPolicy.replace('0.02', '0.5') });
    const result = await decideIn(workspace, { candidate: worse });
    expect(github.requests).toContain(`GET /repos/octo/models/contents/policies%2Fsupport.yml?ref=${BASE_SHA}`);
    expect([result.code, result.output('verdict')]).toEqual([1, 'fail']);
    expect(github.statesOf(HEAD_SHA)).toEqual({ [`evalgate: ${POLICY}`]: 'failure' });

    github.statuses.length = 0;
    const allowed = await decideIn(workspace, { candidate: worse, 'allow-new-policy': 'true' });
    expect([allowed.code, allowed.output('verdict')]).toEqual([1, 'error']);
    expect(allowed.stdout).toContain('::error::Input "allow-new-policy: true" is refused on workflow_run');
    expect(github.statesOf(HEAD_SHA)).toEqual({});
  });

  it('a baseline that cannot be restored is an error on the pull request, never a pass without it', async () => {
    await baseRepository();
    cache.failLookups = 403;
    const result = await decide({ candidate: worse }).finally(() => (cache.failLookups = undefined));
    expect([result.code, result.output('verdict')]).toEqual([1, 'error']);
    expect(github.statuses).toEqual([
      expect.objectContaining({
        state: 'error',
        context: `evalgate: ${POLICY}`,
        description: expect.stringMatching(
          /^The baseline could not be restored from the Actions cache: Failed to GetCacheEntryDownloadURL/,
        ),
      }),
    ]);
  });
});

describe('pull requests at the commit the fork built', () => {
  const OTHER_BASE = 'a'.repeat(40);

  it('are gated only into the default branch and the branches base-branches lists, each under a status context of its base', async () => {
    await baseRepository();
    // #8, newer, into a branch that holds the policy but has no baseline in the cache.
    github.files.set(`${OTHER_BASE}:${POLICY}`, strictPolicy);
    github.pulls.set(8, { head: { sha: HEAD_SHA, ref: 'feature', owner: 'forker' }, base: { sha: OTHER_BASE, ref: 'policy-branch' } });
    const result = await decide({ candidate: worse });
    expect(result.stdout).toContain('::warning::Pull request #8 is into policy-branch, which is not gated here');
    expect([result.code, result.output('verdict')]).toEqual([1, 'fail']);
    expect(github.statesOf(HEAD_SHA)).toEqual({ [`evalgate: ${POLICY}`]: 'failure' });
    expect(github.requests.some((request) => request.includes('/issues/8/'))).toBe(false);

    github.statuses.length = 0;
    const listed = await decide({ candidate: worse, 'base-branches': 'release, policy-branch' });
    expect([listed.code, listed.output('verdict')]).toEqual([1, 'fail']);
    expect(github.statesOf(HEAD_SHA)).toEqual({
      [`evalgate: ${POLICY}`]: 'failure',
      [`evalgate: ${POLICY} (policy-branch)`]: 'success',
    });
    // Each pull request has its own comment.
    const verdicts = github.comments.map((entry) => [entry.html_url.replace(/.*\/pull\/(\d+)#.*/, '$1'), entry.body.split('\n')[1]]);
    expect(verdicts).toEqual([
      ['7', expect.stringMatching(/^## ❌ evalgate: fail/)],
      ['8', expect.stringMatching(/^## ⚠️ evalgate: warn — 1 of 1 check did not run \(1 inconclusive\) · outcome inconclusive/)],
    ]);

    // A matrix id named after a listed base would share its context ("evalgate: <policy> (policy-branch)").
    const clash = await decide({ candidate: worse, id: 'policy-branch', 'base-branches': 'policy-branch' });
    expect([clash.code, clash.output('verdict')]).toEqual([1, 'error']);
    expect(clash.stdout).toContain('::error::Input "id" must not be the name of a branch "base-branches" lists (policy-branch)');
  });

  it('into one base share its status: success only when every one of them passes', async () => {
    await baseRepository();
    // Two branches of the repository at the same commit: #9's base, older, has a lax policy.
    github.files.set(`${OTHER_BASE}:${POLICY}`, strictPolicy.replace('0.02', '0.5'));
    github.pulls.set(9, { head: { sha: HEAD_SHA, ref: 'feature-2' }, base: { sha: OTHER_BASE, ref: 'main' } });
    const result = await decide({ candidate: worse }, { headSha: HEAD_SHA, pullRequests: [9, 7] });
    expect(result.code).toBe(1);
    expect(github.statuses).toEqual([
      expect.objectContaining({
        sha: HEAD_SHA,
        state: 'failure',
        context: `evalgate: ${POLICY}`,
        description: '#9: pass · policy support; #7: fail · policy support',
      }),
    ]);
  });
});
