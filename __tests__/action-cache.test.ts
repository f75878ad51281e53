import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAction as runActionOn, writeFile, type ActionRun } from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { readJsonLines, runAgainst, writeSuite } from './helpers/evalgate.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/*
 * What the Actions cache holds (completions, baselines) is written only by runs of trusted code, and
 * nothing a pull request brings in its checkout is read as a completion.
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
beforeEach(() => {
  github.comments.length = 0;
  github.files.clear();
});

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
    const saved = cache.keys().length;
    const second = await runAction({ event: 'push', sha: '2'.repeat(40), inputs, runnerTemp });
    expect(second.stdout).toMatch(/Completion cache restored \(evalgate-completions-test-/);
    expect(second.stdout).toContain('20 from the cache');
    expect(model.requests - asked).toBe(20);

    const pull = await runAction({ inputs: { ...inputs, 'policy-source': 'head' }, runnerTemp });
    expect(pull.stdout).toContain('The completion cache is not used on pull_request events');
    expect(pull.stdout).toContain(', 0 from the cache)');
    expect(model.requests - asked).toBe(40);
    expect(cache.keys().length).toBe(saved + 1); // the second push's entry, none from the pull request
  });
});
