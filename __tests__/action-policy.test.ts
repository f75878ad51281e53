import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_SHA, type ActionRun, useFakeGitHub, regressionRuns, STRICT_POLICY } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { type FakeGitHub } from './helpers/github-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The policy that gates a pull request is the base commit's, found at the same place in the
 * repository however the workflow checked it out, and never the pull request's own copy unless the
 * workflow says a new policy may come with the pull request. In-process (helpers/action-in-process.ts).
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server));
const runAction = (run: ActionRun) => runInProcess(github, run);

const { baseline, worse } = regressionRuns();
const strictPolicy = STRICT_POLICY;
/** The pull request's loosened copy: a budget of 0.5 lets the 5-point regression through. */
const loosePolicy = strictPolicy.replace('max_regression: 0.02', 'max_regression: 0.5');

/** A git checkout (as actions/checkout leaves one) holding the pull request's loosened policies/support.yml. */
function checkout(dir: string): string {
  mkdirSync(join(dir, 'policies'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  writeFileSync(join(dir, 'policies/support.yml'), loosePolicy);
  return dir;
}

describe('the policy at the base commit', () => {
  // A path through a symbolic link is refused: action-e2e.test.ts (a pull request's planted link, through the bundle).
  it('is looked up at its path in the repository when the checkout is in a folder of the workspace (actions/checkout path: repo)', async () => {
    github.files.set(`${BASE_SHA}:policies/support.yml`, strictPolicy);
    const workspace = tempDir();
    checkout(join(workspace, 'repo'));
    const result = await runAction({ inputs: { policy: 'repo/policies/support.yml', candidate: worse, baseline }, cwd: workspace });
    expect(result.log).not.toContain('does not exist at the base commit');
    expect(result.summary).toContain(`at the base commit ${BASE_SHA.slice(0, 7)}`);
    expect(result.code).toBe(1);
    expect(result.output('verdict')).toBe('fail');
    expect(github.requests).toContain(`GET /repos/octo/models/contents/policies%2Fsupport.yml?ref=${BASE_SHA}`);

    // The workspace named through a link (GITHUB_WORKSPACE), the process in its real folder: the same repository.
    const link = join(tempDir(), 'workspace');
    symlinkSync(workspace, link);
    const linked = await runAction({
      inputs: { policy: 'repo/policies/support.yml', candidate: worse, baseline },
      cwd: workspace,
      env: { GITHUB_WORKSPACE: link },
    });
    expect([linked.code, linked.summary.includes(`at the base commit ${BASE_SHA.slice(0, 7)}`)]).toEqual([1, true]);
  });

  it('refuses a folder', async () => {
    github.files.set(`${BASE_SHA}:policies/support.yml`, strictPolicy);
    const repo = checkout(tempDir());
    const result = await runAction({ inputs: { policy: 'policies', candidate: worse, baseline }, cwd: repo });
    expect(result.code).toBe(1);
    expect(result.log).toContain('failed: The policy policies is a folder, not a file');
  });

  it("fails when the policy is not on the base, unless allow-new-policy lets the pull request's copy gate (and says so)", async () => {
    const repo = checkout(tempDir());
    const refused = await runAction({ inputs: { policy: 'policies/support.yml', candidate: worse, baseline }, cwd: repo });
    expect(refused.code).toBe(1);
    expect(refused.output('verdict')).toBe('error');
    expect(refused.log).toContain(
      `failed: The policy policies/support.yml does not exist at the base commit ${BASE_SHA.slice(0, 7)}: a pull request cannot bring its own policy.`,
    );
    const allowed = await runAction({
      inputs: { policy: 'policies/support.yml', candidate: worse, baseline, 'allow-new-policy': 'true' },
      cwd: repo,
    });
    expect(allowed.code).toBe(0);
    expect(allowed.log).toContain('warning: policies/support.yml does not exist at the base commit yet (allow-new-policy)');
    expect(allowed.summary).toContain('from the pull request (not on the base yet)');
  });

  it('is the one a merge queue gates with too (the merge group has the pull request in it)', async () => {
    github.files.set(`${BASE_SHA}:policies/support.yml`, strictPolicy);
    const repo = checkout(tempDir());
    const result = await runAction({
      event: 'merge_group',
      inputs: { policy: 'policies/support.yml', candidate: worse, baseline },
      cwd: repo,
    });
    expect(result.summary).toContain(`at the base commit ${BASE_SHA.slice(0, 7)}`);
    expect(result.code).toBe(1);
  });
});
