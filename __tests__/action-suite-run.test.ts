import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useFakeGitHub, writeFile, type ActionRun } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { readJsonLines, writeSuite } from './helpers/evalgate.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { startFakeOpenAI, type FakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The action's suite run (inputs suite and model; in-process, helpers/action-in-process.ts) fails the
 * step as `evalgate run` fails on too many failed calls. A model that cannot answer (the connection's
 * error as Node reports it, which Jest's module environment changes): action-e2e.test.ts; the input
 * model-revision keys the completion cache: action-e2e-cache.test.ts.
 */

let github: FakeGitHub;
useFakeGitHub((started) => (github = started));
let model: FakeOpenAI;
// The OpenAI adapter (src/runner) reads its key from the environment, as the CLI's does.
const key = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  model = await startFakeOpenAI();
  process.env.OPENAI_API_KEY = 'sk-test';
});
afterAll(async () => {
  await model.close();
  if (key === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = key;
});

const runAction = (run: ActionRun) => runInProcess(github, run);
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
  it('fails the step when more than 10% of the calls failed, after writing the records', async () => {
    const result = await runAction({ inputs: suiteInputs(suite('failing', { 4: 'ECHO a', 6: 'ECHO b' })) });
    expect(result.code).toBe(1);
    expect(result.log).toContain(
      'failed: evalgate run: 2 of 10 calls failed (20%), more than 10% may (--max-failed): the most common error (2 calls): HTTP 401: 401 invalid request',
    );
    expect(readJsonLines(result.output('records')!).filter((record) => record.error)).toHaveLength(2);
    expect(result.output('verdict')).toBe('error');
  });
});
