import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { GateReport } from '../src/report/json.js';
import { BASE_SHA, writeFile, type ActionRun, regressionRuns, STRICT_POLICY, useFakeGitHub } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { useFakeCacheInProcess, type FakeCache } from './helpers/cache-server.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The baseline in the Actions cache, in-process (saved by a push, restored by the next pull request; its keys): the real @actions/cache (behind the context's
 * cache) against a local stand-in for the cache service, which it finds through the environment as on
 * a runner. What a pull request could plant or poison: action-e2e-cache.test.ts, through the bundle.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
let cache: FakeCache;
useFakeCacheInProcess((server) => (cache = server));

const runAction = (run: ActionRun) => runInProcess(github, run);
const { baseline, worse } = regressionRuns();
/** Budget 0.01: the 5-point drop is significantly over it, and fails (tested as a budget, 0.04 would not be). */
const policyText = (name: string) =>
  `version: 1\nname: ${name}\nsettings:\n  resamples: 200\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n`;
const reportOf = (result: { output(name: string): string | undefined }) =>
  JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;

describe('the baseline in the Actions cache', () => {
  it('is saved on a push to the default branch and gates the next pull request', async () => {
    const workspace = tempDir();
    const policy = writeFile('p.yml', STRICT_POLICY);
    const push = await runAction({
      event: 'push',
      sha: BASE_SHA,
      inputs: { policy, candidate: baseline },
      cwd: workspace,
    });
    expect(push.code).toBe(0);
    // A readable part, a hash of the policy file, name, id and branch, the commit.
    expect(cache.keys().filter((key) => key.startsWith('evalgate-baseline-support-'))).toEqual([
      expect.stringMatching(new RegExp(`^evalgate-baseline-support-[0-9a-f]{16}-${BASE_SHA}$`)),
    ]);

    const pull = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head' }, cwd: tempDir() });
    expect(pull.code).toBe(1);
    const report = JSON.parse(readFileSync(pull.output('report')!, 'utf8')) as GateReport;
    expect(report.baseline?.commit).toBe(BASE_SHA);
    expect(report.checks[0].comparison?.shared).toBe(300);
    expect(pull.summary).toContain(`from commit \`${BASE_SHA.slice(0, 7)}\``);

    // A pull request on a newer base without its own entry gets the newest baseline, with a warning.
    const newer = await runAction({
      baseSha: 'd'.repeat(40),
      inputs: { policy, candidate: worse, 'policy-source': 'head' },
      cwd: tempDir(),
    });
    expect(newer.log).toContain(`warning: The baseline comes from commit ${BASE_SHA.slice(0, 7)}, not from ${'d'.repeat(7)}.`);
    expect(newer.code).toBe(1);

    // A manual run restores it too.
    const manual = await runAction({
      event: 'workflow_dispatch',
      sha: BASE_SHA,
      inputs: { policy, candidate: worse },
      cwd: tempDir(),
    });
    expect(manual.code).toBe(1);
    expect(manual.output('verdict')).toBe('fail');

    // Another policy whose name starts the same never gets this baseline.
    const other = await runAction({
      inputs: {
        policy: writeFile('p.yml', STRICT_POLICY.replace('name: support', 'name: support-v2')),
        candidate: worse,
        'policy-source': 'head',
      },
      cwd: tempDir(),
    });
    expect(other.log).toContain('warning: No baseline for policy support-v2 on main in the Actions cache');
  });

  it('is saved and restored under the longest policy name and a long id (the key stays within 512)', async () => {
    const policy = writeFile('p.yml', policyText('n'.repeat(200)));
    const id = 'i'.repeat(460);
    const push = await runAction({ event: 'push', sha: BASE_SHA, inputs: { policy, candidate: baseline, id } });
    expect(push.log).not.toContain('could not be saved');
    const key = cache.keys().find((entry) => entry.includes('nnnn') || entry.includes('iiii'))!;
    expect(key).toMatch(new RegExp(`^evalgate-baseline-n{64}-[0-9a-f]{16}-${BASE_SHA}$`));
    const pull = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head', id } });
    expect(reportOf(pull).baseline?.commit).toBe(BASE_SHA);
    expect(pull.code).toBe(1);
  });

  it('keeps one baseline and one comment per id (matrix jobs gating several models under one policy)', async () => {
    const policy = writeFile('p.yml', policyText('matrix'));
    for (const [id, candidate] of [
      ['model-a', baseline],
      ['model-b', worse],
    ]) {
      expect((await runAction({ event: 'push', sha: BASE_SHA, inputs: { policy, candidate, id } })).code).toBe(0);
    }
    const a = await runAction({ inputs: { policy, candidate: worse, id: 'model-a', 'policy-source': 'head' } });
    const b = await runAction({ inputs: { policy, candidate: worse, id: 'model-b', 'policy-source': 'head' } });
    expect([a.code, b.code]).toEqual([1, 0]); // model-b is measured against its own (equally worse) baseline
    expect(github.comments.map((comment) => comment.body.split('\n')[0])).toEqual([
      `<!-- evalgate:id=model-a path=${policy} policy=matrix -->`,
      `<!-- evalgate:id=model-b path=${policy} policy=matrix -->`,
    ]);
  });

  it('fails the step when require-baseline is set and none is found', async () => {
    const policy = writeFile('p.yml', policyText('nothing-saved-yet'));
    const result = await runAction({ inputs: { policy, candidate: worse, 'policy-source': 'head', 'require-baseline': 'true' } });
    expect(result.code).toBe(1);
    expect(result.output('verdict')).toBe('error');
    expect(result.failures).toEqual([
      'No baseline for policy nothing-saved-yet, and require-baseline is true: the gate cannot check regressions.',
    ]);
  });
});
