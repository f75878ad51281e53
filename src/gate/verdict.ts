import type { CheckStatus, CoverageResult, Outcome, Verdict } from './types.js';

/*
 * What the checks add up to. The verdict fails closed: any blocking failure or error fails it.
 * Coverage counts as one more check. An inconclusive check makes the verdict warn, or fail when it
 * blocks and settings.inconclusive is block; the outcome says which it was.
 */

type Counted = { severity: string; status: CheckStatus; comparison?: unknown };

/** settings.inconclusive: what an inconclusive blocking check does to the verdict. */
export type InconclusiveRule = 'warn' | 'block';

/**
 * Whether a check did not run (in full): skipped, errored, or inconclusive for want of a comparison
 * (no baseline, or a baseline without the metric); an inconclusive check that compared did run.
 */
export function didNotRun(check: Counted): boolean {
  return (
    check.status === 'skipped' ||
    check.status === 'error' ||
    (check.status === 'inconclusive' && (check.comparison === undefined || check.comparison === null))
  );
}

/**
 * `blocking`, blocking checks that failed or errored; `warnings`, warn checks that failed or errored;
 * `failed`, all that failed or errored, whatever their severity; `inconclusive`, checks that compared
 * but could not see what they must detect; `notRun`, the checks that did not run (didNotRun: the
 * inconclusive ones that could not compare among them), of `judged`, the checks not turned off. Each
 * check is counted once in a headline.
 */
export function countOutcomes(
  checks: Counted[],
  coverage?: CoverageResult['status'],
): { blocking: number; warnings: number; failed: number; inconclusive: number; notRun: number; judged: number } {
  const count = (matches: (check: Counted) => boolean) => checks.filter(matches).length;
  const failedOrErrored = (check: Counted) => check.status === 'fail' || check.status === 'error';
  const warned = (check: Counted) => check.status === 'warn' || (check.severity !== 'block' && check.status === 'error');
  return {
    blocking: count((check) => check.severity === 'block' && failedOrErrored(check)) + (coverage === 'fail' ? 1 : 0),
    warnings: count(warned) + (coverage === 'warn' ? 1 : 0),
    failed: count(failedOrErrored) + (coverage === 'fail' ? 1 : 0),
    inconclusive: count((check) => check.status === 'inconclusive' && !didNotRun(check)),
    notRun: count(didNotRun),
    judged: count((check) => check.status !== 'off'),
  };
}

/**
 * Fail if anything blocking failed or errored (or was inconclusive, under `inconclusive: block`), else
 * warn if anything warned or was inconclusive, else pass.
 */
// Stryker disable next-line StringLiteral: any default but 'block' is read as warn.
export function decideVerdict(checks: Counted[], coverage?: CoverageResult['status'], inconclusive: InconclusiveRule = 'warn'): Verdict {
  const { blocking, warnings } = countOutcomes(checks, coverage);
  const unsure = checks.filter((check) => check.status === 'inconclusive');
  if (blocking > 0 || (inconclusive === 'block' && unsure.some((check) => check.severity === 'block'))) return 'fail';
  return warnings > 0 || unsure.length > 0 ? 'warn' : 'pass';
}

/**
 * The outcome, in this precedence: error (a blocking check errored: the gate could not judge it) >
 * fail (a blocking check or coverage failed) > inconclusive (a check could not tell) > warn > pass. It
 * does not depend on settings.inconclusive; the verdict does.
 */
export function decideOutcome(checks: Counted[], coverage?: CoverageResult['status']): Outcome {
  const { blocking, warnings } = countOutcomes(checks, coverage);
  if (checks.some((check) => check.severity === 'block' && check.status === 'error')) return 'error';
  if (blocking > 0) return 'fail';
  if (checks.some((check) => check.status === 'inconclusive')) return 'inconclusive';
  return warnings > 0 ? 'warn' : 'pass';
}
