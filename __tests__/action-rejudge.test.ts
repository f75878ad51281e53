import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeRecords } from '../src/records/write.js';
import type { GateReport } from '../src/report/json.js';
import { openaiAdapter } from '../src/runner/models/openai.js';
import { DEFAULT_RUN_OPTIONS, runSuite } from '../src/runner/run.js';
import { loadSuite } from '../src/runner/suite.js';
import { BASE_SHA, HEAD_SHA, useFakeGitHub, writeFile, type ActionRun } from './helpers/action.js';
import { runInProcess, type InProcessResult } from './helpers/action-in-process.js';
import { readJsonLines } from './helpers/evalgate.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { startJudgeServer, type JudgeServer } from './helpers/judge-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The action with a judged suite (in-process, helpers/action-in-process.ts), against the stand-in judge
 * on 127.0.0.1 (helpers/judge-server.ts): a baseline judged by another judge is judged again with the
 * suite's judge before the gate (rejudge-baseline, on by default); on workflow_run the fork's records are
 * judged again with the suite and data as the base commit has them, whatever grades they carry.
 */

let github: FakeGitHub;
useFakeGitHub((started) => (github = started));
let server: JudgeServer;
const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, JUDGE_KEY: process.env.JUDGE_KEY };
beforeAll(async () => {
  server = await startJudgeServer();
  // The model under test's key and the judge's, each from its own variable, as a workflow's env gives them.
  process.env.OPENAI_API_KEY = 'sk-test';
  process.env.JUDGE_KEY = 'sk-judge';
});
afterAll(async () => {
  await server.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const INSTANCES = 20;

/**
 * The data: the model under test answers every second question right; `references` replaces the
 * reference answers, `human` gives the instances a person's labels.
 */
function dataLines(references = (index: number) => `answer ${index}`, human = (_index: number): number | undefined => undefined): string {
  const lines = Array.from({ length: INSTANCES }, (_, index) => {
    server.answers.set(`question ${index}`, index % 2 === 0 ? `answer ${index}` : 'I do not know');
    return JSON.stringify({ id: `q${index}`, input: `question ${index}`, references: [references(index)], human: human(index) });
  });
  return `${lines.join('\n')}\n`;
}

const suiteText = (judge: string) =>
  [
    'version: 1',
    'name: judged',
    'scenarios:',
    '  - name: answers',
    '    data: answers.jsonl',
    '    scorer: judge',
    '    scorer_options:',
    `      model: openai:${judge}`,
    `      base_url: ${server.url}`,
    '      api_key_env: JUDGE_KEY',
    '',
  ].join('\n');

/** A suite judged by `judge` over the data, in `dir`; its path. */
function judgedSuite(dir: string, judge: string, data = dataLines()): string {
  writeFileSync(join(dir, 'answers.jsonl'), data);
  writeFileSync(join(dir, `${judge}.yaml`), suiteText(judge));
  return join(dir, `${judge}.yaml`);
}

/** The suite run against the model under test, its records written to `out`. */
async function recordsOf(suite: string, out: string): Promise<string> {
  const adapter = await openaiAdapter('candidate', server.url);
  try {
    const { records } = await runSuite(await loadSuite(suite), adapter, { ...DEFAULT_RUN_OPTIONS, retries: 0 });
    await writeRecords(out, records);
    return out;
  } finally {
    await adapter.close();
  }
}

const reportOf = (result: InProcessResult) => JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;
const runAction = (run: ActionRun) => runInProcess(github, run);

describe('the action with a judged suite', () => {
  it('judges a baseline judged by another judge again before the gate, unless rejudge-baseline is false', async () => {
    const dir = tempDir();
    const baseline = await recordsOf(judgedSuite(dir, 'judge-a'), join(dir, 'baseline.jsonl'));
    const policy = writeFile('judged.yml', 'version: 1\nname: judged\nchecks:\n  - metric: accuracy\n    max_regression: 0.05\n');
    const inputs = {
      policy,
      'policy-source': 'head',
      suite: judgedSuite(dir, 'judge-b'),
      model: 'openai:candidate',
      'base-url': server.url,
      baseline,
    };
    const [judgeA, judgeB] = [server.countFor('judge-a'), server.countFor('judge-b')];
    const result = await runAction({ inputs });
    expect(result.failures).toEqual([]);
    // The candidate's 20 completions and the baseline's 20 stored ones, by the suite's judge; none by the old one.
    expect(server.countFor('judge-b') - judgeB).toBe(2 * INSTANCES);
    expect(server.countFor('judge-a')).toBe(judgeA);
    const report = reportOf(result);
    expect(report.baseline?.rejudged).toEqual({ records: INSTANCES, judgedBefore: [expect.stringContaining('model=openai:judge-a')] });
    expect(report.candidate.rejudged).toBeUndefined();
    // Compared (20 instances are too few to settle it either way), not refused.
    const compared = report.checks.find((check) => check.metric === 'accuracy')!;
    expect(compared.status).not.toBe('error');
    expect(compared.reasons.join(' ')).not.toContain('judged by');
    expect(compared.comparison).toMatchObject({ method: 'paired', candidate: 0.5, baseline: 0.5 });
    expect(result.summary).toContain("The baseline was judged again with the suite's judge (20 records): it had been judged by");
    expect(result.log).toContain('evalgate rejudge: 20 of 20 records judged again; judge: 20 calls');

    // Turned off, the gate refuses to compare grades of two judges, naming both.
    const refused = await runAction({ inputs: { ...inputs, 'rejudge-baseline': 'false' } });
    const accuracy = reportOf(refused).checks.find((check) => check.metric === 'accuracy')!;
    expect(accuracy.status).toBe('error');
    expect(accuracy.reasons.join(' ')).toMatch(
      /judged by "judge model=openai:judge-a .*" and the candidate by "judge model=openai:judge-b/,
    );
    expect(reportOf(refused).baseline?.rejudged).toBeUndefined();
    expect(refused.code).toBe(1);
  }, 60_000);

  it('leaves a baseline judged by the same judge as it is', async () => {
    const dir = tempDir();
    const suite = judgedSuite(dir, 'judge-b');
    const baseline = await recordsOf(suite, join(dir, 'baseline.jsonl'));
    const policy = writeFile('judged.yml', 'version: 1\nname: judged\nchecks:\n  - metric: accuracy\n    max_regression: 0.05\n');
    const before = server.countFor('judge-b');
    const result = await runAction({
      inputs: { policy, 'policy-source': 'head', suite, model: 'openai:candidate', 'base-url': server.url, baseline },
    });
    expect(result.failures).toEqual([]);
    expect(server.countFor('judge-b') - before).toBe(INSTANCES); // the candidate's only
    expect(reportOf(result).baseline?.rejudged).toBeUndefined();
    expect(result.summary).not.toContain('judged again');
  }, 60_000);

  it("on workflow_run judges the fork's records again with the base's suite, rubric and references", async () => {
    // The fork graded its model with its own judge against references it rewrote: every answer passes.
    const forkDir = tempDir();
    const forged = dataLines(
      (index) => (index % 2 === 0 ? `answer ${index}` : 'I do not know'),
      () => 1,
    );
    const records = await recordsOf(judgedSuite(forkDir, 'judge-a', forged), join(forkDir, 'records.jsonl'));
    const workspace = tempDir();
    writeFileSync(join(workspace, 'records.jsonl'), readFileSync(records));
    // The base: the policy, the suite (judge-b) and its data, at the base commit.
    github.files.set(`${BASE_SHA}:policies/judged.yml`, 'version: 1\nname: judged\nchecks:\n  - metric: accuracy\n    min: 0.9\n');
    github.files.set(`${BASE_SHA}:evals/suite.yaml`, suiteText('judge-b'));
    github.files.set(
      `${BASE_SHA}:evals/answers.jsonl`,
      dataLines(undefined, (index) => (index < 10 ? (index + 1) % 2 : undefined)),
    );
    github.pulls.set(7, { head: { sha: HEAD_SHA, ref: 'feature', owner: 'forker' }, base: { sha: BASE_SHA, ref: 'main' } });
    // What the fork planted in the workspace is not read: the suite comes from the base.
    mkdirSync(join(workspace, 'evals'));
    writeFileSync(join(workspace, 'evals/suite.yaml'), suiteText('judge-a'));
    const before = server.countFor('judge-b');
    const result = await runAction({
      event: 'workflow_run',
      workflowRun: { headSha: HEAD_SHA, headOwner: 'forker', headBranch: 'feature', pullRequests: [] },
      inputs: { policy: 'policies/judged.yml', candidate: 'records.jsonl', suite: 'evals/suite.yaml' },
      cwd: workspace,
    });
    expect(server.countFor('judge-b') - before).toBe(INSTANCES);
    const report = reportOf(result);
    expect(report.candidate.rejudged).toEqual({ records: INSTANCES, judgedBefore: [expect.stringContaining('model=openai:judge-a')] });
    // The fork's records claimed 1.0; the base's judge, against the base's references, finds half right.
    expect(report.checks.find((check) => check.metric === 'accuracy')).toMatchObject({ status: 'fail', candidate: { value: 0.5 } });
    expect(result.code).toBe(1);
    expect(github.comments.at(-1)?.body).toContain(
      "The pull request's records were judged again here with the suite as the base commit has it",
    );
    expect(github.statuses.at(-1)).toMatchObject({ sha: HEAD_SHA, state: 'failure' });
    // The person's labels are the base's too (what judge_tpr and judge_tnr measure the judge by), not the fork's.
    const [folder] = readdirSync(result.runnerTemp).filter((name) => name.startsWith('evalgate-rejudged-'));
    const judged = readJsonLines(join(result.runnerTemp, folder, 'candidate.jsonl'));
    expect(judged.map((record) => record.human)).toEqual(
      Array.from({ length: INSTANCES }, (_, index) => (index < 10 ? (index + 1) % 2 : undefined)),
    );

    // Grades in a scenario the base's suite does not judge are the fork's alone: refused.
    const extra = {
      scenario: 'extra',
      id: 'x1',
      prediction: 'yes',
      correct: 1,
      judge: { verdict: 'pass' },
      provenance: { scorer: 'judge model=fork' },
    };
    writeFileSync(join(workspace, 'extra.jsonl'), `${readFileSync(records, 'utf8')}${JSON.stringify(extra)}\n`);
    const planted = await runAction({
      event: 'workflow_run',
      workflowRun: { headSha: HEAD_SHA, headOwner: 'forker', headBranch: 'feature', pullRequests: [] },
      inputs: { policy: 'policies/judged.yml', candidate: 'extra.jsonl', suite: 'evals/suite.yaml' },
      cwd: workspace,
    });
    expect(planted.code).toBe(1);
    expect(github.statuses.at(-1)).toMatchObject({
      state: 'error',
      description: expect.stringContaining('a judge\'s grade in the scenario "extra", which the base\'s suite does not judge'),
    });

    // A suite the base does not have is an error, never a gate on the fork's own grades.
    const missing = await runAction({
      event: 'workflow_run',
      workflowRun: { headSha: HEAD_SHA, headOwner: 'forker', headBranch: 'feature', pullRequests: [] },
      inputs: { policy: 'policies/judged.yml', candidate: 'records.jsonl', suite: 'evals/other.yaml' },
      cwd: workspace,
    });
    expect(missing.code).toBe(1);
    expect(github.statuses.at(-1)).toMatchObject({
      state: 'error',
      description: expect.stringContaining('evals/other.yaml does not exist at the base commit bbbbbbb'),
    });
  }, 60_000);
});
