import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EQUAL_GROUPS, Generator } from '../bench/population21.js';
import { runCli } from '../src/cli/index.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';
import type { EvalRecord } from '../src/records/types.js';
import { Random } from '../src/stats/random.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * Failed calls cannot improve a metric (issue 21, point 3): a failed sample is left out of accuracy,
 * so a candidate whose wrong answers come back as errors looks better than it is. The built-in paired
 * failure-rate check and coverage per sample, through the CLI's `gate` in this process, on records of
 * issue 21's population (bench/population21.ts).
 */

const INSTANCES = 300;
const SAMPLES = 5;

/** `evalgate gate` in this process: its exit code, stdout, and the JSON report (read back as the action reads it). */
async function gate(policyText: string, candidate: string, baseline: string, resamples = 1000) {
  const dir = tempDir();
  const policy = join(dir, 'policy.yml');
  writeFileSync(policy, `version: 1\nname: failures\nsettings:\n  resamples: ${resamples}\n${policyText}`);
  const json = join(dir, 'report.json');
  const markdown = join(dir, 'comment.md');
  let stdout = '';
  const args = ['gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline, '--json', json, '--markdown', markdown];
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stdout += text) });
  const report = parseGateReport(readFileSync(json, 'utf8'), json);
  return { code, stdout, report, markdown: readFileSync(markdown, 'utf8') };
}

const ACCURACY_POLICY = 'checks:\n  - metric: accuracy\n    max_regression: 0.01\n';

/** The failed call a record becomes: its example and sample kept, no `correct`. */
function failed(record: EvalRecord): EvalRecord {
  const { scenario, id, sample, groups } = record;
  return { scenario, id, ...(sample === undefined ? {} : { sample }), groups, error: 'HTTP 500: upstream timed out' } as EvalRecord;
}

/** Records with some calls failed: each wrong answer with chance `wrongFail`, each right one with `rightFail`. */
function withFailures(records: EvalRecord[], random: Random, { wrongFail = 0, rightFail = 0 }): EvalRecord[] {
  return records.map((record) => (random.nextFloat() < (record.correct === 0 ? wrongFail : rightFail) ? failed(record) : record));
}

/** One run of the population's model on the instances: originals only, SAMPLES samples each, `drop` lower accuracy. */
function draw(seed: number, drop = 0): { generator: Generator; records: (instances: ReturnType<Generator['instances']>) => EvalRecord[] } {
  const generator = new Generator(new Random(seed), EQUAL_GROUPS);
  return { generator, records: (instances) => generator.records(instances, { drop, samples: SAMPLES, variants: 1 }) };
}

const checkOf = (report: GateReport, metric: string) => report.checks.filter((check) => check.metric === metric);

describe('failed calls cannot improve a metric', () => {
  it("issue 21's case: 5 samples, a candidate 25 points worse whose wrong answers mostly fail, ends fail", async () => {
    const { generator } = draw(2101);
    const instances = generator.instances(INSTANCES);
    const random = new Random(2102);
    // The baseline fails a few calls at random; the candidate is 25 points worse, and 80% of its wrong answers fail.
    const baselineRecords = withFailures(draw(2103).records(instances), random, { wrongFail: 0.01, rightFail: 0.01 });
    const candidateRecords = withFailures(draw(2104, 0.25).records(instances), random, { wrongFail: 0.8, rightFail: 0.01 });
    const baseline = writeLines('baseline.jsonl', baselineRecords);
    const candidate = writeLines('candidate.jsonl', candidateRecords);

    const { code, stdout, report, markdown } = await gate(ACCURACY_POLICY, candidate, baseline);
    // What the issue saw: the answered samples' accuracy goes up.
    const [accuracy] = checkOf(report, 'accuracy');
    expect(accuracy.comparison!.candidate).toBeGreaterThan(accuracy.comparison!.baseline + 0.05);
    // Accuracy alone does not block (at this size it cannot see the default detect: inconclusive).
    expect(accuracy.status).toBe('inconclusive');
    expect(report.verdict).toBe('fail');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^evalgate: FAIL/);
    // The built-in failure-rate check blocks, in the blocking family with accuracy.
    const [failures] = checkOf(report, 'error_rate');
    expect(failures).toMatchObject({
      builtin: true,
      severity: 'block',
      status: 'fail',
      test: 'regression',
      threshold: 'regression <= 0, built-in',
    });
    expect(failures.comparison!.worsening).toBeGreaterThan(0.3);
    expect(failures.comparison!.pWorseAdjusted).toBeLessThan(0.05);
    expect(failures.reasons[0]).toMatch(/^worse than the baseline by \d+(\.\d+)? pts, over the budget 0 pts$/);
    expect(failures.reasons).toContain(
      "the most common error of the candidate's " +
        candidateRecords.filter((r) => r.error).length +
        ' failed calls (' +
        candidateRecords.filter((r) => r.error).length +
        ' of them): HTTP 500: upstream timed out',
    );
    expect(markdown).toContain('built-in');
    // Coverage per sample: most instances answered some sample, but far from all their samples.
    const { coverage } = report;
    expect(coverage!.baselineSamples).toBe(INSTANCES * SAMPLES);
    expect(coverage!.coveredSamples).toBe(candidateRecords.filter((record) => !record.error).length);
    expect(coverage!.coveredSamples! / coverage!.baselineSamples!).toBeLessThan(0.7);
    expect(coverage!.status).toBe('warn');
  });
});

describe('the built-in failure-rate check', () => {
  /** A/A: two runs of the same model on the same instances, each failing `rate` of its calls at random. */
  function pairOf(seed: number, rate: number) {
    const instances = draw(seed).generator.instances(INSTANCES);
    const random = new Random(seed + 1);
    const runs = [seed + 2, seed + 3].map((runSeed) =>
      withFailures(draw(runSeed).records(instances), random, { wrongFail: rate, rightFail: rate }),
    );
    return { baseline: writeLines('baseline.jsonl', runs[0]), candidate: writeLines('candidate.jsonl', runs[1]) };
  }

  it('does not block an A/A pair with the same small failure rate', async () => {
    const blocked: number[] = [];
    for (const seed of [10, 20, 30, 40, 50]) {
      const { baseline, candidate } = pairOf(seed, 0.03);
      const { report } = await gate(ACCURACY_POLICY, candidate, baseline, 500);
      const [failures] = checkOf(report, 'error_rate');
      expect(failures.builtin).toBe(true);
      if (failures.status !== 'pass') blocked.push(seed);
      // A real test with a spread: failures on both sides, a p-value, corrected with accuracy's.
      else
        expect([failures.comparison!.sd! > 0, failures.comparison!.pWorseAdjusted! >= failures.comparison!.pWorse!]).toEqual([true, true]);
    }
    expect(blocked).toEqual([]);
  }, 120_000);

  it('passes without a test when neither run failed a call, leaving the family as it was', async () => {
    const { baseline, candidate } = pairOf(70, 0);
    const { report } = await gate(ACCURACY_POLICY, candidate, baseline);
    const [failures] = checkOf(report, 'error_rate');
    expect(failures).toMatchObject({ builtin: true, status: 'pass', power: null, flags: [] });
    expect(failures.reasons).toEqual([`no failed call in either run on the ${INSTANCES} shared instances: nothing to test`]);
    expect(failures.comparison).toMatchObject({ candidate: 0, baseline: 0, worsening: 0, sd: 0 });
    expect(failures.comparison!.pWorseAdjusted).toBeUndefined();
    // Accuracy's test is the only one of its family: its p-value is not corrected.
    const [accuracy] = checkOf(report, 'accuracy');
    const { pOverBudget, pOverBudgetAdjusted } = accuracy.comparison!; // a positive budget's test
    expect([pOverBudget !== undefined, pOverBudgetAdjusted]).toEqual([true, pOverBudget]);
  });

  it('is not added when the policy checks error_rate itself: that check rules', async () => {
    const { generator } = draw(2101);
    const instances = generator.instances(INSTANCES);
    const random = new Random(2102);
    const baseline = writeLines(
      'baseline.jsonl',
      withFailures(draw(2103).records(instances), random, { wrongFail: 0.01, rightFail: 0.01 }),
    );
    // The candidate fails 4% of its calls: within the policy's own bound of 5%, far over the built-in budget of 0.
    const candidate = writeLines(
      'candidate.jsonl',
      withFailures(draw(2104).records(instances), random, { wrongFail: 0.04, rightFail: 0.04 }),
    );
    const { report, code } = await gate(`${ACCURACY_POLICY}  - metric: error_rate\n    max: 0.05\n`, candidate, baseline);
    expect(report.checks.map((check) => [check.metric, check.builtin])).toEqual([
      ['accuracy', false],
      ['error_rate', false],
    ]);
    expect(checkOf(report, 'error_rate')[0]).toMatchObject({ status: 'pass', threshold: '<= 0.05', comparison: null });
    expect(report.verdict).not.toBe('fail');
    expect(code).not.toBe(1);
  });
});

describe('the failure rate compared (a hand-worked case)', () => {
  it('is failed records / records on the shared instances, the difference tested by the paired bootstrap', async () => {
    // 20 instances x 5 samples; the candidate fails 2 samples of instances 0-9 (20 of 100), the baseline 1 of instances 0-4 (5 of 100).
    const run = (name: string, fails: (instance: number, sample: number) => boolean) =>
      writeLines(
        name,
        Array.from({ length: 100 }, (_, row) => {
          const [id, sample] = [Math.floor(row / 5), row % 5];
          return fails(id, sample)
            ? { scenario: 's', id: String(id), sample, error: 'timed out' }
            : { scenario: 's', id: String(id), sample, correct: 1 };
        }),
      );
    const candidate = run('candidate.jsonl', (id, sample) => id < 10 && sample < 2);
    const baseline = run('baseline.jsonl', (id, sample) => id < 5 && sample === 0);
    const { report } = await gate('checks:\n  - metric: accuracy\n    min: 0\n', candidate, baseline);
    const [failures] = checkOf(report, 'error_rate');
    expect(failures.comparison).toMatchObject({ method: 'paired', shared: 20, candidate: 0.2, baseline: 0.05 });
    expect(failures.comparison!.worsening).toBeCloseTo(0.15, 12);
    // Per instance the difference is 0.4 - 0.2 (0-4), 0.4 (5-9) or 0 (10-19): a family of one, alone in it.
    expect(failures.comparison!.pWorseAdjusted).toBe(failures.comparison!.pWorse);
    expect(failures.comparison!.pWorse).toBeLessThan(0.01);
    expect(failures.status).toBe('fail');
    // Accuracy, over answered samples only, is 1 in both runs: without the check this gate passed.
    expect(checkOf(report, 'accuracy')[0].candidate!.value).toBe(1);
    expect(report.verdict).toBe('fail');
  });
});

describe('coverage per sample', () => {
  it('counts the answered samples of each instance, at most the baseline asked (a hand-worked case)', async () => {
    const answer = (id: string, sample: number) => ({ scenario: 's', id, sample, correct: 1 });
    const fail = (id: string, sample: number) => ({ scenario: 's', id, sample, error: 'timed out' });
    const five = (make: (sample: number) => object) => [0, 1, 2, 3, 4].map(make);
    // The baseline asks 5 samples of a, b and c (one of a's failed: it was still asked).
    const baseline = writeLines('baseline.jsonl', [
      ...five((k) => (k === 0 ? fail('a', k) : answer('a', k))),
      ...five((k) => answer('b', k)),
      ...five((k) => answer('c', k)),
    ]);
    // The candidate answers 7 samples of a (5 count), 1 of b's 5, none of c's (all failed).
    const candidate = writeLines('candidate.jsonl', [
      ...[0, 1, 2, 3, 4, 5, 6].map((k) => answer('a', k)),
      ...five((k) => (k === 2 ? answer('b', k) : fail('b', k))),
      ...five((k) => fail('c', k)),
    ]);
    const { report } = await gate(
      '  coverage: { min: 0.4, severity: block }\nchecks:\n  - metric: accuracy\n    min: 0\n',
      candidate,
      baseline,
    );
    // (5 + 1 + 0) of 15 = 40%: exactly enough at min 0.4; by instances (2 of 3) it would have been 67%.
    expect(report.coverage).toEqual({
      status: 'pass',
      baselineInstances: 3,
      covered: 2,
      baselineSamples: 15,
      coveredSamples: 6,
      min: 0.4,
      missing: ['s/c'],
      reason:
        "the candidate answered 6 of the baseline's 15 samples (40%; at least one sample of 2 of its 3 instances, 1 of them only in part); missing or failed: s/c",
    });
    const stricter = await gate(
      '  coverage: { min: 0.5, severity: block }\nchecks:\n  - metric: accuracy\n    min: 0\n',
      candidate,
      baseline,
    );
    expect(stricter.report.coverage).toMatchObject({ status: 'fail', coveredSamples: 6 });
    expect(stricter.report.coverage!.reason).toContain(
      '(40%; at least one sample of 2 of its 3 instances, 1 of them only in part, the policy asks at least 50%)',
    );
    expect(stricter.code).toBe(1);
  });
});
