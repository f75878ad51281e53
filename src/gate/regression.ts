import { amountText } from '../metrics/units.js';
import type { Test } from '../policy/family.js';
import type { Direction } from '../metrics/registry.js';
import type { SamplesSplit } from '../metrics/samples-split.js';
import type { Budget, Check, Policy } from '../policy/schema.js';
import type { Finding } from './bounds.js';
import { budgetValue, isSignificant, metricScopeKey, pairedBasis, pValueText, tooFewShared, type RunComparer } from './compare.js';
import { noBaseline, notCompared, type MissingBaseline } from './not-compared.js';
import { defaultDetect, detectionOf, isUnitMetric, samplesColumns } from './power.js';
import type { RelaxedBudgets } from './tradeoffs.js';
import type { BudgetInEffect, Comparison, PowerResult } from './types.js';

/*
 * A check's regression budget against the baseline (as trade-offs relax it), by one of two tests:
 *   regression (the default): fail iff the worsening w exceeds the budget b and is significantly above
 *     it (H0: w <= b): p_b = (#{resamples with w* <= b*} + 1) / (B + 1) below alpha after the family's
 *     correction (pOverBudget; at b = 0 this is pWorse, today's test, and pWorse stands for it);
 *   non-inferiority: pass iff p_NI = (#{resamples with w* >= b*} + 1) / (B + 1) < alpha.
 * b* is the budget on each resample's own baseline value (a number is the same on every resample; "N%"
 * is N% of that resample's baseline).
 * Point estimates (significance off, or a metrics file) judge w against b: regression fails iff w > b,
 * non-inferiority iff w >= b.
 */

/** What the comparison gave, before the family's correction: judged by judgeRegression, or `early` its finding already. */
export type RegressionEvidence =
  | { test: Test; early?: undefined; comparison: Comparison; budget: BudgetInEffect; stated: Budget }
  /** The comparison could not be made or judged (an error, skipped or inconclusive); what it had so far. */
  | { test: Test; early: Finding; comparison?: Comparison; budget?: BudgetInEffect; stated?: Budget };

/** The budget in effect: the check's, or a more generous one from a trade-off that applies (trade-offs only relax). */
function budgetInEffect(check: Check, stated: Budget, relaxed: RelaxedBudgets, baseline: number): BudgetInEffect & { stated: Budget } {
  // Stryker disable next-line ArrayDeclaration: an element that is no budget gives NaN, which never wins the reduce below.
  const granted = [{ value: stated, from: 'the check' }, ...(relaxed.get(metricScopeKey(check.metric, check.scenario)) ?? [])];
  return granted
    .map(({ value, from }) => ({ value: budgetValue(value, baseline), from, stated: value }))
    .reduce((best, next) => (next.value > best.value ? next : best));
}

/**
 * A p-value over the resamples, (#{r : counted(w*_r, b*_r)} + 1) / (B + 1), b*_r the budget on resample
 * r's own baseline: p_NI counts w* >= b*, p_b counts w* <= b*.
 */
function resampledP(
  check: Check,
  budgetOf: (baseline: number) => number,
  comparer: RunComparer,
  counted: (worsening: number, budget: number) => boolean,
): number | undefined {
  const samples = comparer.samples(check.metric, check.scenario);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: no valid resample is a shortfall, an error before any p-value is read (checks.ts).
  if (!samples || samples.worsenings.length === 0) return undefined;
  let count = 0;
  samples.worsenings.forEach((worsening, index) => {
    if (counted(worsening, budgetOf(samples.baselines[index]))) count++;
  });
  return (count + 1) / (samples.worsenings.length + 1);
}

/** The evidence of a check's regression budget (`stated`, its max_regression) against the baseline. */
export function regressionEvidence(
  check: Check,
  stated: Budget,
  direction: Direction,
  test: Test,
  policy: Policy,
  comparer: RunComparer | undefined,
  relaxed: RelaxedBudgets,
  // Stryker disable next-line StringLiteral: noBaseline reads anything but 'inconclusive' as skip.
  missingBaseline: MissingBaseline = 'skip',
): RegressionEvidence {
  if (!comparer) return { test, early: noBaseline(missingBaseline) };
  const judges = comparer.judgeMismatch(check.scenario);
  if (judges) return { test, early: { failed: true, errored: true, reasons: [`regression not checked: ${judges}`] } };
  const comparison = comparer.compare(check.metric, check.scenario, direction);
  // Stryker disable next-line LogicalOperator: a comparison is made only on shared instances, so with one sharesNoInstance is false.
  if (!comparison && comparer.sharesNoInstance(check.scenario)) {
    // A baseline that cannot be compared at all is an evaluation gone wrong, not a missing baseline.
    const reason = 'regression not checked: the candidate shares no instance (scenario and id) with the baseline';
    // Stryker disable next-line BooleanLiteral: an errored finding is an error whatever `failed` says (checks.ts statusOf reads errored first).
    return { test, early: { failed: true, errored: true, reasons: [reason] } };
  }
  if (!comparison) return { test, early: notCompared(check.metric, check.scenario, comparer.whyNotCompared(check.metric, check.scenario)) };
  const tooFew = tooFewShared(comparison, policy);
  // Stryker disable next-line BooleanLiteral: an errored finding is an error whatever `failed` says (checks.ts statusOf reads errored first).
  if (tooFew) return { test, comparison, early: { failed: true, errored: true, reasons: [`regression not checked: ${tooFew}`] } };
  const { stated: budgetStated, ...budget } = budgetInEffect(check, stated, relaxed, comparison.baseline);
  // Stryker disable next-line ConditionalExpression: without a detect, budgetValue gives NaN, and NaN <= budget is false.
  if (check.detect !== undefined && budgetValue(check.detect, comparison.baseline) <= budget.value) {
    // Stated in different units, detect fell at or below the budget on this baseline: nothing could see it.
    const amount = (value: number) => amountText(check.metric, value);
    const reason = `detect ${check.detect} is ${amount(budgetValue(check.detect, comparison.baseline))} on this baseline, not above the budget ${amount(budget.value)}`;
    // Stryker disable next-line BooleanLiteral: an errored finding is an error whatever `failed` says (checks.ts statusOf reads errored first).
    return { test, comparison, budget, early: { failed: true, errored: true, reasons: [reason] } };
  }
  if (comparison.method !== 'paired' || policy.settings.significance === 'off') return { test, comparison, budget, stated: budgetStated };
  // The comparer's comparison is shared with other checks and trade-offs: this check's p-value goes on a copy.
  const budgetOf = (baseline: number) => budgetValue(budgetStated, baseline);
  if (test === 'non-inferiority') {
    const pNotInferior = resampledP(check, budgetOf, comparer, (worsening, bound) => worsening >= bound);
    // Stryker disable next-line ConditionalExpression: a key set to undefined is the key left out, for every reader (and JSON).
    return { test, comparison: pNotInferior === undefined ? comparison : { ...comparison, pNotInferior }, budget, stated: budgetStated };
  }
  // A resample exactly at the budget is within it: its worsening, a difference of two means, is off by rounding.
  // Stryker disable next-line EqualityOperator,ArithmeticOperator,MethodExpression: a tolerance for rounding (about 1e-16); its exact size and edge change no count on real data.
  const within = (worsening: number, bound: number) => worsening - bound <= 1e-9 * Math.max(1, Math.abs(bound));
  const pOverBudget = budget.value > 0 ? resampledP(check, budgetOf, comparer, within) : undefined;
  // Stryker disable next-line ConditionalExpression: a key set to undefined is the key left out, for every reader (and JSON).
  return { test, comparison: pOverBudget === undefined ? comparison : { ...comparison, pOverBudget }, budget, stated: budgetStated };
}

/**
 * What a regression check must detect, in the metric's unit: its detect, else the default
 * (power.ts defaultDetect) on the budget in effect; a summary comparison (no spread) only when stated.
 */
function detectOf(check: Check, evidence: RegressionEvidence, comparison: Comparison): Pick<PowerResult, 'detect' | 'detectFrom'> {
  if (check.detect !== undefined) return { detect: budgetValue(check.detect, comparison.baseline), detectFrom: 'check' };
  if (comparison.method !== 'paired') return { detect: null };
  return { detect: budgetValue(defaultDetect(check.metric, evidence.stated ?? 0), comparison.baseline), detectFrom: 'default' };
}

/**
 * The power of a regression test at its family's per-test level (MDE80 = b + (z(1 - alpha') + z(0.8))
 * sigma), whether it sees what the check must detect, and the instances at which it would (as `plan`
 * sizes them; `minInstances` the fewest a paired comparison needs). An underpowered check also gets the
 * samples per example that would do, at today's instances, from `split` (RunComparer.samplesSplit):
 * asked only then, as it reads every record of the scope again.
 */
export function powerOf(
  check: Check,
  evidence: RegressionEvidence,
  alphaPerTest: number,
  minInstances: number,
  split: () => SamplesSplit | undefined = () => undefined,
): PowerResult | undefined {
  const { comparison, budget, test } = evidence;
  if (!comparison || !budget || test !== 'regression') return undefined;
  const { detect, detectFrom } = detectOf(check, evidence, comparison);
  // Point estimates have no spread: nothing shows what they can see.
  const detection =
    comparison.sd !== undefined && Number.isFinite(comparison.sd)
      ? detectionOf(
          comparison.sd,
          { metric: check.metric, detect, budget: budget.value, alphaPerTest },
          { basis: pairedBasis(comparison), shared: comparison.shared ?? 0, minInstances },
        )
      : undefined;
  const mde = detection?.mde ?? null;
  const instancesNeeded = detection?.instancesNeeded ?? null;
  const underpowered = detect !== null && (mde === null || mde > detect);
  // As `plan` computes its samples columns: on the comparison's own spread and shared instances.
  const found = underpowered && instancesNeeded !== null ? split() : undefined;
  const samples =
    found &&
    samplesColumns(found, comparison.sd!, detection!.needSpread, {
      instances: comparison.shared ?? 0,
      minInstances,
      unitMetric: isUnitMetric(check.metric),
      detect: detect!,
    });
  return {
    mde,
    detect,
    underpowered,
    ...(detectFrom ? { detectFrom } : {}),
    ...(detect !== null ? { instancesNeeded } : {}),
    ...(samples ? { samplesNeeded: samples.samplesNeeded } : {}),
    ...(samples?.samplesNeeded === null && samples.samplesNote !== null ? { samplesNote: samples.samplesNote } : {}),
  };
}

/** The finding of a regression budget, its comparison corrected for the family (pWorseAdjusted). */
export function judgeRegression(evidence: RegressionEvidence, policy: Policy, metric: string): Finding {
  if (evidence.early) return evidence.early;
  const { comparison, budget } = evidence;
  const { significance } = policy.settings;
  const pointEstimates = comparison.method === 'summary' || significance === 'off';
  const amount = (value: number) => amountText(metric, value);
  const worse = (relation: 'over' | 'at or over') =>
    `worse than the baseline by ${amount(comparison.worsening)}, ${relation} the budget ${amount(budget.value)}`;
  if (evidence.test === 'non-inferiority') {
    if (pointEstimates || comparison.pNotInferior === undefined) {
      return comparison.worsening >= budget.value ? { failed: true, reasons: [worse('at or over')] } : { failed: false, reasons: [] };
    }
    if (isSignificant(significance, comparison.pNotInferior)) return { failed: false, reasons: [] };
    return {
      failed: true,
      reasons: [
        `not shown to be within the budget ${amount(budget.value)} of the baseline (non-inferiority p = ${comparison.pNotInferior.toPrecision(2)}, worsening ${amount(comparison.worsening)})`,
      ],
    };
  }
  if (comparison.worsening <= budget.value) return { failed: false, reasons: [] };
  // Above a positive budget the test is H0: w <= b (pOverBudget); at budget 0 it is pWorse's.
  const [p, adjusted, what] =
    comparison.pOverBudget !== undefined
      ? [comparison.pOverBudget, comparison.pOverBudgetAdjusted, 'significantly over it']
      : [comparison.pWorse, comparison.pWorseAdjusted, 'statistically real'];
  // Without a p-value (point estimates) the estimate is judged.
  if (pointEstimates || p === undefined || isSignificant(significance, adjusted ?? p)) {
    return { failed: true, reasons: [worse('over')] };
  }
  return {
    failed: false,
    reasons: [`worse by ${amount(comparison.worsening)}, over the budget, but not ${what} (${pValueText(p, adjusted)})`],
  };
}
