import type { Check, Policy } from './schema.js';

/*
 * The checks every gate against a baseline runs whatever the policy says (docs/statistics.md, "Failed
 * calls cannot improve a metric"). A failed call is left out of accuracy and the other quality
 * metrics, so a candidate whose wrong answers come back as errors looks better than it is; the
 * paired test of the two runs' failure rates (error_rate, budget 0, blocking, in the blocking family)
 * is what stops that. A completion its judge gave no verdict (an unknown reply, a failed judge call)
 * is left out the same way, and judge_unknown_rate is tested the same way, where a run was judged. A
 * policy that checks such a metric itself has taken charge of it: its own check rules, and no built-in
 * one is added.
 */

/** The built-in failure-rate check: one object, so that a result is known to be its by identity. */
export const FAILURE_RATE_CHECK: Check = Object.freeze({
  metric: 'error_rate',
  max_regression: 0,
  // The regression test whatever settings.test says: non-inferiority at budget 0 could never pass.
  test: 'regression',
  severity: 'block',
  description: 'built-in: the candidate may not fail more calls than the baseline on the shared instances',
});

/** The built-in check of the judge's unknown verdicts (and failed judge calls), added where a run was judged. */
export const JUDGE_UNKNOWN_CHECK: Check = Object.freeze({
  metric: 'judge_unknown_rate',
  max_regression: 0,
  test: 'regression',
  severity: 'block',
  description: 'built-in: the judge may not leave more of the candidate ungraded than of the baseline on the shared instances',
});

const BUILTIN_CHECKS = [FAILURE_RATE_CHECK, JUDGE_UNKNOWN_CHECK];

/** Whether the policy states a check of the metric (in any scope, of any severity): then that check rules. */
const checksMetric = (policy: Policy, metric: string) => policy.checks.some((check) => check.metric === metric);

/** Whether the policy states a check of error_rate (in any scope, of any severity): then that check rules. */
export function checksFailures(policy: Policy): boolean {
  return checksMetric(policy, FAILURE_RATE_CHECK.metric);
}

/** The built-in checks a gate of this policy may add (when both runs are records files; the judge's when one was judged). */
export function builtinChecks(policy: Policy, judged = false): Check[] {
  return BUILTIN_CHECKS.filter((check) => (judged || check !== JUDGE_UNKNOWN_CHECK) && !checksMetric(policy, check.metric));
}

export function isBuiltin(check: Check): boolean {
  return BUILTIN_CHECKS.includes(check);
}
