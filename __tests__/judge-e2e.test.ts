import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalgate, readJsonLines } from './helpers/evalgate.js';
import { startJudgeServer, type JudgeServer } from './helpers/judge-server.js';
import { tempDir } from './helpers/records.js';

/*
 * The judge scorer through the bundled CLI (dist/cli.js), against the stand-in judge on 127.0.0.1: a
 * baseline judged by one judge and a candidate by another is an error until `evalgate rejudge` grades
 * the baseline's stored completions again with the candidate's judge; then the gate compares them.
 */

let server: JudgeServer;
beforeAll(async () => {
  server = await startJudgeServer();
  server.judgeKey = JUDGE_KEY;
});
afterAll(() => server.close());

const JUDGE_KEY = 'sk-judge-e2e-0123456789abcdef';
const ENV = { ...process.env, JUDGE_KEY, OPENAI_API_KEY: '' };
const INSTANCES = 40;

/** A suite whose one scenario is judged by `judge`, and its data: the model answers every second question right. */
function judgedSuite(dir: string, name: string, judge: string): string {
  const lines = Array.from({ length: INSTANCES }, (_, index) => {
    server.answers.set(`question ${index}`, index % 2 === 0 ? `answer ${index}` : 'I do not know');
    return JSON.stringify({ id: `q${index}`, input: `question ${index}`, references: [`answer ${index}`], human: index % 2 === 0 ? 1 : 0 });
  });
  writeFileSync(join(dir, 'answers.jsonl'), `${lines.join('\n')}\n`);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      'version: 1',
      `name: ${name}`,
      'scenarios:',
      '  - name: answers',
      '    data: answers.jsonl',
      '    scorer: judge',
      '    scorer_options:',
      `      model: openai:${judge}`,
      `      base_url: ${server.url}`,
      '      api_key_env: JUDGE_KEY',
      '      template: closed_qa',
      '',
    ].join('\n'),
  );
  return file;
}

describe('evalgate run, gate and rejudge with a judge', () => {
  it('refuses to compare runs judged by different judges until the baseline is judged again', async () => {
    const dir = tempDir();
    const oldSuite = judgedSuite(dir, 'old', 'judge-a');
    const newSuite = judgedSuite(dir, 'new', 'judge-b');
    const run = (suite: string, out: string) =>
      evalgate(
        ['run', '--suite', suite, '--model', 'openai:candidate', '--base-url', server.url, '--out', join(dir, out), '--no-cache'],
        ENV,
      );
    const baselineRun = await run(oldSuite, 'baseline.jsonl');
    expect(baselineRun.stderr).toContain(
      'judge: 40 calls (0 failed, 0 retries, 0 from the cache), 0 unknown verdicts, 4000 input and 400 output tokens',
    );
    expect(baselineRun.code).toBe(0);
    expect((await run(newSuite, 'candidate.jsonl')).code).toBe(0);
    const baseline = readJsonLines(join(dir, 'baseline.jsonl'));
    expect(baseline.filter((record) => record.correct === 1)).toHaveLength(20);
    expect(baseline[0]).toMatchObject({
      human: 1,
      judge: { verdict: 'pass' },
      provenance: { scorer: expect.stringContaining('model=openai:judge-a') },
    });
    // The judge's key went to the judge, from its own variable, and into no record.
    expect(readFileSync(join(dir, 'baseline.jsonl'), 'utf8')).not.toContain(JUDGE_KEY);

    const policy = join(dir, 'policy.yml');
    writeFileSync(
      policy,
      'version: 1\nname: judged\nchecks:\n  - metric: accuracy\n    max_regression: 0.05\n  - metric: judge_tpr\n    min: 0.8\n',
    );
    const gate = (baselineFile: string) =>
      evalgate(
        [
          'gate',
          '--policy',
          policy,
          '--candidate',
          join(dir, 'candidate.jsonl'),
          '--baseline',
          join(dir, baselineFile),
          '--json',
          join(dir, 'report.json'),
        ],
        ENV,
      );
    const refused = await gate('baseline.jsonl');
    expect(refused.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      checks: Array<{ metric: string; status: string; reasons: string[] }>;
    };
    const accuracy = report.checks.find((check) => check.metric === 'accuracy')!;
    expect(accuracy.status).toBe('error');
    expect(accuracy.reasons.join(' ')).toMatch(
      /judged by "judge model=openai:judge-a served=judge-a \.\.\." and the candidate by "judge model=openai:judge-b served=judge-b \.\.\."/,
    );

    const asked = server.countFor('candidate');
    const rejudged = await evalgate(
      ['rejudge', '--suite', newSuite, '--records', join(dir, 'baseline.jsonl'), '--out', join(dir, 'rejudged.jsonl'), '--no-cache'],
      ENV,
    );
    expect(rejudged.stderr).toContain('40 of 40 records judged again');
    expect(rejudged.code).toBe(0);
    expect(server.countFor('candidate')).toBe(asked); // no call to the model under test
    const again = readJsonLines(join(dir, 'rejudged.jsonl'));
    expect(again.map((record) => record.prediction)).toEqual(baseline.map((record) => record.prediction));
    expect(again[0]).toMatchObject({ provenance: { scorer: expect.stringContaining('model=openai:judge-b') } });

    const compared = await gate('rejudged.jsonl');
    expect(compared.stderr).toBe('');
    expect(compared.code).toBe(0);
    const passed = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as typeof report;
    expect(passed.checks.find((check) => check.metric === 'accuracy')!.status).not.toBe('error');
    expect(passed.checks.find((check) => check.metric === 'judge_unknown_rate')).toMatchObject({ status: 'pass', builtin: true });
  }, 120_000);

  it('stops when the judge refuses its key, naming the judge and writing nothing', async () => {
    const dir = tempDir();
    const suite = judgedSuite(dir, 'suite', 'judge-a');
    const result = await evalgate(
      ['run', '--suite', suite, '--model', 'openai:candidate', '--base-url', server.url, '--out', join(dir, 'out.jsonl'), '--no-cache'],
      { ...ENV, JUDGE_KEY: 'sk-wrong-key-0000000000' },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the judge openai:judge-a cannot answer: HTTP 401');
    expect(result.stderr).not.toContain('sk-wrong-key-0000000000');
  });

  it('refuses a key written in the suite file, at its line, without showing it', async () => {
    const dir = tempDir();
    const suite = judgedSuite(dir, 'suite', 'judge-a');
    const before = server.bodies.length;
    writeFileSync(
      suite,
      readFileSync(suite, 'utf8').replace(
        '      api_key_env: JUDGE_KEY\n',
        `      api_key: ${JUDGE_KEY}\n      api_key_env: ${JUDGE_KEY}\n`,
      ),
    );
    const result = await evalgate(
      ['run', '--suite', suite, '--model', 'openai:candidate', '--base-url', server.url, '--out', join(dir, 'out.jsonl')],
      ENV,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/suite\.yaml:\d+:\d+ scenarios\[0\]\.scorer_options\.api_key: a key never goes in the suite file/);
    expect(result.stderr).toContain('scorer_options.api_key_env: must name an environment variable');
    expect(result.stderr).not.toContain(JUDGE_KEY);
    expect(server.bodies.length).toBe(before); // refused before any call
  });
});
