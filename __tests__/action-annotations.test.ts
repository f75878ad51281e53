import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ActionRun, useFakeGitHub } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { type FakeGitHub } from './helpers/github-server.js';
import { record, tempDir } from './helpers/records.js';

/*
 * Errors where the user looks: the action's annotations carry the file and line of what they are
 * about (a policy's problem, a bad record, the policy check that failed), so that a pull request shows
 * them in its diff. In-process (helpers/action-in-process.ts); how the runner shows them: action-e2e.test.ts.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server), { resetEach: false });
const runAction = (run: ActionRun) => runInProcess(github, run);

/** A checkout with a policy and the candidate's records in it. */
function checkout(policy: string, records: object[]): string {
  const folder = tempDir();
  mkdirSync(join(folder, 'policies'));
  mkdirSync(join(folder, 'eval'));
  writeFileSync(join(folder, 'policies/p.yml'), policy);
  writeFileSync(join(folder, 'eval/records.jsonl'), records.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  return folder;
}

const records = Array.from({ length: 100 }, (_, i) => record({ scenario: 's', id: String(i), correct: i % 5 === 0 ? 0 : 1 }));
const inputs = { policy: 'policies/p.yml', candidate: 'eval/records.jsonl', 'policy-source': 'head', comment: 'false' };

describe('annotations on the file and line', () => {
  it("put a failing check on its line of the policy, a warning check's too", async () => {
    const policy =
      'version: 1\nname: p\nsettings:\n  resamples: 100\nchecks:\n  - metric: error_rate\n    max: 0.5\n  - metric: accuracy\n    min: 0.9\n  - metric: accuracy\n    min: 0.95\n    severity: warn\n';
    const result = await runAction({ inputs, cwd: checkout(policy, records) });
    expect(result.code).toBe(1);
    const title = 'evalgate: accuracy (overall)';
    expect(result.annotations).toContainEqual({
      level: 'error',
      message: expect.stringMatching(/^below the minimum 90%/),
      properties: { title, file: 'policies/p.yml', startLine: 8 },
    });
    expect(result.annotations).toContainEqual({
      level: 'warning',
      message: expect.stringMatching(/^below the minimum 95%/),
      properties: { title, file: 'policies/p.yml', startLine: 10 },
    });
  });

  it("put a policy's problems at their line and column", async () => {
    const policy = 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    mni: 0.9\n';
    const result = await runAction({ inputs, cwd: checkout(policy, records) });
    expect(result.code).toBe(1);
    expect(result.annotations).toContainEqual({
      level: 'error',
      message: expect.stringMatching(/^checks\[0\]\.mni: unknown key/),
      properties: { title: 'evalgate: bad input', file: 'policies/p.yml', startLine: 5, startColumn: 5 },
    });
  });

  it('put a bad record at its line', async () => {
    const bad = [...records.slice(0, 2), { scenario: 's', id: 'x', correct: 2 }, ...records.slice(2)];
    const result = await runAction({ inputs, cwd: checkout('version: 1\nname: p\nchecks:\n  - metric: accuracy\n    min: 0.5\n', bad) });
    expect(result.code).toBe(1);
    expect(result.annotations).toContainEqual({
      level: 'error',
      message: expect.stringMatching(/^"correct" must be a number in \[0, 1\]/),
      properties: { title: 'evalgate: bad input', file: 'eval/records.jsonl', startLine: 3 },
    });
  });
});
