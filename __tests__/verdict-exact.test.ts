import { describe, expect, it } from '@jest/globals';
import { coverageOf } from '../src/gate/coverage.js';
import type { CheckStatus, CoverageResult } from '../src/gate/types.js';
import { countOutcomes, decideOutcome, decideVerdict } from '../src/gate/verdict.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { constantRun, gateOf, recordsRun, seen } from './helpers/exact.js';

/*
 * What the checks add up to (src/gate/verdict.ts), on hand-made lists of checks: the verdict under
 * either settings.inconclusive, the outcome, and the counts a report's headline shows. Fast, for
 * mutation testing too.
 */

type Counted = { severity: string; status: CheckStatus; comparison?: unknown };

const block = (status: CheckStatus, comparison?: unknown): Counted => ({ severity: 'block', status, comparison });
const warn = (status: CheckStatus, comparison?: unknown): Counted => ({ severity: 'warn', status, comparison });
const compared = { method: 'paired' };

/** The counts, zero unless given. */
const counts = (given: Partial<ReturnType<typeof countOutcomes>>) => ({
  blocking: 0,
  warnings: 0,
  failed: 0,
  inconclusive: 0,
  notRun: 0,
  judged: 0,
  ...given,
});

describe('the verdict, the outcome and the counts', () => {
  it.each<[string, Counted[], CoverageResult['status'] | undefined, [string, string, string], ReturnType<typeof counts>]>([
    // [verdict under inconclusive: warn, under inconclusive: block, outcome]
    ['no check', [], undefined, ['pass', 'pass', 'pass'], counts({})],
    ['a pass', [block('pass')], undefined, ['pass', 'pass', 'pass'], counts({ judged: 1 })],
    [
      'a blocking failure',
      [block('fail'), block('pass')],
      undefined,
      ['fail', 'fail', 'fail'],
      counts({ blocking: 1, failed: 1, judged: 2 }),
    ],
    ['a blocking error', [block('error')], undefined, ['fail', 'fail', 'error'], counts({ blocking: 1, failed: 1, notRun: 1, judged: 1 })],
    ['a warn check that failed', [warn('warn')], undefined, ['warn', 'warn', 'warn'], counts({ warnings: 1, judged: 1 })],
    // A warn check's error warns: it is counted as failed, not as blocking.
    [
      'a warn check that errored',
      [warn('error')],
      undefined,
      ['warn', 'warn', 'warn'],
      counts({ warnings: 1, failed: 1, notRun: 1, judged: 1 }),
    ],
    [
      'a blocking check that compared but could not tell',
      [block('inconclusive', compared)],
      undefined,
      ['warn', 'fail', 'inconclusive'],
      counts({ inconclusive: 1, judged: 1 }),
    ],
    // Inconclusive for want of a comparison (none, or null in a report read back): it did not run.
    [
      'a blocking check with no comparison',
      [block('inconclusive')],
      undefined,
      ['warn', 'fail', 'inconclusive'],
      counts({ notRun: 1, judged: 1 }),
    ],
    [
      'a blocking check that could not compare',
      [block('inconclusive', null)],
      undefined,
      ['warn', 'fail', 'inconclusive'],
      counts({ notRun: 1, judged: 1 }),
    ],
    [
      'a warn check that could not tell',
      [warn('inconclusive', compared)],
      undefined,
      ['warn', 'warn', 'inconclusive'],
      counts({ inconclusive: 1, judged: 1 }),
    ],
    ['a skipped check', [block('skipped')], undefined, ['pass', 'pass', 'pass'], counts({ notRun: 1, judged: 1 })],
    ['a check turned off', [block('off')], undefined, ['pass', 'pass', 'pass'], counts({})],
    ['coverage that fails', [block('pass')], 'fail', ['fail', 'fail', 'fail'], counts({ blocking: 1, failed: 1, judged: 1 })],
    ['coverage that warns', [block('pass')], 'warn', ['warn', 'warn', 'warn'], counts({ warnings: 1, judged: 1 })],
    ['coverage that passes', [block('pass')], 'pass', ['pass', 'pass', 'pass'], counts({ judged: 1 })],
    // The outcome's precedence: error > fail > inconclusive > warn > pass.
    [
      'an error and a failure',
      [block('fail'), block('error')],
      undefined,
      ['fail', 'fail', 'error'],
      counts({ blocking: 2, failed: 2, notRun: 1, judged: 2 }),
    ],
    [
      'a failure and an inconclusive check',
      [block('inconclusive', compared), block('fail')],
      undefined,
      ['fail', 'fail', 'fail'],
      counts({ blocking: 1, failed: 1, inconclusive: 1, judged: 2 }),
    ],
    [
      'a warning and an inconclusive check',
      [warn('warn'), warn('inconclusive', compared)],
      undefined,
      ['warn', 'warn', 'inconclusive'],
      counts({ warnings: 1, inconclusive: 1, judged: 2 }),
    ],
  ])('%s', (_, checks, coverage, [warnVerdict, blockVerdict, outcome], expected) => {
    expect(decideVerdict(checks, coverage)).toBe(warnVerdict);
    expect(decideVerdict(checks, coverage, 'warn')).toBe(warnVerdict);
    expect(decideVerdict(checks, coverage, 'block')).toBe(blockVerdict);
    expect(decideOutcome(checks, coverage)).toBe(outcome);
    expect(countOutcomes(checks, coverage)).toEqual(expected);
  });
});

/** A records run of scenario s: each entry an instance's records, each record answered (true) or a failed call (false), by sample. */
function runOf(instances: ReadonlyArray<readonly boolean[] | 'variant only'>): RunInput {
  const records = instances.flatMap((samples, index): EvalRecord[] =>
    samples === 'variant only'
      ? [{ scenario: 's', id: String(index), correct: 1, perturbation: { name: 'typos', kind: 'robustness' } } as EvalRecord]
      : samples.map(
          (answered, sample) =>
            ({
              scenario: 's',
              id: String(index),
              ...(samples.length > 1 ? { sample } : {}),
              ...(answered ? { correct: 1 } : { error: 'timeout' }),
            }) as EvalRecord,
        ),
  );
  return recordsRun('r.jsonl', () => records);
}
const answered = (count: number) => Array.from({ length: count }, () => [true]);

describe("coverage: how much of the baseline's samples the candidate answered", () => {
  const warnAll = { min: 1, severity: 'warn' } as const;

  it.each([
    ['every instance', answered(4), answered(4), warnAll, 'pass', "the candidate answered 4 of the baseline's 4 instances (100%)"],
    [
      'one missing',
      answered(3),
      answered(4),
      warnAll,
      'warn',
      "the candidate answered 3 of the baseline's 4 instances (75%, the policy asks at least 100%); missing or failed: s/3",
    ],
    [
      'one missing, severity block',
      answered(3),
      answered(4),
      { min: 1, severity: 'block' },
      'fail',
      expect.stringContaining('(75%, the policy asks'),
    ],
    // min 0.75 of 4 instances is 3: exactly enough.
    [
      'exactly the minimum',
      answered(3),
      answered(4),
      { min: 0.75, severity: 'block' },
      'pass',
      "the candidate answered 3 of the baseline's 4 instances (75%); missing or failed: s/3",
    ],
    [
      'a failed call is not an answer',
      [[true], [false], [true]],
      answered(3),
      warnAll,
      'warn',
      "the candidate answered 2 of the baseline's 3 instances (66.7%, the policy asks at least 100%); missing or failed: s/1",
    ],
    [
      'five missing are all named',
      answered(1),
      answered(6),
      { min: 0.1, severity: 'warn' },
      'pass',
      "the candidate answered 1 of the baseline's 6 instances (16.7%); missing or failed: s/1, s/2, s/3, s/4, s/5",
    ],
    [
      'six missing: five named',
      answered(1),
      answered(7),
      { min: 0.1, severity: 'warn' },
      'pass',
      "the candidate answered 1 of the baseline's 7 instances (14.3%); missing or failed: s/1, s/2, s/3, s/4, s/5 and 1 more",
    ],
    // Repeated samples: counted per sample, at most the baseline's of each instance.
    [
      'one sample of two failed',
      [
        [true, true],
        [true, false],
      ],
      [
        [true, true],
        [true, true],
      ],
      warnAll,
      'warn',
      "the candidate answered 3 of the baseline's 4 samples (75%; at least one sample of 2 of its 2 instances, 1 of them only in part, the policy asks at least 100%)",
    ],
    [
      'an instance of two samples missing',
      [[true, true], []],
      [
        [true, true],
        [true, true],
      ],
      warnAll,
      'warn',
      "the candidate answered 2 of the baseline's 4 samples (50%; at least one sample of 1 of its 2 instances, the policy asks at least 100%); missing or failed: s/1",
    ],
    [
      "more samples than the baseline's cover no other instance",
      [[true, true, true], []],
      [[true], [true]],
      { min: 0.75, severity: 'block' },
      'fail',
      "the candidate answered 1 of the baseline's 2 instances (50%, the policy asks at least 75%); missing or failed: s/1",
    ],
    // An instance whose original the baseline lacks (a variant only) still asks for one answer.
    [
      'a baseline instance of variants only',
      answered(1),
      [[true], 'variant only'],
      warnAll,
      'warn',
      "the candidate answered 1 of the baseline's 2 instances (50%, the policy asks at least 100%); missing or failed: s/1",
    ],
  ] as const)('%s', (_, candidate, baseline, setting, status, reason) => {
    expect(coverageOf(runOf([...candidate]), runOf([...baseline]), setting)).toMatchObject({ status, reason });
  });

  it('is not measured when turned off or when either run is a metrics file', () => {
    const metrics: RunInput = { kind: 'metrics', file: 'm.json', report: { overall: {}, scenarios: {} } };
    expect(coverageOf(runOf(answered(1)), runOf(answered(2)), { min: 1, severity: 'off' })).toBeUndefined();
    expect(coverageOf(metrics, runOf(answered(2)), { min: 1, severity: 'warn' })).toBeUndefined();
    expect(coverageOf(runOf(answered(1)), metrics, { min: 1, severity: 'warn' })).toBeUndefined();
    expect(coverageOf(runOf(answered(1)), undefined, { min: 1, severity: 'warn' })).toBeUndefined();
  });
});

describe("the candidate's failed calls, named where they decide", () => {
  // 40 instances; the first `timeouts` calls timed out, the next `refused` were refused, the rest right.
  const failing = (timeouts: number, refused = 0): RunInput =>
    recordsRun('f.jsonl', () =>
      Array.from({ length: 40 }, (_, i) => {
        const error = i < timeouts ? 'timeout' : i < timeouts + refused ? 'HTTP 429' : undefined;
        return (error ? { scenario: 's', id: String(i), error } : { scenario: 's', id: String(i), correct: 1 }) as EvalRecord;
      }),
    );
  const check = (lines: string) => `checks:\n  - metric: ${lines}\n`;
  const named = (failed: number, count: number, error: string) =>
    `the most common error of the candidate's ${failed} failed call${failed === 1 ? '' : 's'} (${count} of them): ${error}`;

  it.each([
    [
      'an error_rate over its max',
      check('error_rate\n    max: 0.02'),
      failing(1),
      'fail',
      ['above the maximum 2%', named(1, 1, 'timeout')],
    ],
    [
      'a warn error_rate over its max',
      check('error_rate\n    max: 0.02\n    severity: warn'),
      failing(1),
      'warn',
      ['above the maximum 2%', named(1, 1, 'timeout')],
    ],
    ['an error_rate within its max', check('error_rate\n    max: 0.5'), failing(1), 'pass', []],
    [
      'the most common of two errors',
      check('error_rate\n    max: 0.02'),
      failing(2, 1),
      'fail',
      ['above the maximum 2%', named(3, 2, 'timeout')],
    ],
    // No record answered: the check has no value, and the failed calls are why.
    [
      'a metric no record answered',
      check('accuracy\n    min: 0.5'),
      failing(40),
      'error',
      ['the candidate has no accuracy for overall', named(40, 40, 'timeout')],
    ],
    // Another metric's failure is not the failed calls' doing.
    ['an accuracy under its min', check('accuracy\n    min: 1.5'), failing(1), 'fail', ['below the minimum 150%']],
    ['no failed call', check('error_rate\n    max: -1'), failing(0), 'fail', ['above the maximum -100%']],
  ])('%s', (_, yaml, candidate, status, reasons) => {
    expect(seen(gateOf(yaml, candidate))).toEqual({ status, reasons });
  });

  it('an error_rate check that errored is', () => {
    const result = gateOf(check('error_rate\n    max_regression: 0.1\n    detect: 0.9'), failing(1), constantRun(10, 1), 20);
    expect(seen(result)).toEqual({
      status: 'error',
      reasons: [
        'regression not checked: 10 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
        named(1, 1, 'timeout'),
      ],
    });
  });

  it('an error with a value (too few shared instances) is not put down to them', () => {
    const result = gateOf(check('accuracy\n    max_regression: 0.1\n    detect: 0.9'), failing(1), constantRun(10, 1), 20);
    expect(seen(result)).toEqual({
      status: 'error',
      reasons: ['regression not checked: 10 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)'],
    });
  });

  it('nor are the checks of a metrics file; coverage that falls short is', () => {
    const metrics: RunInput = { kind: 'metrics', file: 'm.json', report: { overall: {}, scenarios: {} } };
    expect(seen(gateOf(check('accuracy\n    min: 0.5'), metrics))).toEqual({
      status: 'error',
      reasons: ['the candidate has no accuracy for overall'],
    });
    const short = gateOf(check('accuracy\n    min: 0'), failing(1), constantRun(40, 1), 20);
    expect(short.coverage?.reason).toBe(
      `the candidate answered 39 of the baseline's 40 instances (97.5%, the policy asks at least 100%); missing or failed: s/0; ${named(1, 1, 'timeout')}`,
    );
    // Enough coverage (39 of 40 where 97.5% is asked): its reason stays as it is.
    const covered = gateOf(`settings:\n  coverage: { min: 0.975 }\n${check('accuracy\n    min: 0')}`, failing(1), constantRun(40, 1), 20);
    expect(covered.coverage).toMatchObject({
      status: 'pass',
      reason: "the candidate answered 39 of the baseline's 40 instances (97.5%); missing or failed: s/0",
    });
  });
});

describe('what a gate result carries besides its checks', () => {
  const check = 'settings:\n  resamples: 40\nchecks:\n  - metric: accuracy\n    min: 0\n';
  // Two groups of 20: a right everywhere, b wrong everywhere.
  const grouped = recordsRun('g.jsonl', () =>
    Array.from(
      { length: 40 },
      (_, i) => ({ scenario: 's', id: String(i), correct: i < 20 ? 1 : 0, groups: { region: i < 20 ? 'a' : 'b' } }) as EvalRecord,
    ),
  );

  it("without a baseline: no baseline's metrics, no coverage", () => {
    const result = gateOf(check, grouped, undefined, 20);
    expect([result.hasBaseline, result.baselineMetrics, 'coverage' in result]).toEqual([false, null, false]);
    expect(result.candidateMetrics.overall.accuracy).toMatchObject({ value: 0.5, n: 40 });
  });

  it("with a records baseline: its point estimates under the policy's settings (min_group_size), and coverage", () => {
    const result = gateOf(check, grouped, grouped, 20);
    expect(result.hasBaseline).toBe(true);
    expect(result.baselineMetrics!.overall.accuracy).toEqual({ value: 0.5, ci: null, n: 40 });
    expect(result.baselineMetrics!.overall['worst_group_accuracy:region']).toMatchObject({ value: 0, ci: null });
    expect(result.coverage).toMatchObject({ status: 'pass', covered: 40 });
  });

  it("a check's scope keeps its resampled values: a lenient bound in scenario s is tested on them, p = 1/21", () => {
    const result = gateOf(
      'settings:\n  resamples: 40\n  bounds: lenient\nchecks:\n  - metric: accuracy\n    scenario: s\n    min: 1\n',
      constantRun(40, 0.75),
      undefined,
      20,
    );
    expect(result.checks[0].boundTest).toMatchObject({ method: 'bootstrap', p: 1 / 21, resamples: 20 });
  });

  it('with a metrics file for a baseline: its numbers, and no coverage (it names no instance)', () => {
    const metrics: RunInput = {
      kind: 'metrics',
      file: 'm.json',
      report: { overall: { accuracy: { value: 0.5, ci: null, n: 40 } }, scenarios: {} },
    };
    const result = gateOf(check, grouped, metrics, 20);
    expect([result.hasBaseline, result.baselineMetrics, 'coverage' in result]).toEqual([true, metrics.report, false]);
  });
});

describe('the built-in checks a gate adds', () => {
  const yaml = 'settings:\n  resamples: 40\nchecks:\n  - metric: accuracy\n    min: 0\n';
  /** `n` records of scenario s from id `from`, each with `fields`. */
  const records = (n: number, fields: (index: number) => Partial<EvalRecord> = () => ({}), from = 0) =>
    Array.from({ length: n }, (_, i) => ({ scenario: 's', id: String(from + i), correct: 1, ...fields(from + i) }) as EvalRecord);
  const runOfRecords = (list: EvalRecord[]): RunInput => recordsRun('r.jsonl', () => list);
  const failedCall = { correct: undefined, error: 'timeout' };
  const judged = (verdict: 'pass' | 'unknown') => () =>
    verdict === 'pass' ? { judge: { verdict } } : { correct: undefined, judge: { verdict, raw: '?', problem: 'not JSON' } };
  const untested = (what: string) => `${what} in either run on the 40 shared instances: nothing to test`;
  /** The built-in checks, in the order they are reported: metric, status, and the reason of a pass without a test, else "tested". */
  const builtins = (candidate: RunInput, baseline?: RunInput) =>
    gateOf(yaml, candidate, baseline, 20)
      .checks.filter((check) => check.builtin)
      .map((check) => [check.check.metric, check.status, check.reasons.find((reason) => reason.endsWith('nothing to test')) ?? 'tested']);
  // Tested on 40 instances: too few to see the default detect of 0.05, so inconclusive.
  const tested = (metric: string) => [metric, 'inconclusive', 'tested'];

  it.each([
    ['no baseline: none', runOfRecords(records(40)), undefined, []],
    [
      'a metrics file for a baseline: none',
      runOfRecords(records(40)),
      { kind: 'metrics', file: 'm.json', report: { overall: {}, scenarios: {} } },
      [],
    ],
    [
      'no failed call: a pass without a test',
      runOfRecords(records(40)),
      runOfRecords(records(40)),
      [['error_rate', 'pass', untested('no failed call')]],
    ],
    // A failed call on an instance the baseline lacks is outside the comparison: still nothing to test.
    [
      'a failed call off the shared instances',
      runOfRecords([...records(40), ...records(1, () => failedCall, 40)]),
      runOfRecords(records(40)),
      [['error_rate', 'pass', untested('no failed call')]],
    ],
    [
      'a failed call of the baseline',
      runOfRecords(records(40)),
      runOfRecords([...records(39), ...records(1, () => failedCall, 39)]),
      [tested('error_rate')],
    ],
    [
      'judged runs: the judge check too',
      runOfRecords(records(40, judged('pass'))),
      runOfRecords(records(40, judged('pass'))),
      [
        ['error_rate', 'pass', untested('no failed call')],
        ['judge_unknown_rate', 'pass', untested('no unknown verdict or failed judge call')],
      ],
    ],
    // The tested check joins the policy's checks; the passes without a test come after them.
    [
      'a judge that gave no verdict once, in the candidate',
      runOfRecords([...records(39, judged('pass')), ...records(1, judged('unknown'), 39)]),
      runOfRecords(records(40, judged('pass'))),
      [tested('judge_unknown_rate'), ['error_rate', 'pass', untested('no failed call')]],
    ],
    [
      'in the baseline',
      runOfRecords(records(40, judged('pass'))),
      runOfRecords([...records(39, judged('pass')), ...records(1, judged('unknown'), 39)]),
      [tested('judge_unknown_rate'), ['error_rate', 'pass', untested('no failed call')]],
    ],
  ] as const)('%s', (_, candidate, baseline, expected) => {
    expect(builtins(candidate as RunInput, baseline as RunInput | undefined)).toEqual(expected);
  });
});
