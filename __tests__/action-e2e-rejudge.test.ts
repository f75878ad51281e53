import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { BASE_SHA, runAction as runActionOn, writeFile, type ActionRun } from './helpers/action.js';
import { startFakeCache, type FakeCache } from './helpers/cache-server.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { startJudgeServer, type JudgeServer } from './helpers/judge-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The bundle (dist/index.js) with a judged suite and the Actions cache (a local stand-in): a push saves
 * the baseline judged by one judge; a pull request whose suite judges with another restores it, judges
 * its stored completions again with its own judge, and gates them. In-process: action-rejudge.test.ts.
 */

let github: FakeGitHub;
let cache: FakeCache;
let server: JudgeServer;
beforeAll(async () => {
  [github, cache, server] = await Promise.all([startFakeGitHub('octo', 'models'), startFakeCache(), startJudgeServer()]);
});
afterAll(async () => {
  await Promise.all([github.close(), cache.close(), server.close()]);
});

const env = () => ({
  ACTIONS_CACHE_SERVICE_V2: 'true',
  ACTIONS_RESULTS_URL: cache.url,
  ACTIONS_RUNTIME_TOKEN: 'runtime-token',
  OPENAI_API_KEY: 'sk-test',
  JUDGE_KEY: 'sk-judge',
});
const runAction = (run: ActionRun) => runActionOn(github, { ...run, env: { ...env(), ...run.env } });

/** A suite of 20 questions judged by `judge`; the model under test answers every second one right. */
function judgedSuite(judge: string): string {
  const dir = tempDir();
  const lines = Array.from({ length: 20 }, (_, index) => {
    server.answers.set(`question ${index}`, index % 2 === 0 ? `answer ${index}` : 'I do not know');
    return JSON.stringify({ id: `q${index}`, input: `question ${index}`, references: [`answer ${index}`] });
  });
  writeFileSync(join(dir, 'answers.jsonl'), `${lines.join('\n')}\n`);
  const options = [`model: openai:${judge}`, `base_url: ${server.url}`, 'api_key_env: JUDGE_KEY'].map((line) => `      ${line}`);
  const suite = ['version: 1', 'name: judged', 'scenarios:', '  - name: answers', '    data: answers.jsonl', '    scorer: judge'];
  writeFileSync(join(dir, 'suite.yaml'), [...suite, '    scorer_options:', ...options, ''].join('\n'));
  return join(dir, 'suite.yaml');
}

describe('the bundled action with a judged suite', () => {
  it("judges the cached baseline again with the pull request's judge before the gate", async () => {
    const policy = writeFile('judged.yml', 'version: 1\nname: judged\nchecks:\n  - metric: accuracy\n    max_regression: 0.05\n');
    const inputs = { policy, 'policy-source': 'head', model: 'openai:candidate', 'base-url': server.url };
    const push = await runAction({ event: 'push', sha: BASE_SHA, inputs: { ...inputs, suite: judgedSuite('judge-a') } });
    expect(push.code).toBe(0);
    expect(cache.keys().some((key) => key.startsWith('evalgate-baseline-'))).toBe(true);

    const before = server.countFor('judge-b');
    const pull = await runAction({ inputs: { ...inputs, suite: judgedSuite('judge-b') } });
    expect(server.countFor('judge-b') - before).toBe(40); // the candidate's completions, then the baseline's
    const report = JSON.parse(readFileSync(pull.output('report')!, 'utf8')) as GateReport;
    expect(report.baseline).toMatchObject({ commit: BASE_SHA, rejudged: { records: 20 } });
    expect(report.baseline?.rejudged?.judgedBefore).toEqual([expect.stringContaining('model=openai:judge-a')]);
    expect(report.checks.find((check) => check.metric === 'accuracy')?.status).not.toBe('error');
    expect(pull.summary).toContain("The baseline was judged again with the suite's judge (20 records)");
  }, 120_000);
});
