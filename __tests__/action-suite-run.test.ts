import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAction as runActionOn, useFakeGitHub, writeFile, type ActionRun } from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { readJsonLines, writeSuite } from './helpers/evalgate.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { closedPortUrl, startFakeOpenAI, type FakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The action's suite run (inputs suite and model, through the real bundle) fails the step as
 * `evalgate run` fails: on a model that cannot answer, and on too many failed calls; and its input
 * model-revision keys the completion cache.
 */

let github: FakeGitHub;
useFakeGitHub((started) => (github = started));
let cache: FakeCache;
let model: FakeOpenAI;
beforeAll(async () => {
  [cache, model] = await Promise.all([startFakeCache(), startFakeOpenAI()]);
});
afterAll(async () => {
  await Promise.all([cache.close(), model.close()]);
});

const runAction = (run: ActionRun) =>
  runActionOn(github, {
    ...run,
    env: { OPENAI_API_KEY: 'sk-test', ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: cache.url, ACTIONS_RUNTIME_TOKEN: 'rt' },
  });
const policy = () => writeFile('p.yml', 'version: 1\nname: answers\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
/** Ten questions the fake model answers "refund", each run its own (`tag`); `inputs` replaces some by index. */
function suite(tag: string, inputs: Record<number, string> = {}): string {
  const instances = Array.from({ length: 10 }, (_, i) => ({
    id: `q${i}`,
    input: inputs[i] ?? `${tag} question ${i}`,
    references: ['refund'],
  }));
  return writeSuite(tempDir(), instances);
}
const suiteInputs = (suiteFile: string, baseUrl = model.url) => ({
  policy: policy(),
  'policy-source': 'head',
  suite: suiteFile,
  model: 'openai:m',
  'base-url': baseUrl,
});

describe("the action's suite run", () => {
  it('fails the step within seconds on a closed port, quoting the connection error', async () => {
    const started = performance.now();
    const result = await runAction({ inputs: suiteInputs(suite('closed'), await closedPortUrl()) });
    expect((performance.now() - started) / 1000).toBeLessThan(15);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::the model "openai:http:\/\/127\.0\.0\.1:\d+\/v1:m" cannot answer: its first call failed \(connection failed: connect ECONNREFUSED/,
    );
    expect(result.output('verdict')).toBe('error');
  });

  it('fails the step when more than 10% of the calls failed, after writing the records', async () => {
    const result = await runAction({ inputs: suiteInputs(suite('failing', { 4: 'ECHO a', 6: 'ECHO b' })) });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      // (a workflow command's % is written %25; the log shows %)
      '::error::evalgate run: 2 of 10 calls failed (20%25), more than 10%25 may (--max-failed): the most common error (2 calls): HTTP 401: 401 invalid request',
    );
    expect(readJsonLines(result.output('records')!).filter((record) => record.error)).toHaveLength(2);
    expect(result.output('verdict')).toBe('error');
  });

  it('keys the completion cache on model-revision', async () => {
    const runnerTemp = tempDir();
    const inputs = { ...suiteInputs(suite('revisions')), 'policy-source': '', 'fail-on': 'never' };
    const push = (sha: string, revision: string) =>
      runAction({ event: 'push', sha: sha.repeat(40), inputs: { ...inputs, 'model-revision': revision }, runnerTemp });
    const asked = model.requests;
    expect((await push('1', 'ckpt-1')).code).toBe(0);
    expect(model.requests - asked).toBe(10);
    expect((await push('2', 'ckpt-1')).stdout).toContain('10 from the cache)');
    expect(model.requests - asked).toBe(11); // the probe
    const other = await push('3', 'ckpt-2');
    expect(other.stdout).toContain('Completion cache restored');
    expect(other.stdout).toContain('0 from the cache)');
    expect(model.requests - asked).toBe(21);
  });
});
