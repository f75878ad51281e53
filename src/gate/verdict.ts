import type { CheckStatus, CoverageResult, Verdict } from './types.js';

/*
 * What the checks add up to. The verdict fails closed: any blocking failure or error fails it. An
 * inconclusive check warns. Coverage counts as one more check.
 */

type Outcome = { severity: string; status: CheckStatus; comparison?: unknown };

/**
 * Whether a check did not run (in full): skipped, errored, or inconclusive for want of a comparison
 * (no baseline, or a baseline without the metric); an inconclusive check that compared did run.
 */
export function didNotRun(check: Outcome): boolean {
  return (
    check.status === 'skipped' ||
    check.status === 'error' ||
    (check.status === 'inconclusive' && (check.comparison === undefined || check.comparison === null))
  );
}

/**
 * `blocking`, blocking checks that failed or errored; `warnings`, warn checks that failed or errored,
 * and inconclusive checks; `failed`, all that failed or errored, whatever their severity; `notRun`, the
 * checks that did not run (didNotRun), of `judged`, the checks not turned off.
 */
export function countOutcomes(
  checks: Outcome[],
  coverage?: CoverageResult['status'],
): { blocking: number; warnings: number; failed: number; notRun: number; judged: number } {
  const count = (matches: (check: Outcome) => boolean) => checks.filter(matches).length;
  const failedOrErrored = (check: Outcome) => check.status === 'fail' || check.status === 'error';
  const warned = (check: Outcome) =>
    check.status === 'warn' || check.status === 'inconclusive' || (check.severity !== 'block' && check.status === 'error');
  return {
    blocking: count((check) => check.severity === 'block' && failedOrErrored(check)) + (coverage === 'fail' ? 1 : 0),
    warnings: count(warned) + (coverage === 'warn' ? 1 : 0),
    failed: count(failedOrErrored) + (coverage === 'fail' ? 1 : 0),
    notRun: count(didNotRun),
    judged: count((check) => check.status !== 'off'),
  };
}

/** Fail if anything blocking failed or errored, else warn if anything warned (or was inconclusive), else pass. */
export function decideVerdict(checks: Outcome[], coverage?: CoverageResult['status']): Verdict {
  const { blocking, warnings } = countOutcomes(checks, coverage);
  return blocking > 0 ? 'fail' : warnings > 0 ? 'warn' : 'pass';
}
