import type { Test } from '../policy/family.js';
import { lookupMetric, type Direction } from '../metrics/registry.js';
import type { Budget, Check, Policy } from '../policy/schema.js';
import type { Finding } from './bounds.js';
import { budgetValue, isSignificant, metricScopeKey, pairedBasis, pValueText, tooFewShared, type RunComparer } from './compare.js';
import { noBaseline, notCompared, type MissingBaseline } from './not-compared.js';
import { minimumDetectableWorsening, plannedSpread } from './power.js';
import type { RelaxedBudgets } from './tradeoffs.js';
import type { BudgetInEffect, Comparison, PowerResult } from './types.js';

/*
 * A check's regression budget against the baseline (as trade-offs relax it), by one of two tests:
 *   regression (the default): fail iff the worsening w exceeds the budget b and p(w > 0) is below
 *     alpha after the family's correction;
 *   non-inferiority: pass iff p_NI = (#{resamples with w* >= b*} + 1) / (B + 1) < alpha, b* the budget
 *     on each resample's own baseline value (for a percentage budget).
 * Point estimates (significance off, or a metrics file) judge w against b: regression fails iff w > b,
 * non-inferiority iff w >= b.
 */

/** What the comparison gave, before the family's correction: judged by judgeRegression, or `early` its finding already. */
export type RegressionEvidence =
  | { test: Test; early?: undefined; comparison: Comparison; budget: BudgetInEffect }
  /** The comparison could not be made or judged (an error, skipped or inconclusive); what it had so far. */
  | { test: Test; early: Finding; comparison?: Comparison; budget?: BudgetInEffect };

/** The budget in effect: the check's, or a more generous one from a trade-off that applies (trade-offs only relax). */
function budgetInEffect(check: Check, stated: Budget, relaxed: RelaxedBudgets, baseline: number): BudgetInEffect & { stated: Budget } {
  const granted = [{ value: stated, from: 'the check' }, ...(relaxed.get(metricScopeKey(check.metric, check.scenario)) ?? [])];
  return granted
    .map(({ value, from }) => ({ value: budgetValue(value, baseline), from, stated: value }))
    .reduce((best, next) => (next.value > best.value ? next : best));
}

/** p_NI over the resamples: the share whose worsening reaches the budget on that resample's baseline. */
function nonInferiorityP(check: Check, budgetOf: (baseline: number) => number, comparer: RunComparer): number | undefined {
  const samples = comparer.samples(check.metric, check.scenario);
  if (!samples || samples.worsenings.length === 0) return undefined;
  let reaching = 0;
  samples.worsenings.forEach((worsening, index) => {
    if (worsening >= budgetOf(samples.baselines[index])) reaching++;
  });
  return (reaching + 1) / (samples.worsenings.length + 1);
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
  missingBaseline: MissingBaseline = 'skip',
): RegressionEvidence {
  if (!comparer) return { test, early: noBaseline(missingBaseline) };
  const comparison = comparer.compare(check.metric, check.scenario, direction);
  if (!comparison && comparer.sharesNoInstance(check.scenario)) {
    // A baseline that cannot be compared at all is an evaluation gone wrong, not a missing baseline.
    const reason = 'regression not checked: the candidate shares no instance (scenario and id) with the baseline';
    return { test, early: { failed: true, errored: true, reasons: [reason] } };
  }
  if (!comparison) return { test, early: notCompared(check.metric, check.scenario, comparer.whyNotCompared(check.metric, check.scenario)) };
  const tooFew = tooFewShared(comparison, policy);
  if (tooFew) return { test, comparison, early: { failed: true, errored: true, reasons: [`regression not checked: ${tooFew}`] } };
  const { stated: budgetStated, ...budget } = budgetInEffect(check, stated, relaxed, comparison.baseline);
  if (check.detect !== undefined && budgetValue(check.detect, comparison.baseline) <= budget.value) {
    // Stated in different units, detect fell at or below the budget on this baseline: nothing could see it.
    const reason = `detect ${check.detect} is ${budgetValue(check.detect, comparison.baseline).toPrecision(3)} on this baseline, not above the budget ${budget.value.toPrecision(3)}`;
    return { test, comparison, budget, early: { failed: true, errored: true, reasons: [reason] } };
  }
  if (test === 'non-inferiority' && comparison.method === 'paired' && policy.settings.significance !== 'off') {
    // The comparer's comparison is shared with other checks and trade-offs: this check's p-value goes on a copy.
    const pNotInferior = nonInferiorityP(check, (baseline) => budgetValue(budgetStated, baseline), comparer);
    return { test, comparison: pNotInferior === undefined ? comparison : { ...comparison, pNotInferior }, budget };
  }
  return { test, comparison, budget };
}

/** The power of a paired regression test at its family's per-test level, and whether it sees what the check must detect. */
export function powerOf(check: Check, evidence: RegressionEvidence, alphaPerTest: number): PowerResult | undefined {
  const { comparison, budget, test } = evidence;
  if (!comparison || !budget || test !== 'regression') return undefined;
  const detect = check.detect === undefined ? null : budgetValue(check.detect, comparison.baseline);
  const unit = lookupMetric(check.metric)?.range[1] === 1;
  const sd =
    comparison.sd !== undefined && Number.isFinite(comparison.sd)
      ? plannedSpread(comparison.sd, unit, detect, pairedBasis(comparison))
      : undefined;
  // Point estimates have no spread, nor has a comparison of runs that agree everywhere on a metric
  // with no floor to plan with: nothing shows what they can see.
  const mde = sd === undefined || sd === 0 ? null : minimumDetectableWorsening(sd, budget.value, alphaPerTest);
  return { mde, detect, underpowered: detect !== null && (mde === null || mde > detect) };
}

/** The finding of a regression budget, its comparison corrected for the family (pWorseAdjusted). */
export function judgeRegression(evidence: RegressionEvidence, policy: Policy): Finding {
  if (evidence.early) return evidence.early;
  const { comparison, budget } = evidence;
  const { significance } = policy.settings;
  const pointEstimates = comparison.method === 'summary' || significance === 'off';
  const worse = (relation: 'over' | 'at or over') =>
    `worse than the baseline by ${comparison.worsening.toPrecision(3)}, ${relation} the budget ${budget.value.toPrecision(3)}`;
  if (evidence.test === 'non-inferiority') {
    if (pointEstimates || comparison.pNotInferior === undefined) {
      return comparison.worsening >= budget.value ? { failed: true, reasons: [worse('at or over')] } : { failed: false, reasons: [] };
    }
    if (isSignificant(significance, comparison.pNotInferior)) return { failed: false, reasons: [] };
    return {
      failed: true,
      reasons: [
        `not shown to be within the budget ${budget.value.toPrecision(3)} of the baseline (non-inferiority p = ${comparison.pNotInferior.toPrecision(2)}, worsening ${comparison.worsening.toPrecision(3)})`,
      ],
    };
  }
  if (comparison.worsening <= budget.value) return { failed: false, reasons: [] };
  const { pWorse, pWorseAdjusted } = comparison;
  // Without a p-value (point estimates) the estimate is judged.
  if (pointEstimates || pWorse === undefined || isSignificant(significance, pWorseAdjusted ?? pWorse)) {
    return { failed: true, reasons: [worse('over')] };
  }
  return {
    failed: false,
    reasons: [
      `worse by ${comparison.worsening.toPrecision(3)}, over the budget, but not statistically real (${pValueText(pWorse, pWorseAdjusted)})`,
    ],
  };
}
