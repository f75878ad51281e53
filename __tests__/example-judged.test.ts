import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import type { MetricsReport } from '../src/metrics/compute.js';
import type { GateReport } from '../src/report/json.js';
import { tempDir } from './helpers/records.js';

/*
 * The worked example examples/judged-answers (README, "Models that grade"): a scripted model answers
 * 30 open questions, a scripted judge grades the answers (no network), a person's grades of 20 of them
 * measure the judge, and the policy admits the judge on its agreement in strict mode. Run end to end
 * with the CLI in this process, every number checked against the example's data worked by hand.
 */

const EXAMPLE = 'examples/judged-answers';

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let [stdout, stderr] = ['', ''];
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('the judged-answers example', () => {
  it('runs, measures the judge against the labels, and gates with the judge admitted in strict mode', async () => {
    const dir = tempDir();
    const records = join(dir, 'records.jsonl');
    const run = await cli(
      'run',
      '--suite',
      `${EXAMPLE}/suite.yml`,
      '--model',
      `command:node ${EXAMPLE}/model.mjs`,
      '--out',
      records,
      '--no-cache',
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('judge: 30 calls (0 failed, 0 retries, 0 from the cache), 1 unknown verdict');
    const written = readFileSync(records, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written.find((record) => record.id === 'q30')).toMatchObject({ prediction: '', judge: { verdict: 'unknown' } });
    expect(written.find((record) => record.id === 'q21')).toMatchObject({ human: 0, correct: 1, judge: { verdict: 'pass' } });

    const metrics = await cli('metrics', records, '--json');
    expect(metrics.code).toBe(0);
    const overall = (JSON.parse(metrics.stdout) as MetricsReport).overall;
    const value = (metric: string) => overall[metric].value;
    // The judge passed 21 of the 29 answers it gave a verdict on (18 right, 3 wrong ones naming the reference);
    // of the 12 the person graded right it passed 10, of the 8 graded wrong it failed 5.
    expect(value('accuracy')).toBeCloseTo(21 / 29, 12);
    expect(value('judge_unknown_rate')).toBeCloseTo(1 / 30, 12);
    expect(value('judge_agreement')).toBeCloseTo(15 / 20, 12);
    expect(value('judge_tpr')).toBeCloseTo(10 / 12, 12);
    expect(value('judge_tnr')).toBeCloseTo(5 / 8, 12);
    expect(value('judge_corrected_accuracy')).toBeCloseTo((21 / 29 + 5 / 8 - 1) / (10 / 12 + 5 / 8 - 1), 12);

    const reportFile = join(dir, 'report.json');
    const gate = await cli('gate', '--policy', `${EXAMPLE}/policy.yml`, '--candidate', records, '--json', reportFile);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as GateReport;
    expect(report.checks.map((check) => [check.metric, check.status])).toEqual([
      ['judge_tpr', 'pass'],
      ['judge_unknown_rate', 'pass'],
      ['accuracy', 'pass'],
    ]);
    expect(report.checks[0]).toMatchObject({ bounds: 'strict' });
    expect(gate.code).toBe(0);

    // Asked to tell wrong answers from right ones as well, on 8 labels, the judge is not admitted.
    const stricter = join(dir, 'stricter.yml');
    writeFileSync(stricter, `${readFileSync(`${EXAMPLE}/policy.yml`, 'utf8')}  - metric: judge_tnr\n    min: 0.5\n`);
    const refused = await cli('gate', '--policy', stricter, '--candidate', records, '--json', reportFile);
    expect(refused.code).toBe(1);
    const tnr = (JSON.parse(readFileSync(reportFile, 'utf8')) as GateReport).checks.find((check) => check.metric === 'judge_tnr')!;
    expect(tnr.status).toBe('fail');
  }, 60_000);
});
