import type { MetricsReport, MetricValue } from '../metrics/compute.js';
import { OVERALL } from '../metrics/scope.js';
import type { Check, Policy } from '../policy/schema.js';
import { scopeMetrics } from '../runs/metrics-file.js';
import { budgetValue, metricMeta, metricScopeKey, type RunComparer } from './compare.js';
import { isSignificant, type RelaxedBudgets } from './tradeoffs.js';
import type { CheckResult, CheckStatus } from './types.js';

/*
 * One check of the policy: its absolute bounds on the candidate, then its regression budget against
 * the baseline (as trade-offs relax it). A regression counts only when statistically real (paired
 * comparisons) at the policy's significance.
 */

/** What a part of a check found: failed (or errored) and why. */
interface Finding {
  failed: boolean;
  skipped?: boolean;
  errored?: boolean;
  reasons: string[];
}

function checkBounds(check: Check, value: MetricValue): Finding {
  const reasons: string[] = [];
  if (check.min !== undefined && value.value < check.min) reasons.push(`below the minimum ${check.min}`);
  if (check.max !== undefined && value.value > check.max) reasons.push(`above the maximum ${check.max}`);
  return { failed: reasons.length > 0, reasons };
}

/** The budget in effect: the check's, or of the trade-offs that apply the most generous. */
function budgetInEffect(check: Check, relaxed: RelaxedBudgets, baseline: number): { value: number; from: string } {
  const granted = relaxed.get(metricScopeKey(check.metric, check.scenario)) ?? [{ value: check.max_regression!, from: 'the check' }];
  return granted
    .map(({ value, from }) => ({ value: budgetValue(value, baseline), from }))
    .reduce((best, next) => (next.value > best.value ? next : best));
}

function checkRegression(
  check: Check,
  result: CheckResult,
  policy: Policy,
  comparer: RunComparer | undefined,
  relaxed: RelaxedBudgets,
): Finding {
  const comparison = comparer?.compare(check.metric, check.scenario, result.direction);
  if (!comparison && comparer?.sharesNoInstance(check.scenario)) {
    // A baseline that cannot be compared at all is an evaluation gone wrong, not a missing baseline.
    return {
      failed: true,
      errored: true,
      reasons: ['regression not checked: the candidate shares no instance (scenario and id) with the baseline'],
    };
  }
  if (!comparison) {
    return {
      failed: false,
      skipped: true,
      reasons: [comparer ? `regression not checked: ${check.metric} is not in both runs` : 'regression not checked: no baseline'],
    };
  }
  result.comparison = comparison;
  const budget = budgetInEffect(check, relaxed, comparison.baseline);
  result.budget = budget;
  if (comparison.worsening <= budget.value) return { failed: false, reasons: [] };
  if (comparison.method === 'summary' || isSignificant(policy.settings.significance, comparison.pWorse)) {
    return {
      failed: true,
      reasons: [`worse than the baseline by ${comparison.worsening.toPrecision(3)}, over the budget ${budget.value.toPrecision(3)}`],
    };
  }
  return {
    failed: false,
    reasons: [
      `worse by ${comparison.worsening.toPrecision(3)}, over the budget, but not statistically real (p = ${comparison.pWorse!.toPrecision(2)})`,
    ],
  };
}

function statusOf(severity: Check['severity'], findings: Finding[]): CheckStatus {
  if (findings.some((finding) => finding.errored)) return 'error';
  if (findings.some((finding) => finding.failed)) return severity === 'warn' ? 'warn' : 'fail';
  return findings.some((finding) => finding.skipped) ? 'skipped' : 'pass';
}

export interface CheckContext {
  policy: Policy;
  candidateMetrics: MetricsReport;
  /** Undefined without a baseline. */
  comparer: RunComparer | undefined;
  relaxed: RelaxedBudgets;
}

export function evaluateCheck(check: Check, { policy, candidateMetrics, comparer, relaxed }: CheckContext): CheckResult {
  const { direction, dimension } = metricMeta(policy, check.metric, check.direction);
  const result: CheckResult = { check, scope: check.scenario ?? OVERALL, dimension, direction, status: 'pass', reasons: [] };
  if (check.severity === 'off') return { ...result, status: 'off', reasons: ['turned off'] };
  const value = scopeMetrics(candidateMetrics, check.scenario)?.[check.metric];
  if (!value) return { ...result, status: 'error', reasons: [`the candidate has no ${check.metric} for ${result.scope}`] };
  result.candidate = value;
  const findings = [checkBounds(check, value)];
  if (check.max_regression !== undefined) findings.push(checkRegression(check, result, policy, comparer, relaxed));
  result.reasons = findings.flatMap((finding) => finding.reasons);
  result.status = statusOf(check.severity, findings);
  return result;
}
