import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GateReport } from '../src/report/json.js';
import { MAX_SAMPLES } from '../src/runner/work-items.js';
import { writeFile, type ActionRun } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import { evalgate, readJsonLines, writeSuite } from './helpers/evalgate.js';
import { startFakeGitHub, type FakeGitHub } from './helpers/github-server.js';
import { SAMPLED_ANSWERS, startFakeOpenAI, type FakeOpenAI } from './helpers/openai-server.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * The action's `samples` input: the suite run asks every example K times, as `evalgate run --samples K`
 * does, against a local OpenAI-compatible endpoint that answers differently from
 * call to call at a temperature above 0. In-process (helpers/action-in-process.ts).
 */

let github: FakeGitHub;
let model: FakeOpenAI;
// The OpenAI adapter (src/runner) reads its key from the environment, as the CLI's does.
const key = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  [github, model] = await Promise.all([startFakeGitHub('octo', 'models'), startFakeOpenAI()]);
  process.env.OPENAI_API_KEY = 'sk-test';
});
afterAll(async () => {
  await Promise.all([github.close(), model.close()]);
  if (key === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = key;
});
beforeEach(() => github.reset());

const runAction = (run: ActionRun) => runInProcess(github, { ...run, env: { OPENAI_API_KEY: 'sk-test', ...run.env } });
const reportOf = (result: { output(name: string): string | undefined }) =>
  JSON.parse(readFileSync(result.output('report')!, 'utf8')) as GateReport;

const IDS = Array.from({ length: 10 }, (_, i) => `q${i}`);
/** Ten questions whose right answer is "refund", asked at temperature 1; each run its own questions, so that the fake model's count of calls per prompt starts at the first. */
function refundSuite(): string {
  const dir = tempDir();
  const instances = IDS.map((id) => ({ id, input: `question ${id} of ${dir}`, references: ['refund'] }));
  return writeSuite(dir, instances, 'scorer: exact_match\ngeneration: { temperature: 1 }');
}
/** The model is right about a third of the time: one sample per example cannot see it (the first answer is always right). */
const policy = () => writeFile('p.yml', 'version: 1\nname: sampled\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
const suiteInputs = (suite: string) => ({ policy: policy(), 'policy-source': 'head', suite, model: 'openai:m', 'base-url': model.url });

describe('the action input samples', () => {
  it('asks every example K times, writes samples 0..K-1, and gates on examples, not calls', async () => {
    const suite = refundSuite();
    let asked = model.requests;
    const once = await runAction({ inputs: suiteInputs(suite) });
    expect(model.requests - asked).toBe(IDS.length);
    expect(readJsonLines(once.output('records')!).map((r) => [r.id, r.sample, r.prediction])).toEqual(
      IDS.map((id) => [id, undefined, 'refund']),
    );
    expect(once.output('verdict')).toBe('pass');

    asked = model.requests;
    const thrice = await runAction({ inputs: { ...suiteInputs(refundSuite()), samples: '3' } });
    expect(model.requests - asked).toBe(3 * IDS.length);
    const records = readJsonLines(thrice.output('records')!);
    expect(records.map((r) => [r.id, r.sample])).toEqual(IDS.flatMap((id) => [0, 1, 2].map((sample) => [id, sample])));
    // Each example's three calls got the three answers, in whatever order the concurrent calls arrived.
    for (const id of IDS) {
      const answers = records.filter((r) => r.id === id).map((r) => r.prediction as string);
      expect([id, answers.sort()]).toEqual([id, [...SAMPLED_ANSWERS].sort()]);
    }
    const report = reportOf(thrice);
    expect(report.candidate).toMatchObject({ records: 3 * IDS.length, instances: IDS.length });
    const accuracy = report.checks.find((check) => check.metric === 'accuracy' && check.scope === 'overall')!;
    expect(accuracy.candidate!.n).toBe(IDS.length);
    expect(accuracy.candidate!.value).toBeCloseTo(1 / 3, 12);
    // Then the hash of the suite its records name (provenance).
    expect(thrice.summary).toContain(`(${3 * IDS.length} records, ${IDS.length} instances, suite sha256 `);
    expect(thrice.output('verdict')).toBe('fail');
    expect(thrice.code).toBe(1);
  });

  it.each(['0', '-1', '1.5', 'abc', '3 samples', String(MAX_SAMPLES + 1)])(
    'fails the step on samples "%s", naming the input, before asking the model anything',
    async (samples) => {
      const asked = model.requests;
      const result = await runAction({ inputs: { ...suiteInputs(refundSuite()), samples } });
      expect(result.code).toBe(1);
      expect(result.log).toContain(`failed: Input "samples" must be a whole number from 1 to ${MAX_SAMPLES}; got "${samples}"`);
      expect(result.output('verdict')).toBe('error');
      expect(model.requests).toBe(asked);
      expect(github.comments).toHaveLength(0);
    },
  );

  it('has the bound of evalgate run --samples, which refuses the same values', async () => {
    const dir = tempDir();
    const suite = refundSuite();
    const over = await evalgate([
      'run',
      '--suite',
      suite,
      '--model',
      'openai:m',
      '--out',
      join(dir, 'r.jsonl'),
      '--samples',
      String(MAX_SAMPLES + 1),
    ]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`expected an integer from 1 to ${MAX_SAMPLES}`);
  });

  it('fails the step when no suite runs: without suite, or with a candidate or report instead', async () => {
    const candidate = writeLines(
      'candidate.jsonl',
      IDS.map((id) => record({ id })),
    );
    const suite = refundSuite();
    const cases: Array<Record<string, string>> = [
      { policy: policy(), 'policy-source': 'head', candidate, samples: '3' },
      { ...suiteInputs(suite), candidate, samples: '3' },
      { ...suiteInputs(suite), report: writeFile('report.json', '{}'), samples: '2' },
      { policy: policy(), 'policy-source': 'head', candidate, samples: '1' },
    ];
    for (const inputs of cases) {
      const asked = model.requests;
      const result = await runAction({ inputs });
      expect(result.code).toBe(1);
      expect(result.log).toContain(
        'failed: Input "samples" is for the suite run (inputs "suite" and "model", with no "candidate" or "report")',
      );
      expect(result.output('verdict')).toBe('error');
      expect(model.requests).toBe(asked);
    }
    // Without samples the same candidate gates as before.
    const plain = await runAction({ inputs: { policy: policy(), 'policy-source': 'head', candidate } });
    expect([plain.code, plain.output('verdict')]).toEqual([0, 'pass']);
  });
});
