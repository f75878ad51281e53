import { describe, expect, it } from '@jest/globals';
import { judgeRegression, powerOf, type RegressionEvidence } from '../src/gate/regression.js';
import { SAMPLES_CANNOT_REACH, type Comparison } from '../src/gate/types.js';
import type { SamplesSplit } from '../src/metrics/samples-split.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { checkBounds, constantRun, gateOf, policyOf, recordsRun, resampled, seen } from './helpers/exact.js';
import { record } from './helpers/records.js';

/*
 * The gate's decisions where a one-character slip would flip them: every limit hit exactly, and the
 * p-values pinned. The runs score the same on every instance (helpers/exact.ts), so every resample
 * gives the same value and each p-value is worked out by hand: no resample on the wrong side gives
 * (0 + 1) / (B + 1), all of them (B + 1) / (B + 1) = 1. These run in a second, for mutation testing
 * too (npm run mutation).
 */

// 40 resamples pass the policy's validation; the tests run on 20 (helpers/exact.ts policyOf).
const B20 = 'settings:\n  resamples: 40\n';
const gate = (yaml: string, candidate: RunInput, baseline?: RunInput, resamples = 20) => gateOf(yaml, candidate, baseline, resamples);

describe('bounds hit exactly (a value of 0.75 on every resample, 20 resamples)', () => {
  const candidate = constantRun(40, 0.75);
  const check = (bounds: string, limits: string) => `${B20}  bounds: ${bounds}\nchecks:\n  - metric: accuracy\n    ${limits}\n`;

  it.each([
    ['point: a value at the min passes', 'point', 'min: 0.75', 'pass', []],
    ['point: a value at the max passes', 'point', 'max: 0.75', 'pass', []],
    ['point: a hair above the value fails', 'point', 'min: 0.7500001', 'fail', ['below the minimum 75.00001%']],
    ['point: a hair below the max fails', 'point', 'max: 0.7499999', 'fail', ['above the maximum 74.99999%']],
    ['lenient: a value at the min is not crossed', 'lenient', 'min: 0.75', 'pass', []],
    ['lenient: a value at the max is not crossed', 'lenient', 'max: 0.75', 'pass', []],
    // No resample reaches 1: p = 1/21 < 0.05.
    ['lenient: crossed on every resample', 'lenient', 'min: 1', 'fail', ['below the minimum 100% with confidence (p = 0.048)']],
    ['lenient: crossed on every resample (max)', 'lenient', 'max: 0.5', 'fail', ['above the maximum 50% with confidence (p = 0.048)']],
    // Every resample sits on the bound: none shows the value inside it, p = 21/21.
    [
      'strict: a value at the min is not shown above it',
      'strict',
      'min: 0.75',
      'fail',
      ['not shown to be at least 75% with confidence (p = 1.0)'],
    ],
    [
      'strict: a value at the max is not shown below it',
      'strict',
      'max: 0.75',
      'fail',
      ['not shown to be at most 75% with confidence (p = 1.0)'],
    ],
    ['strict: inside on every resample', 'strict', 'min: 0.5\n    max: 1', 'pass', []],
  ])('%s', (_, bounds, limits, status, reasons) => {
    const result = gate(check(bounds, limits), candidate);
    expect(seen(result)).toEqual({ status, reasons });
    // A zero-width interval straddles nothing.
    expect(result.checks[0].flags).toEqual([]);
  });

  it('pins the p-value of a claim at (k + 1) / (B + 1), and the side each bound counts', () => {
    const tests = gate(check('strict', 'min: 0.5\n    max: 1'), candidate).checks[0];
    expect(tests.boundTest).toEqual({ bound: 'min', claim: 'inside', p: 1 / 21, method: 'bootstrap', resamples: 20 });
    const lenient = gate(check('lenient', 'min: 1'), candidate).checks[0];
    expect(lenient.boundTest).toEqual({ bound: 'min', claim: 'crossed', p: 1 / 21, pAdjusted: 1 / 21, method: 'bootstrap', resamples: 20 });
  });

  it('19 resamples cannot reach 0.05 (1/20 is not below it): the bound errors; 20 can', () => {
    const strict = check('strict', 'min: 0.5');
    expect(seen(gate(strict, candidate, undefined, 19))).toEqual({
      status: 'error',
      reasons: ['bound not checked: 19 valid resamples cannot reach significance 0.05'],
    });
    expect(seen(gate(strict, candidate, undefined, 20))).toEqual({ status: 'pass', reasons: [] });
    // significance off judges the estimate, whatever the resamples.
    expect(seen(gate(strict.replace('bounds:', 'significance: off\n  bounds:'), candidate, undefined, 1)).status).toBe('pass');
  });
});

describe('bound p-values on hand-made resamples', () => {
  const lenient = 'settings:\n  bounds: lenient\nchecks:\n  - metric: accuracy\n    scenario: s\n    min: 0.75\n';
  const strict = 'settings:\n  bounds: strict\nchecks:\n  - metric: accuracy\n    scenario: s\n    min: 0.25\n';

  it.each([
    // 39 resamples, k of them at the bound (on the wrong side of the claim): p = (k + 1) / 40.
    ['lenient, p = 1/40', lenient, 0, 0.75, 'fail', ['below the minimum 75% with confidence (p = 0.025)']],
    ['lenient, p exactly at alpha (2/40)', lenient, 1, 0.75, 'pass', ['below the minimum 75%, but not with confidence (p = 0.050)']],
    ['lenient, p = 4/40', lenient, 3, 0.75, 'pass', ['below the minimum 75%, but not with confidence (p = 0.10)']],
    [
      'lenient, resamples above the bound count against',
      lenient,
      1,
      0.8,
      'pass',
      ['below the minimum 75%, but not with confidence (p = 0.050)'],
    ],
    ['strict, p = 1/40', strict, 0, 0.25, 'pass', []],
    ['strict, p exactly at alpha (2/40)', strict, 1, 0.25, 'fail', ['not shown to be at least 25% with confidence (p = 0.050)']],
    [
      'strict, resamples below the bound count against',
      strict,
      1,
      0.2,
      'fail',
      ['not shown to be at least 25% with confidence (p = 0.050)'],
    ],
  ])('%s', (_, yaml, against, other, status, reasons) => {
    const checks = checkBounds(yaml, { s: { value: 0.5, ci: [0.3, 0.7], samples: resampled(39, 0.5, against, other) } });
    expect(seen(checks)).toEqual({ status, reasons });
    expect(checks[0].boundTest!.p).toBe((against + 1) / 40);
  });

  it('corrects lenient bounds with Holm: each raw p = 2/41 passes alone, adjusted 4/41 it does not', () => {
    const yaml = (multiplicity: string) =>
      `settings:\n  bounds: lenient\n  multiplicity: ${multiplicity}\nchecks:\n` +
      ['s', 't'].map((scenario) => `  - metric: accuracy\n    scenario: ${scenario}\n    min: 0.75\n`).join('');
    const value = { value: 0.5, ci: [0.3, 0.7] as [number, number], samples: resampled(40, 0.5, 1, 0.75) };
    const holm = checkBounds(yaml('holm'), { s: value, t: value });
    for (const check of holm) {
      expect({ status: check.status, reasons: check.reasons }).toEqual({
        status: 'pass',
        reasons: ['below the minimum 75%, but not with confidence (p = 0.049, adjusted 0.098)'],
      });
      expect(check.boundTest).toMatchObject({ p: 2 / 41, pAdjusted: 4 / 41 });
    }
    expect(checkBounds(yaml('none'), { s: value, t: value }).map((check) => check.status)).toEqual(['fail', 'fail']);
  });

  it('two lenient bounds on 39 resamples: the smallest adjusted p, 2/40, cannot be below 0.05, so both error', () => {
    const yaml =
      'settings:\n  bounds: lenient\nchecks:\n' +
      ['s', 't'].map((scenario) => `  - metric: accuracy\n    scenario: ${scenario}\n    min: 0.75\n`).join('');
    const value = { value: 0.5, ci: [0.3, 0.7] as [number, number], samples: resampled(39, 0.5) };
    const reason = 'bound not checked: 39 valid resamples cannot reach significance 0.05 over 2 tests';
    expect(checkBounds(yaml, { s: value, t: value }).map(seen)).toEqual([
      { status: 'error', reasons: [reason] },
      { status: 'error', reasons: [reason] },
    ]);
    // 40 resamples can (2/41): both crossed with confidence.
    const forty = { ...value, samples: resampled(40, 0.5) };
    expect(checkBounds(yaml, { s: forty, t: forty }).map((check) => check.status)).toEqual(['fail', 'fail']);
  });

  it('the metrics file: a value on the bound has the normal p of 1/2; a zero-width interval has no test', () => {
    const at = checkBounds(strict.replace('0.25', '0.5'), { s: { value: 0.5, ci: [0.4, 0.6] } });
    expect(at[0].boundTest).toEqual({ bound: 'min', claim: 'inside', p: expect.closeTo(0.5, 7), method: 'normal' });
    const zero = { s: { value: 0.5, ci: [0.5, 0.5] as [number, number] } };
    // lenient without a test judges the estimate; strict without one fails.
    expect(seen(checkBounds(lenient, zero))).toEqual({ status: 'fail', reasons: ['below the minimum 75%'] });
    expect(seen(checkBounds(strict, zero))).toEqual({
      status: 'fail',
      reasons: ['a strict min needs an interval: the value 50% has none'],
    });
  });

  it('the normal p-value: Phi(-distance / se), se = (high - low) / (2 z(0.975)), on either side', () => {
    // se = 0.2 / 3.92 = 0.05102; a distance of 0.05 is 0.98 se: Phi(-0.98) = 0.16355 (normalCdf to 1e-8).
    const interval = { s: { value: 0.5, ci: [0.4, 0.6] as [number, number] } };
    const inside = checkBounds(strict.replace('0.25', '0.45'), interval)[0];
    expect(inside.boundTest).toEqual({ bound: 'min', claim: 'inside', p: expect.closeTo(0.16354750384557, 7), method: 'normal' });
    const crossed = checkBounds(lenient.replace('0.75', '0.55'), interval)[0];
    expect(crossed.boundTest).toEqual({
      bound: 'min',
      claim: 'crossed',
      p: expect.closeTo(0.16354750384557, 7),
      pAdjusted: expect.closeTo(0.16354750384557, 7),
      method: 'normal',
    });
    // No resampled values (an empty set of them): the interval's normal p-value.
    const none = checkBounds(strict.replace('0.25', '0.45'), { s: { ...interval.s, samples: new Float64Array(0) } })[0];
    expect(none.boundTest!.method).toBe('normal');
  });

  it('each bound is judged on its own test: a min shown, a max not', () => {
    const both = 'settings:\n  bounds: strict\nchecks:\n  - metric: accuracy\n    scenario: s\n    min: 0.25\n    max: 0.75\n';
    // 39 resamples, one of them at 0.75: p(at most 0.75) = 2/40, p(at least 0.25) = 1/40.
    const checks = checkBounds(both, { s: { value: 0.5, ci: [0.4, 0.6], samples: resampled(39, 0.5, 1, 0.75) } });
    expect(seen(checks)).toEqual({ status: 'fail', reasons: ['not shown to be at most 75% with confidence (p = 0.050)'] });
    expect(checks[0].boundTest).toMatchObject({ bound: 'min', p: 1 / 40 });
  });

  it.each([
    ['inside the interval', 0.5, ['borderline']],
    ['at its low end', 0.4, []],
    ['at its high end', 0.6, []],
    ['of two, one inside', '0.45\n    max: 0.7', ['borderline']],
  ])('flags a bound %s as borderline only strictly inside', (_, min, flags) => {
    const checks = checkBounds(`checks:\n  - metric: accuracy\n    scenario: s\n    min: ${min}\n`, { s: { value: 0.5, ci: [0.4, 0.6] } });
    expect(checks[0].flags).toEqual(flags);
  });
});

describe('regression budgets hit exactly (a worsening of 0.25 on every resample, 20 resamples)', () => {
  const baseline = constantRun(40, 1);
  const candidate = constantRun(40, 0.75);
  // detect 0.9: 40 instances see it, so a check within its budget passes rather than being inconclusive.
  const check = (settings: string, lines: string) => `${B20}${settings}checks:\n  - metric: accuracy\n    ${lines}\n`;

  it.each([
    ['regression: at the budget is within it', '', 'max_regression: 0.25\n    detect: 0.9', 'pass', []],
    ['regression: a relative budget at it too (25% of 1)', '', 'max_regression: "25%"\n    detect: 0.9', 'pass', []],
    // No resample is within 0.2: p = 1/21.
    [
      'regression: over the budget on every resample',
      '',
      'max_regression: 0.2\n    detect: 0.9',
      'fail',
      ['worse than the baseline by 25 pts, over the budget 20 pts'],
    ],
    [
      'regression: budget 0, by pWorse',
      '',
      'max_regression: 0\n    detect: 0.9',
      'fail',
      ['worse than the baseline by 25 pts, over the budget 0 pts'],
    ],
    ['regression, significance off: at the budget passes', '  significance: off\n', 'max_regression: 0.25\n    detect: 0.9', 'pass', []],
    [
      'regression, significance off: a hair over fails',
      '  significance: off\n',
      'max_regression: 0.2499\n    detect: 0.9',
      'fail',
      ['worse than the baseline by 25 pts, over the budget 25 pts'],
    ],
    // Every resample reaches the budget: p_NI = 21/21.
    [
      'non-inferiority: at the budget is not within it',
      '  test: non-inferiority\n',
      'max_regression: 0.25',
      'fail',
      ['not shown to be within the budget 25 pts of the baseline (non-inferiority p = 1.0, worsening 25 pts)'],
    ],
    ['non-inferiority: a hair under the budget on every resample', '  test: non-inferiority\n', 'max_regression: 0.2501', 'pass', []],
    [
      'non-inferiority, significance off: at the budget fails',
      '  test: non-inferiority\n  significance: off\n',
      'max_regression: 0.25',
      'fail',
      ['worse than the baseline by 25 pts, at or over the budget 25 pts'],
    ],
    [
      'non-inferiority, significance off: a hair over passes',
      '  test: non-inferiority\n  significance: off\n',
      'max_regression: 0.2501',
      'pass',
      [],
    ],
    // detect stated in another unit: 25% of 1 is the budget itself, which nothing could see.
    [
      'detect equal to the budget',
      '',
      'max_regression: 0.25\n    detect: "25%"',
      'error',
      ['detect 25% is 25 pts on this baseline, not above the budget 25 pts'],
    ],
  ])('%s', (_, settings, lines, status, reasons) => {
    expect(seen(gate(check(settings, lines), candidate, baseline))).toEqual({ status, reasons });
  });

  it('pins the p-values: (0 + 1) / (B + 1) over the budget, 1 at it; the same for pWorse and non-inferiority', () => {
    const comparison = (lines: string, settings = '') => gate(check(settings, lines), candidate, baseline).checks[0].comparison!;
    expect(comparison('max_regression: 0.2\n    detect: 0.9')).toMatchObject({
      pOverBudget: 1 / 21,
      pOverBudgetAdjusted: 1 / 21,
      resamples: 20,
    });
    expect(comparison('max_regression: 0.25\n    detect: 0.9')).toMatchObject({ pOverBudget: 1, pWorse: 1 / 21, pBetter: 1 });
    expect(comparison('max_regression: 0\n    detect: 0.9')).toMatchObject({ pWorse: 1 / 21, pWorseAdjusted: 1 / 21 });
    expect(comparison('max_regression: 0\n    detect: 0.9').pOverBudget).toBeUndefined();
    expect(comparison('max_regression: 0.2501', '  test: non-inferiority\n').pNotInferior).toBe(1 / 21);
    // Significance off judges the estimate: no p-value is computed for it.
    const off = comparison('max_regression: 0.2\n    detect: 0.9', '  significance: off\n');
    expect([off.pOverBudget, off.pNotInferior]).toEqual([undefined, undefined]);
    expect(comparison('max_regression: 0.2', '  test: non-inferiority\n  significance: off\n').pNotInferior).toBeUndefined();
  });

  it('19 resamples cannot reach 0.05: the budget errors rather than passing; 20 can', () => {
    const yaml = check('', 'max_regression: 0.2\n    detect: 0.9');
    expect(seen(gate(yaml, candidate, baseline, 19))).toEqual({
      status: 'error',
      reasons: ['regression not checked: 19 valid resamples cannot reach significance 0.05'],
    });
    expect(seen(gate(yaml, candidate, baseline, 20)).status).toBe('fail');
  });

  it('two checks on one metric and scope are one test: the smaller p stands for both', () => {
    const yaml = `${B20}checks:\n  - metric: accuracy\n    max_regression: 0.2\n    detect: 0.9\n  - metric: accuracy\n    max_regression: 0.3\n    detect: 0.9\n`;
    const [over, within] = gate(yaml, candidate, baseline).checks;
    expect(over.comparison).toMatchObject({ pOverBudget: 1 / 21, pOverBudgetAdjusted: 1 / 21 });
    expect(within.comparison).toMatchObject({ pOverBudget: 1, pOverBudgetAdjusted: 1 / 21 });
    expect([over.status, within.status]).toEqual(['fail', 'pass']);
  });
});

describe('trade-offs: an improvement of exactly 0.25 on every resample', () => {
  // Scenario t improves by 0.25 (p = 1/21); scenario s worsens by 0.25, over its own budget of 0.1.
  const candidate = constantRun(40, { s: 0.75, t: 1 }, ['s', 't']);
  const baseline = constantRun(40, { s: 1, t: 0.75 }, ['s', 't']);
  const policy = (needed: number) =>
    `${B20}checks:\n  - metric: accuracy\n    scenario: s\n    max_regression: 0.1\n    detect: 0.9\ntradeoffs:\n  - name: t\n` +
    `    allow: [{ metric: accuracy, scenario: s, max_regression: 0.3 }]\n    when: [{ metric: accuracy, scenario: t, min_improvement: ${needed} }]\n`;

  it.each([
    [
      'an improvement exactly at min_improvement applies',
      0.25,
      true,
      'pass',
      'accuracy (t) improved by 25 pts (needs an improvement of 25 pts, p = 0.048)',
    ],
    [
      'a hair short does not',
      0.2501,
      false,
      'fail',
      'accuracy (t) improved by 25 pts (needs an improvement of 25 pts, p = 0.048): not enough',
    ],
  ])('%s', (_, needed, applied, status, reason) => {
    const result = gate(policy(needed), candidate, baseline);
    expect(result.tradeoffs).toEqual([{ name: 't', applied, reasons: [reason] }]);
    expect(result.checks[0].status).toBe(status);
    expect(result.checks[0].budget).toEqual(applied ? { value: 0.3, from: 'trade-off "t"' } : { value: 0.1, from: 'the check' });
  });

  it("an allowance equal to the check's budget leaves the check's in effect (trade-offs only relax)", () => {
    const result = gate(policy(0.25).replace('max_regression: 0.3', 'max_regression: 0.1'), candidate, baseline);
    expect(result.tradeoffs[0].applied).toBe(true);
    expect(result.checks[0].budget).toEqual({ value: 0.1, from: 'the check' });
  });

  it('an improvement whose p is exactly alpha (19 resamples: 1/20) is not statistically real', () => {
    const result = gate(policy(0.25), candidate, baseline, 19);
    expect(result.tradeoffs[0]).toEqual({
      name: 't',
      applied: false,
      reasons: ['accuracy (t) improved by 25 pts (needs an improvement of 25 pts, p = 0.050): not statistically real'],
    });
  });
});

describe('judging a regression budget at alpha', () => {
  const policy = policyOf('checks:\n  - metric: accuracy\n    max_regression: 0.1\n');
  const evidence = (comparison: Partial<Comparison>): RegressionEvidence => ({
    test: 'regression',
    stated: 0.1,
    budget: { value: 0.1, from: 'the check' },
    comparison: { method: 'paired', candidate: 0.5, baseline: 0.75, change: -0.25, worsening: 0.25, ...comparison },
  });

  it.each([
    ['pOverBudget below alpha blocks', { pOverBudget: 0.049 }, true],
    ['pOverBudget exactly at alpha does not', { pOverBudget: 0.05 }, false],
    ['the adjusted p decides, not the raw one', { pOverBudget: 0.01, pOverBudgetAdjusted: 0.05 }, false],
    ['pWorse at budget 0 exactly at alpha does not', { pWorse: 0.05 }, false],
    ['its adjusted p decides too', { pWorse: 0.01, pWorseAdjusted: 0.06 }, false],
  ])('%s', (_, p, failed) => {
    expect(judgeRegression(evidence(p), policy, 'accuracy').failed).toBe(failed);
  });
});

describe('judging a regression budget on point estimates', () => {
  const evidence = (test: 'regression' | 'non-inferiority', method: 'paired' | 'summary', worsening: number): RegressionEvidence => ({
    test,
    stated: 0.25,
    budget: { value: 0.25, from: 'the check' },
    comparison: { method, candidate: 0.5, baseline: 0.5 + worsening, change: -worsening, worsening },
  });
  const on = policyOf('checks:\n  - metric: accuracy\n    max_regression: 0.25\n');
  const off = policyOf('settings:\n  significance: off\nchecks:\n  - metric: accuracy\n    max_regression: 0.25\n');

  it.each([
    // A summary comparison (a metrics file) has no p-value: the estimate is judged, whatever the significance.
    ['regression, a summary at the budget', 'regression', 'summary', 0.25, on, false],
    ['regression, a summary over it', 'regression', 'summary', 0.26, on, true],
    ['regression, paired without a p-value, significance off', 'regression', 'paired', 0.26, off, true],
    ['non-inferiority, a summary at the budget', 'non-inferiority', 'summary', 0.25, on, true],
    ['non-inferiority, a summary under it', 'non-inferiority', 'summary', 0.24, on, false],
    ['non-inferiority, paired without a p-value', 'non-inferiority', 'paired', 0.25, on, true],
  ] as const)('%s: failed %s', (_, test, method, worsening, policy, failed) => {
    expect(judgeRegression(evidence(test, method, worsening), policy, 'accuracy').failed).toBe(failed);
  });
});

describe('the power of a regression check', () => {
  const check = policyOf('checks:\n  - metric: accuracy\n    max_regression: 0.02\n    detect: 0.1\n').checks[0];
  const noDetect = policyOf('checks:\n  - metric: accuracy\n    max_regression: 0.02\n').checks[0];
  const evidence = (comparison: Partial<Comparison>, test: 'regression' | 'non-inferiority' = 'regression'): RegressionEvidence => ({
    test,
    stated: 0.02,
    budget: { value: 0.02, from: 'the check' },
    comparison: { method: 'paired', candidate: 0.8, baseline: 0.8, change: 0, worsening: 0, shared: 100, ...comparison },
  });

  it.each([
    // sigma = max(0.02, sqrt(0.1 x 0.9 / 100)) = 0.03: MDE80 = 0.02 + 2.486 x 0.03 = 0.0946 < 0.1; plan for
    // 0.85 x 0.08 / 2.486 = 0.02735: 100 (0.03 / 0.02735)^2 = 120.3 instances, rounded up.
    [
      'sees its detect',
      check,
      { sd: 0.02 },
      { mde: expect.closeTo(0.0945942458157, 9), detect: 0.1, underpowered: false, detectFrom: 'check', instancesNeeded: 121 },
    ],
    [
      'no spread to plan with (NaN)',
      check,
      { sd: NaN },
      { mde: null, detect: 0.1, underpowered: true, detectFrom: 'check', instancesNeeded: null },
    ],
    [
      'a summary comparison with a detect',
      check,
      { method: 'summary', shared: undefined },
      { mde: null, detect: 0.1, underpowered: true, detectFrom: 'check', instancesNeeded: null },
    ],
    [
      'a summary comparison without one: nothing to see',
      noDetect,
      { method: 'summary', shared: undefined },
      { mde: null, detect: null, underpowered: false },
    ],
    // The default detect max(3 x 0.02, 0.05) = 0.06; sigma = sqrt(0.06 x 0.94 / 100) = 0.02375: MDE80 0.0791.
    [
      'the default detect',
      noDetect,
      { sd: 0 },
      {
        mde: expect.closeTo(0.0790505061694, 9),
        detect: expect.closeTo(0.06, 12),
        underpowered: true,
        detectFrom: 'default',
        instancesNeeded: expect.any(Number),
      },
    ],
  ] as const)('%s', (_, stated, comparison, power) => {
    expect(powerOf(stated, evidence(comparison), 0.05, 20)).toEqual(power);
  });

  it('has none for non-inferiority, nor without a comparison', () => {
    expect(powerOf(check, evidence({ sd: 0.02 }, 'non-inferiority'), 0.05, 20)).toBeUndefined();
    expect(powerOf(check, { test: 'regression', early: { failed: false, reasons: [] } }, 0.05, 20)).toBeUndefined();
  });

  // sigma 0.05 on 400 instances: MDE80 = 0.02 + 2.486 x 0.05 = 0.144 > 0.1. Plan for sigma_d = 0.85 x 0.08 /
  // 2.486 = 0.02735: 400 (0.05 / 0.02735)^2 = 1337.06 instances, rounded up to 1338.
  const underpowered = evidence({ sd: 0.05, shared: 400 });
  const split = (share: number): SamplesSplit => ({ samples: 2, split: { between: 0, within: 0, samples: 2, share, units: 400 } });

  it.each([
    // room = (0.02735 / 0.05)^2 - (1 - 0.9) = 0.1992; K' = ceil(0.9 x 2 / 0.1992) = ceil(9.04) = 10.
    ['the samples per example that reach detect', split(0.9), { samplesNeeded: 10 }],
    // (1 - 0.6) 0.05^2 is above 0.02735^2: no number of samples reaches it.
    ['only more instances', split(0.6), { samplesNeeded: null, samplesNote: SAMPLES_CANNOT_REACH }],
    [
      'no split: its reason',
      { samples: 1.5, note: 'the baseline has one sample per example' },
      { samplesNeeded: null, samplesNote: 'the baseline has one sample per example' },
    ],
  ] as const)('an underpowered check sizes %s, as plan does', (_, found, samples) => {
    expect(powerOf(check, underpowered, 0.05, 20, () => found)).toEqual({
      mde: expect.closeTo(0.144323743026, 9),
      detect: 0.1,
      underpowered: true,
      detectFrom: 'check',
      instancesNeeded: 1338,
      ...samples,
    });
  });

  it('splits the samples only for an underpowered check, and never without runs to split', () => {
    let asked = 0;
    const counted = () => (asked++, split(0.9));
    expect(powerOf(check, evidence({ sd: 0.02 }), 0.05, 20, counted)).not.toHaveProperty('samplesNeeded');
    expect(asked).toBe(0);
    expect(powerOf(check, evidence({ sd: NaN }), 0.05, 20, counted)).not.toHaveProperty('samplesNeeded'); // no instances estimate
    expect(asked).toBe(0);
    expect(powerOf(check, underpowered, 0.05, 20, () => undefined)).not.toHaveProperty('samplesNeeded');
    expect(powerOf(check, underpowered, 0.05, 20, counted)).toMatchObject({ samplesNeeded: 10 });
    expect(asked).toBe(1);
    // On 100 instances a worsening of 0.1 in 0/1 scores has its own spread sqrt(0.1 x 0.9 / 100) = 0.03, over
    // 0.02735 whatever the samples: only more instances.
    expect(powerOf(check, evidence({ sd: 0.05 }), 0.05, 20, counted)).toMatchObject({
      samplesNeeded: null,
      samplesNote: SAMPLES_CANNOT_REACH,
    });
  });
});

describe('policy semantics', () => {
  const metricsFile = (value: number): RunInput => ({
    kind: 'metrics',
    file: 'm.json',
    report: { overall: { log_likelihood: { value, ci: null, n: 100 } }, scenarios: {} },
  });

  it.each([
    // 12.5% of |-2| is 0.25: a worsening from -2 to -2.25 is at the budget, not over a negative one.
    ['12.5%', 'pass', []],
    ['10%', 'fail', ['worse than the baseline by 0.25, over the budget 0.2']],
  ])('a percentage budget %s on a negative baseline is a share of its size', (budget, status, reasons) => {
    const yaml = `checks:\n  - metric: log_likelihood\n    direction: higher\n    max_regression: "${budget}"\n`;
    const result = gateOf(yaml, metricsFile(-2.25), metricsFile(-2));
    expect(seen(result)).toEqual({ status, reasons });
    expect(result.checks[0].budget!.value).toBeGreaterThan(0);
  });

  // Identical runs of 40 instances cannot see a worsening of 0.03: the check is inconclusive.
  const same = constantRun(40, 0.75);
  it.each([
    ['inconclusive: block', 'block', 'fail'],
    ['inconclusive: block', 'warn', 'warn'],
    ['power: block', 'block', 'fail'],
    ['power: block', 'warn', 'warn'],
    ['inconclusive: warn', 'block', 'warn'],
  ])('%s on a %s check: verdict %s', (setting, severity, verdict) => {
    const yaml = `settings:\n  ${setting}\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n    detect: 0.03\n    severity: ${severity}\n`;
    const result = gate(yaml, same, same);
    expect(result.checks[0].status).toBe('inconclusive');
    expect({ verdict: result.verdict, outcome: result.outcome }).toEqual({ verdict, outcome: 'inconclusive' });
  });
});

describe('point bounds on a biased metric judge its corrected estimate', () => {
  // One bin: 100 records at confidence 0.7, 60 right: ece 0.1; Kumar et al.'s estimate 0.099256
  // (gate-bounds21.test.ts works it by hand).
  const calibration: RunInput = recordsRun('c.jsonl', () =>
    Array.from({ length: 100 }, (_, i) => record({ id: String(i), confidence: 0.7, correct: i < 60 ? 1 : 0 })),
  );
  // Two groups of 20, one right everywhere, one wrong everywhere: the worst group is 0 on every resample
  // that draws both, so its bias-corrected estimate 2 x 0 - mean(resamples) is 0 too.
  const groups: RunInput = recordsRun('g.jsonl', () =>
    Array.from({ length: 40 }, (_, i) => record({ id: String(i), correct: i < 20 ? 1 : 0, groups: { region: i < 20 ? 'a' : 'b' } })),
  );

  it.each([
    ['ece under its max', calibration, 'ece\n    max: 0.0995', 'pass', []],
    ['ece over its max', calibration, 'ece\n    max: 0.099', 'fail', ['above the maximum 9.9% (the debiased estimate 9.926%)']],
    ['ece over a min', calibration, 'ece\n    min: 0.0993', 'fail', ['below the minimum 9.93% (the debiased estimate 9.926%)']],
    ['a worst group at its max', groups, 'worst_group_accuracy:region\n    max: 0', 'pass', ['groups of region (records): a 20, b 20']],
    ['a worst group at its min', groups, 'worst_group_accuracy:region\n    min: 0', 'pass', ['groups of region (records): a 20, b 20']],
    [
      'a worst group under its min',
      groups,
      'worst_group_accuracy:region\n    min: 0.0001',
      'fail',
      ['below the minimum 0.01% (the bias-corrected estimate 0%)', 'groups of region (records): a 20, b 20'],
    ],
  ])('%s', (_, run, limits, status, reasons) => {
    const result = gate(`${B20}checks:\n  - metric: ${limits}\n`, run);
    expect(seen(result)).toEqual({ status, reasons });
  });
});

describe('lenient bounds on groups that never vary (each group right everywhere or wrong everywhere)', () => {
  // No group strays on any resample (spread 0): a worst group or a gap beyond its limit is beyond it on
  // every resample, shown with the smallest p the resamples give, 1 / (B + 1); on the limit, not shown.
  const groups: RunInput = recordsRun('g.jsonl', () =>
    Array.from({ length: 40 }, (_, i) => record({ id: String(i), correct: i < 20 ? 1 : 0, groups: { region: i < 20 ? 'a' : 'b' } })),
  );
  it.each([
    [
      'a worst group of 0 under a min of 50%',
      'worst_group_accuracy:region\n    min: 0.5',
      'fail',
      'below the minimum 50% with confidence (p = 0.048)',
    ],
    ['a worst group of 0 at a min of 0', 'worst_group_accuracy:region\n    min: 0', 'pass', undefined],
    [
      'a gap of 100% over a max of 50%',
      'group_accuracy_gap:region\n    max: 0.5',
      'fail',
      'above the maximum 50% with confidence (p = 0.048)',
    ],
    ['a gap of 100% at a max of 100%', 'group_accuracy_gap:region\n    max: 1', 'pass', undefined],
  ])('%s', (_, limits, status, reason) => {
    const [check] = gate(`${B20}  bounds: lenient\nchecks:\n  - metric: ${limits}\n`, groups).checks;
    expect(check.status).toBe(status);
    expect(check.reasons).toEqual([...(reason ? [reason] : []), 'groups of region (records): a 20, b 20']);
    expect(check.boundTest?.p).toBe(status === 'fail' ? 1 / 21 : 1);
  });
});

describe('strict bounds on a biased metric: what they are judged on', () => {
  // Golden values (20 resamples, seed 1): the components' tests (bin deviations for ece, max-t for a
  // worst group and a gap), the interval of their one-sided bounds at 2.5% each within the metric's
  // range, and the corrected estimate. Group a is right 15 of 20, group b 5 of 20: worst 0.25, gap 0.5.
  const calibration: RunInput = recordsRun('c.jsonl', () =>
    Array.from({ length: 100 }, (_, i) => record({ id: String(i), confidence: i % 2 ? 0.7 : 0.9, correct: i < 60 ? 1 : 0 })),
  );
  const groups: RunInput = recordsRun('g.jsonl', () =>
    Array.from({ length: 40 }, (_, i) =>
      record({ id: String(i), correct: i % 4 === 0 ? 0 : i < 20 || i % 3 === 0 ? 1 : 0, groups: { region: i < 20 ? 'a' : 'b' } }),
    ),
  );

  it.each([
    [
      'ece',
      calibration,
      1.844413819990519e-45,
      'debiased-calibration-error',
      0.1976925715281562,
      [0.0722499999999999, 0.29728901455018997],
      'bin-deviations',
    ],
    [
      'worst_group_accuracy:region',
      groups,
      1 / 21,
      'bootstrap-bias-corrected',
      0.23593888400041652,
      [0.02083650142354207, 0.5164357925612904],
      'max-t',
    ],
    [
      'group_accuracy_gap:region',
      groups,
      0.008341776739440275,
      'bootstrap-bias-corrected',
      0.5454299391732477,
      [0.15654219948849124, 0.8275329511792182],
      'max-t',
    ],
  ] as const)('%s', (metric, run, p, estimator, estimate, [low, high], method) => {
    const [check] = gate(`settings:\n  resamples: 40\n  bounds: strict\nchecks:\n  - metric: ${metric}\n    max: 0.9\n`, run).checks;
    expect(check.status).toBe('pass');
    expect(check.boundTest).toMatchObject({ bound: 'max', claim: 'inside', method: 'bootstrap', resamples: 20 });
    expect(check.boundTest!.p).toBeCloseTo(p, 15);
    const judged = check.boundJudgedOn!;
    expect(judged).toMatchObject({ estimator, method, resamples: 20 });
    expect(judged.estimate).toBeCloseTo(estimate, 12);
    expect(judged.interval![0]).toBeCloseTo(low, 12);
    expect(judged.interval![1]).toBeCloseTo(high, 12);
  });
});

describe("a check's status from its findings", () => {
  const candidate = constantRun(40, 0.75);
  const check = (lines: string) => `${B20}checks:\n  - metric: accuracy\n    ${lines}\n`;

  it.each([
    ['turned off', 'min: 0.9\n    severity: off', undefined, 'off', ['turned off']],
    ['a metric the candidate lacks', 'scenario: nowhere\n    min: 0.5', undefined, 'error', ['the candidate has no accuracy for nowhere']],
    ['a warn check that fails warns', 'min: 0.9\n    severity: warn', undefined, 'warn', ['below the minimum 90%']],
    ['a budget without a baseline is skipped', 'max_regression: 0.1', undefined, 'skipped', ['regression not checked: no baseline']],
    [
      'a failed bound beats a skipped budget',
      'min: 0.9\n    max_regression: 0.1',
      undefined,
      'fail',
      ['below the minimum 90%', 'regression not checked: no baseline'],
    ],
    [
      'an error beats a failed bound',
      'min: 0.9\n    max_regression: 0.25\n    detect: "25%"',
      constantRun(40, 1),
      'error',
      ['below the minimum 90%', 'detect 25% is 25 pts on this baseline, not above the budget 25 pts'],
    ],
  ])('%s', (_, lines, baseline, status, reasons) => {
    expect(seen(gate(check(lines), candidate, baseline))).toEqual({ status, reasons });
  });

  it('an underpowered pass is inconclusive, saying what it must detect (the default: max(3 b, 0.05)), what it sees and what would settle it', () => {
    const result = gate(check('max_regression: 0.02'), candidate, candidate);
    expect(result.checks[0]).toMatchObject({ status: 'inconclusive', flags: ['underpowered'] });
    // MDE80 = 0.02 + 2.486 sqrt(0.06 x 0.94 / 40) = 0.113 (the floor of 0/1 scores: identical runs show
    // no spread); 40 (0.0376 / (0.85 x 0.04 / 2.486))^2 = 301.6 instances, rounded up.
    expect(result.checks[0].reasons).toEqual([
      'inconclusive: must detect 6 pts (the default detect), it sees a worsening of 11.3 pts at 80% power; about 302 shared instances would settle it (evalgate plan)',
    ]);
  });
});

describe('a comparison that cannot be made', () => {
  const candidate = constantRun(40, 0.75);
  const elsewhere: RunInput = recordsRun('b.jsonl', () => Array.from({ length: 40 }, (_, i) => record({ id: `other-${i}`, correct: 1 })));

  it.each([
    [
      '19 shared instances, one fewer than the minimum',
      constantRun(19, 1),
      'error',
      ['regression not checked: 19 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)'],
    ],
    [
      'no instance shared',
      elsewhere,
      'error',
      ['regression not checked: the candidate shares no instance (scenario and id) with the baseline'],
    ],
  ])('%s', (_, baseline, status, reasons) => {
    expect(seen(gate(`${B20}checks:\n  - metric: accuracy\n    max_regression: 0.1\n    detect: 0.9\n`, candidate, baseline))).toEqual({
      status,
      reasons,
    });
  });

  it('a baseline that did not record the metric: inconclusive, the candidate judged on its bounds only', () => {
    const confident: RunInput = recordsRun('c.jsonl', () =>
      Array.from({ length: 40 }, (_, i) => record({ id: String(i), correct: 1, confidence: 0.9 })),
    );
    expect(seen(gate(`${B20}checks:\n  - metric: ece\n    max_regression: 0.1\n    detect: 0.9\n`, confident, constantRun(40, 1)))).toEqual(
      {
        status: 'inconclusive',
        reasons: ['regression inconclusive: the baseline has no ece on the 40 instances the runs share (a metric it did not record)'],
      },
    );
  });

  it('20 shared instances, exactly the minimum, are compared', () => {
    const result = gate(
      `${B20}checks:\n  - metric: accuracy\n    max_regression: 0.3\n    detect: 0.9\n`,
      constantRun(20, 0.75),
      constantRun(20, 1),
    );
    expect(result.checks[0].comparison).toMatchObject({ method: 'paired', shared: 20, worsening: 0.25 });
  });
});

describe('the built-in failure-rate check', () => {
  const baseline = constantRun(40, 1);
  const yaml = `${B20}checks:\n  - metric: accuracy\n    min: 0\n`;

  it('passes without a test when neither run failed a call', () => {
    const builtin = gate(yaml, constantRun(40, 0.75), baseline).checks[1];
    expect(builtin).toMatchObject({
      status: 'pass',
      builtin: true,
      reasons: ['no failed call in either run on the 40 shared instances: nothing to test'],
      budget: { value: 0, from: 'the check' },
    });
  });

  it('tests a candidate whose every call failed: a worsening of 1 on every resample, p = 1/21', () => {
    const failing: RunInput = recordsRun('f.jsonl', () =>
      Array.from({ length: 40 }, (_, i) => ({ scenario: 's', id: String(i), error: 'timeout' }) as EvalRecord),
    );
    const builtin = gate(yaml, failing, baseline).checks.find((check) => check.builtin)!;
    expect(seen([builtin])).toEqual({
      status: 'fail',
      reasons: [
        'worse than the baseline by 100 pts, over the budget 0 pts',
        "the most common error of the candidate's 40 failed calls (40 of them): timeout",
      ],
    });
    expect(builtin.comparison).toMatchObject({ pWorse: 1 / 21, worsening: 1 });
  });

  it('says all of its trivial pass: the comparison, the test and no flag', () => {
    const builtin = gate(yaml, constantRun(40, 0.75), baseline).checks[1];
    expect(builtin).toMatchObject({
      check: { metric: 'error_rate' },
      test: 'regression',
      flags: [],
      candidate: { value: 0 },
      comparison: { method: 'paired', candidate: 0, baseline: 0, change: 0, worsening: 0, sd: 0, shared: 40, ci: [0, 0] },
    });
  });

  it('passes without a test when the failed calls are on instances the runs do not share', () => {
    // The candidate failed on 4 instances the baseline does not have: nothing failed on the 40 shared.
    const records = [
      ...Array.from({ length: 40 }, (_, i) => ({ scenario: 's', id: String(i), correct: 1 }) as EvalRecord),
      ...Array.from({ length: 4 }, (_, i) => ({ scenario: 's', id: `x${i}`, error: 'timeout' }) as EvalRecord),
    ];
    const builtin = gate(
      yaml,
      recordsRun('c.jsonl', () => records),
      baseline,
    ).checks[1];
    expect(builtin).toMatchObject({ status: 'pass', builtin: true, comparison: { candidate: 0, baseline: 0, shared: 40 } });
    expect(builtin.reasons).toEqual(['no failed call in either run on the 40 shared instances: nothing to test']);
  });

  it('errors, as any regression check, when the runs share no instance', () => {
    const other = constantRun(40, 1);
    const apart: RunInput = recordsRun('o.jsonl', () =>
      Array.from({ length: 40 }, (_, i) => ({ scenario: 's', id: `o${i}`, correct: 1 }) as EvalRecord),
    );
    const builtin = gate(yaml, apart, other).checks.find((check) => check.check.metric === 'error_rate')!;
    expect(builtin).toMatchObject({ status: 'error', builtin: true });
  });

  it.each([
    ['the candidate', true, false],
    ['the baseline', false, true],
  ])('adds the judge_unknown_rate check when %s was judged', (_, candidateJudged, baselineJudged) => {
    const judged = (on: boolean) =>
      recordsRun('j.jsonl', () =>
        Array.from(
          { length: 40 },
          (_, i) => ({ scenario: 's', id: String(i), correct: 1, ...(on ? { judge: { verdict: 'pass' } } : {}) }) as EvalRecord,
        ),
      );
    const checks = gate(yaml, judged(candidateJudged), judged(baselineJudged)).checks;
    expect(checks.map((check) => [check.check.metric, check.status, check.builtin ?? false])).toEqual([
      ['accuracy', 'pass', false],
      ['error_rate', 'pass', true],
      ['judge_unknown_rate', 'pass', true],
    ]);
  });

  it('is left out when the policy checks error_rate itself', () => {
    const own = gate(`${yaml}  - metric: error_rate\n    max: 1\n`, constantRun(40, 0.75), baseline);
    expect(own.checks.map((check) => check.check.metric)).toEqual(['accuracy', 'error_rate']);
  });
});

describe("the families' corrections, check by check", () => {
  // Each lenient bound crossed on all but one of 40 resamples: p = 2/41 alone, 4/41 in a family of two.
  const value = { value: 0.5, ci: [0.3, 0.7] as [number, number], samples: resampled(40, 0.5, 1, 0.75) };
  const lenient = (checks: string) => `settings:\n  bounds: lenient\nchecks:\n${checks}`;
  const bound = (scenario: string, extra = '') => `  - metric: accuracy\n    scenario: ${scenario}\n    min: 0.75\n${extra}`;

  it.each([
    [
      'a blocking and a warn check: two families of one',
      bound('s') + bound('t', '    severity: warn\n'),
      ['fail', 'warn'],
      [2 / 41, 2 / 41],
    ],
    [
      'two warn checks: one family of two',
      bound('s', '    severity: warn\n') + bound('t', '    severity: warn\n'),
      ['pass', 'pass'],
      [4 / 41, 4 / 41],
    ],
    ['a check turned off joins no family', bound('s') + bound('t', '    severity: off\n'), ['fail', 'off'], [2 / 41, undefined]],
  ])('%s', (_, checks, statuses, adjusted) => {
    const results = checkBounds(lenient(checks), { s: value, t: value });
    expect(results.map((check) => check.status)).toEqual(statuses);
    expect(results.map((check) => check.boundTest?.pAdjusted)).toEqual(adjusted);
  });

  it('two max bounds of one metric are two tests, each keyed by its own limit', () => {
    // Resamples at 0.5 but one at 0.2: p(above 0.45) = 2/41, p(above 0.4) = 2/41; Holm over two: 4/41 each.
    const high = { value: 0.5, ci: [0.3, 0.7] as [number, number], samples: resampled(40, 0.5, 1, 0.2) };
    const checks = '  - metric: accuracy\n    scenario: s\n    max: 0.45\n  - metric: accuracy\n    scenario: s\n    max: 0.4\n';
    expect(checkBounds(lenient(checks), { s: high }).map((check) => check.boundTest?.pAdjusted)).toEqual([4 / 41, 4 / 41]);
  });
});

describe("what a check's result carries", () => {
  it('a check turned off, or without bounds, carries no flags and no bounds', () => {
    const result = gate(
      `${B20}checks:\n  - metric: accuracy\n    min: 0.9\n    severity: off\n  - metric: accuracy\n    max_regression: 0.1\n`,
      constantRun(40, 0.75),
    );
    expect(result.checks.map((check) => [check.flags, check.bounds])).toEqual([
      [[], undefined],
      [[], undefined],
    ]);
  });

  it('a group of its own (group_accuracy) lists no group sizes; an attribute family does', () => {
    const groups: RunInput = recordsRun('g.jsonl', () =>
      Array.from({ length: 40 }, (_, i) => record({ id: String(i), correct: 1, groups: { region: i < 20 ? 'a' : 'b' } })),
    );
    expect(seen(gate(`${B20}checks:\n  - metric: group_accuracy:region=a\n    min: 0.5\n`, groups))).toEqual({
      status: 'pass',
      reasons: [],
    });
  });

  it('an inconclusive check on a metric outside [0, 1] with no spread says so, and names no instance count', () => {
    const latency: RunInput = recordsRun('l.jsonl', () =>
      Array.from({ length: 40 }, (_, i) => record({ id: String(i), correct: 1, latency_ms: 100 })),
    );
    const result = gate(`${B20}checks:\n  - metric: latency_p95_ms\n    max_regression: "10%"\n    detect: "20%"\n`, latency, latency);
    expect(seen(result)).toEqual({ status: 'inconclusive', reasons: ['inconclusive: must detect 20 ms, the comparison shows no spread'] });
  });
});
