import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { BASE_SHA, runAction as runActionOn, writeFile, type ActionRun, regressionRuns } from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { readJsonLines, runAgainst, writeSuite } from './helpers/evalgate.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/openai-server.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * What the Actions cache holds (completions, baselines) is written only by runs of trusted code, and
 * nothing a pull request brings in its checkout is read as a completion: through the bundle. The keys of
 * long names, matrix ids and require-baseline: action-cache.test.ts, in-process.
 */

let github: FakeGitHub;
let cache: FakeCache;
let model: FakeOpenAI;
beforeAll(async () => {
  [github, cache, model] = await Promise.all([startFakeGitHub('octo', 'models'), startFakeCache(), startFakeOpenAI()]);
});
afterAll(async () => {
  await Promise.all([github.close(), cache.close(), model.close()]);
});
beforeEach(() => github.reset());

const cacheEnv = () => ({
  ACTIONS_CACHE_SERVICE_V2: 'true',
  ACTIONS_RESULTS_URL: cache.url,
  ACTIONS_RUNTIME_TOKEN: 'runtime-token',
  OPENAI_API_KEY: 'sk-test',
});
const runAction = (run: ActionRun) => runActionOn(github, { ...run, env: { ...cacheEnv(), ...run.env } });

/** A suite of 20 questions whose right answer is "escalate"; the fake model always answers "refund". */
function escalationSuite(dir: string): string {
  return writeSuite(
    dir,
    Array.from({ length: 20 }, (_, i) => ({ id: `q${i}`, input: `question ${i}`, references: ['escalate'] })),
  );
}
const accuracyPolicy = () => writeFile('p.yml', 'version: 1\nname: answers\nchecks:\n  - metric: accuracy\n    min: 0.9\n');

describe('the completion cache of a suite run', () => {
  it("never takes a pull request's planted completions: every answer comes from the model", async () => {
    const checkout = tempDir();
    const suite = escalationSuite(checkout);
    // The pull request commits cache entries (their names follow from the public key scheme) whose
    // answers are right, with confidence 0.99, where .evalgate/completions used to be read.
    const planted = join(checkout, '.evalgate/completions');
    expect(
      (await runAgainst(model.url, suite, join(tempDir(), 'r.jsonl'), ['--cache-dir', planted], { ...process.env, ...cacheEnv() })).code,
    ).toBe(0);
    for (const folder of readdirSync(planted)) {
      for (const entry of readdirSync(join(planted, folder))) {
        const completion = JSON.parse(readFileSync(join(planted, folder, entry), 'utf8'));
        writeFileSync(join(planted, folder, entry), JSON.stringify({ ...completion, text: 'escalate', confidence: 0.99 }));
      }
    }
    const asked = model.requests;
    const result = await runAction({
      inputs: { policy: accuracyPolicy(), 'policy-source': 'head', suite, model: 'openai:m', 'base-url': model.url },
      cwd: checkout,
    });
    expect(model.requests - asked).toBe(20);
    const records = readJsonLines(result.output('records')!);
    expect(records.map((entry) => entry.prediction)).toEqual(Array(20).fill('refund'));
    expect(result.output('verdict')).toBe('fail');
    expect(result.code).toBe(1);
  });

  it('is kept in the Actions cache by pushes, and a pull request neither restores nor saves it', async () => {
    const runnerTemp = tempDir(); // the same runner's temporary folder each time, as on GitHub's runners
    const suite = escalationSuite(tempDir());
    const inputs = { policy: accuracyPolicy(), suite, model: 'openai:m', 'base-url': model.url, 'fail-on': 'never' };
    const asked = model.requests;
    const first = await runAction({ event: 'push', sha: '1'.repeat(40), inputs, runnerTemp });
    expect(first.stdout).toContain('No completion cache yet.');
    expect(model.requests - asked).toBe(20);
    const completions = () => cache.keys().filter((key) => key.startsWith('evalgate-completions-'));
    const saved = completions().length;
    const second = await runAction({ event: 'push', sha: '2'.repeat(40), inputs, runnerTemp });
    expect(second.stdout).toMatch(/Completion cache restored \(evalgate-completions-test-/);
    expect(second.stdout).toContain('20 from the cache');
    expect(model.requests - asked).toBe(21); // its probe: what the endpoint serves now

    const pull = await runAction({ inputs: { ...inputs, 'policy-source': 'head' }, runnerTemp });
    expect(pull.stdout).toContain('The completion cache is not used on pull_request events');
    expect(pull.stdout).toContain(', 0 from the cache)');
    expect(model.requests - asked).toBe(41);
    expect(completions().length).toBe(saved + 1); // the second push's entry, none from the pull request (which keeps its runs: evalgate-runs-)
  }, 120_000); // several suite runs of the bundle, beside the re-runs simulation on the other worker

  it('is keyed on model-revision', async () => {
    const runnerTemp = tempDir(); // commits of their own: cache entries are immutable, the test above saved at 1 and 2
    const questions = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, input: `revisions question ${i}`, references: ['refund'] }));
    const inputs = {
      policy: accuracyPolicy(),
      suite: writeSuite(tempDir(), questions),
      model: 'openai:m',
      'base-url': model.url,
      'fail-on': 'never',
    };
    const push = (sha: string, revision: string) =>
      runAction({ event: 'push', sha: sha.repeat(40), inputs: { ...inputs, 'model-revision': revision }, runnerTemp });
    const asked = model.requests;
    expect((await push('4', 'ckpt-1')).code).toBe(0);
    expect(model.requests - asked).toBe(10);
    expect((await push('5', 'ckpt-1')).stdout).toContain('10 from the cache)');
    expect(model.requests - asked).toBe(11); // the probe
    const other = await push('6', 'ckpt-2');
    expect(other.stdout).toContain('Completion cache restored');
    expect(other.stdout).toContain('0 from the cache)');
    expect(model.requests - asked).toBe(21);
  }, 120_000); // several suite runs of the bundle, beside the re-runs simulation on the other worker
});

// 300 instances; "worse" loses 15 right answers (-5 points, paired), "slightly worse" 6 (-2 points).
const { baselineRecords, baseline, worse } = regressionRuns();
const slightlyWorse = writeLines(
  'slightly-worse.jsonl',
  baselineRecords.map((r, i) => (i % 50 === 1 ? { ...r, correct: 0 } : r)),
);
/** Budget 0.01: the 5-point drop is significantly over it and fails, the 2-point one is not and passes (tested as a budget). */
const policyText = (name: string) =>
  `version: 1\nname: ${name}\nsettings:\n  resamples: 200\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n`;
const reportOf = (result: { output(name: string): string | undefined }) =>
  JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;

/** A git checkout with these policy files. */
function checkout(files: Record<string, string>): string {
  const dir = tempDir();
  execFileSync('git', ['init', '-q', dir]);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the baseline in the Actions cache', () => {
  it('is never saved from a pull request or a merge queue, whatever save-baseline says', async () => {
    const policy = writeFile('p.yml', policyText('never-from-pulls'));
    const older = 'a'.repeat(40);
    expect((await runAction({ event: 'push', sha: older, inputs: { policy, candidate: baseline } })).code).toBe(0);
    // What a pull request's runs keep for their re-runs (evalgate-runs-, action-reruns.test.ts) is no baseline.
    const baselines = () => cache.keys().filter((key) => !key.startsWith('evalgate-runs-'));
    const saved = baselines();
    for (const event of ['pull_request', 'pull_request_target', 'merge_group'] as const) {
      const pull = await runAction({
        event,
        inputs: { policy, candidate: slightlyWorse, 'policy-source': 'head', 'save-baseline': 'true' },
      });
      expect([event, pull.code]).toEqual([event, 0]);
      expect(pull.stdout).toContain(`::warning::save-baseline: true is ignored on ${event} events`);
    }
    expect(baselines()).toEqual(saved);
    // So the next push of the pull request is measured against main's baseline, not against its own last run.
    const next = await runAction({ sha: 'e'.repeat(40), inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect(reportOf(next).baseline?.commit).toBe(older);
    expect(next.stdout).toContain(`::warning::The baseline comes from commit ${older.slice(0, 7)}, not from ${BASE_SHA.slice(0, 7)}.`);
    expect(next.code).toBe(1);
  });

  it("is restored only from the base branch's entries", async () => {
    const policy = writeFile('p.yml', policyText('per-branch'));
    const release = await runAction({
      event: 'push',
      ref: 'refs/heads/release',
      sha: 'a'.repeat(40),
      inputs: { policy, candidate: worse, 'save-baseline': 'true' },
    });
    expect(release.stdout).toContain('Saved the baseline for policy per-branch at aaaaaaa on release');
    const pull = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect(pull.stdout).toContain('::warning::No baseline for policy per-branch on main in the Actions cache');
    const onRelease = await runAction({ baseRef: 'release', inputs: { policy, candidate: worse, 'policy-source': 'head' } });
    expect(reportOf(onRelease).baseline?.commit).toBe('a'.repeat(40));
  });

  it("is the policy file's own: two policies of one name never share it, and editing a policy keeps it (the report says it changed)", async () => {
    const repo = checkout({ 'policies/a.yml': policyText('twin'), 'policies/b.yml': policyText('twin').replace('0.01', '0.03') });
    const push = await runAction({ event: 'push', sha: BASE_SHA, inputs: { policy: 'policies/a.yml', candidate: baseline }, cwd: repo });
    expect(push.code).toBe(0);
    const other = await runAction({ inputs: { policy: 'policies/b.yml', candidate: worse, 'policy-source': 'head' }, cwd: repo });
    expect(other.stdout).toContain('::warning::No baseline for policy twin on main in the Actions cache');
    expect(reportOf(other).baseline).toBeNull();

    const unchanged = await runAction({ inputs: { policy: 'policies/a.yml', candidate: worse, 'policy-source': 'head' }, cwd: repo });
    expect(reportOf(unchanged).baseline?.commit).toBe(BASE_SHA);
    expect(unchanged.summary).not.toContain('changed since');
    writeFileSync(join(repo, 'policies/a.yml'), policyText('twin').replace('0.01', '0.06'));
    const edited = await runAction({ inputs: { policy: 'policies/a.yml', candidate: worse, 'policy-source': 'head' }, cwd: repo });
    expect(reportOf(edited).baseline?.commit).toBe(BASE_SHA);
    expect(edited.summary).toContain(`The policy changed since this baseline was saved (at commit ${BASE_SHA.slice(0, 7)})`);
    expect(edited.code).toBe(0);
  });

  it("is restored outside the workspace: a file the pull request commits at .evalgate is not in the restore's way", async () => {
    const files = { 'policies/p.yml': policyText('planted') };
    const push = await runAction({
      event: 'push',
      sha: BASE_SHA,
      inputs: { policy: 'policies/p.yml', candidate: baseline },
      cwd: checkout(files),
    });
    expect(push.code).toBe(0);
    // The pull request commits a file where earlier versions restored the baseline into a folder.
    const pullCheckout = checkout({ ...files, '.evalgate': 'planted' });
    const pull = await runAction({ inputs: { policy: 'policies/p.yml', candidate: worse, 'policy-source': 'head' }, cwd: pullCheckout });
    expect(reportOf(pull).baseline?.commit).toBe(BASE_SHA);
    expect([pull.code, pull.output('verdict')]).toEqual([1, 'fail']);
  });

  it('that cannot be restored (lookup refused, service unreachable, damaged archive) is an error on pull requests and merge queues, a warning elsewhere', async () => {
    const policy = writeFile('p.yml', policyText('unrestorable'));
    expect((await runAction({ event: 'push', sha: BASE_SHA, inputs: { policy, candidate: baseline } })).code).toBe(0);
    const inputs = { policy, candidate: worse, 'policy-source': 'head' };
    const failures: Array<[string, () => void, NodeJS.ProcessEnv, RegExp]> = [
      ['refused', () => (cache.failLookups = 403), {}, /cache read denied/],
      ['unreachable', () => undefined, { ACTIONS_RESULTS_URL: 'http://127.0.0.1:1/' }, /ECONNREFUSED/],
      ['damaged', () => (cache.corruptArchives = true), {}, /tar/],
    ];
    for (const [failure, fail, env, reason] of failures) {
      fail();
      try {
        for (const event of ['pull_request', 'merge_group', 'workflow_dispatch'] as const) {
          const result = await runAction({ event, inputs, env });
          const verdict = event === 'workflow_dispatch' ? [0, 'pass', 'warning'] : [1, 'error', 'error'];
          expect([failure, event, result.code, result.output('verdict')]).toEqual([failure, event, ...verdict.slice(0, 2)]);
          const said = result.stdout
            .split('\n')
            .find((line) => line.includes('The baseline could not be restored from the Actions cache: '));
          expect([failure, event, said?.startsWith(`::${verdict[2]}::`), reason.test(said ?? '')]).toEqual([failure, event, true, true]);
        }
      } finally {
        [cache.failLookups, cache.corruptArchives] = [undefined, false];
      }
    }
    // No entry at all is not a failure: a warning, and the pull request's regression checks are inconclusive (the verdict warns).
    const none = await runAction({ inputs: { ...inputs, policy: writeFile('p.yml', policyText('never-saved')) } });
    expect([none.code, none.output('verdict')]).toEqual([0, 'warn']);
    expect(none.stdout).toContain(
      '::warning::No baseline for policy never-saved on main in the Actions cache: regression checks are inconclusive.',
    );
  });
});
