import type { CheckStatus, CoverageResult, Verdict } from './types.js';

/*
 * What the checks add up to. The verdict fails closed: any blocking failure or error fails it.
 * Coverage counts as one more check.
 */

type Outcome = { severity: string; status: CheckStatus };

/**
 * `blocking`, blocking checks that failed or errored; `warnings`, warn checks that failed or errored;
 * `failed`, all that failed or errored, whatever their severity.
 */
export function countOutcomes(
  checks: Outcome[],
  coverage?: CoverageResult['status'],
): { blocking: number; warnings: number; failed: number } {
  const count = (matches: (check: Outcome) => boolean) => checks.filter(matches).length;
  const failedOrErrored = (check: Outcome) => check.status === 'fail' || check.status === 'error';
  return {
    blocking: count((check) => check.severity === 'block' && failedOrErrored(check)) + (coverage === 'fail' ? 1 : 0),
    warnings:
      count((check) => check.status === 'warn' || (check.severity !== 'block' && check.status === 'error')) + (coverage === 'warn' ? 1 : 0),
    failed: count(failedOrErrored) + (coverage === 'fail' ? 1 : 0),
  };
}

/** Fail if anything blocking failed or errored, else warn if anything warned, else pass. */
export function decideVerdict(checks: Outcome[], coverage?: CoverageResult['status']): Verdict {
  const { blocking, warnings } = countOutcomes(checks, coverage);
  return blocking > 0 ? 'fail' : warnings > 0 ? 'warn' : 'pass';
}
