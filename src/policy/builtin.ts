import type { Check, Policy } from './schema.js';

/*
 * The checks every gate against a baseline runs whatever the policy says (docs/statistics.md, "Failed
 * calls cannot improve a metric"). A failed call is left out of accuracy and the other quality
 * metrics, so a candidate whose wrong answers come back as errors looks better than it is; the
 * paired test of the two runs' failure rates (error_rate, budget 0, blocking, in the blocking family)
 * is what stops that. A policy that checks error_rate itself has taken charge of failed calls: its
 * own check rules, and no built-in one is added.
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

/** Whether the policy states a check of error_rate (in any scope, of any severity): then that check rules. */
export function checksFailures(policy: Policy): boolean {
  return policy.checks.some((check) => check.metric === FAILURE_RATE_CHECK.metric);
}

/** The built-in checks a gate of this policy may add (when both runs are records files). */
export function builtinChecks(policy: Policy): Check[] {
  return checksFailures(policy) ? [] : [FAILURE_RATE_CHECK];
}

export function isBuiltin(check: Check): boolean {
  return check === FAILURE_RATE_CHECK;
}
