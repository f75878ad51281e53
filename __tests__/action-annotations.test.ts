import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAction as runActionOn, type ActionRun, useFakeGitHub } from './helpers/action.js';
import { type FakeGitHub } from './helpers/github-server.js';
import { record, tempDir } from './helpers/records.js';

/*
 * Errors where the user looks: the real bundle's annotations carry the file and line of what they are
 * about (a policy's problem, a bad record, the policy check that failed), so that a pull request shows
 * them in its diff; boolean inputs are read as GitHub reads booleans.
 */

let github: FakeGitHub;
useFakeGitHub((server) => (github = server), { resetEach: false });
const runAction = (run: ActionRun) => runActionOn(github, run);

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
    expect(result.stdout).toMatch(/^::error title=evalgate%3A accuracy \(overall\),file=policies\/p\.yml,line=8::below the minimum 0\.9/m);
    expect(result.stdout).toMatch(
      /^::warning title=evalgate%3A accuracy \(overall\),file=policies\/p\.yml,line=10::below the minimum 0\.95/m,
    );
  });

  it("put a policy's problems at their line and column", async () => {
    const policy = 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    mni: 0.9\n';
    const result = await runAction({ inputs, cwd: checkout(policy, records) });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^::error title=evalgate%3A bad input,file=policies\/p\.yml,line=5,col=5::checks\[0\]\.mni: unknown key/m,
    );
  });

  it('put a bad record at its line', async () => {
    const bad = [...records.slice(0, 2), { scenario: 's', id: 'x', correct: 2 }, ...records.slice(2)];
    const result = await runAction({ inputs, cwd: checkout('version: 1\nname: p\nchecks:\n  - metric: accuracy\n    min: 0.5\n', bad) });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^::error title=evalgate%3A bad input,file=eval\/records\.jsonl,line=3::"correct" must be a number in \[0, 1\]/m,
    );
  });
});

describe('boolean inputs', () => {
  const passing = 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    min: 0.5\n';

  it('read True and FALSE as GitHub does, and refuse anything else naming the input', async () => {
    const quiet = await runAction({
      inputs: { ...inputs, comment: 'FALSE', 'require-baseline': 'False' },
      cwd: checkout(passing, records),
    });
    expect(quiet.code).toBe(0);
    const wrong = await runAction({ inputs: { ...inputs, comment: 'yes please' }, cwd: checkout(passing, records) });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toMatch(/::error::Input does not meet YAML 1\.2 "Core Schema" specification: comment/);
  });
});
