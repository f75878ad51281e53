import type { CheckStatus, CoverageResult, Outcome, Verdict } from './types.js';

/*
 * What the checks add up to. The verdict fails closed: any blocking failure or error fails it.
 * Coverage counts as one more check. An inconclusive check makes the verdict warn, or fail when it
 * blocks and settings.inconclusive is block; the outcome says which it was.
 */

type Counted = { severity: string; status: CheckStatus };

/** settings.inconclusive: what an inconclusive blocking check does to the verdict. */
export type InconclusiveRule = 'warn' | 'block';

/**
 * `blocking`, blocking checks that failed or errored; `warnings`, warn checks that failed or errored;
 * `failed`, all that failed or errored, whatever their severity; `inconclusive`, checks that could not
 * see what they must detect.
 */
export function countOutcomes(
  checks: Counted[],
  coverage?: CoverageResult['status'],
): { blocking: number; warnings: number; failed: number; inconclusive: number } {
  const count = (matches: (check: Counted) => boolean) => checks.filter(matches).length;
  const failedOrErrored = (check: Counted) => check.status === 'fail' || check.status === 'error';
  return {
    blocking: count((check) => check.severity === 'block' && failedOrErrored(check)) + (coverage === 'fail' ? 1 : 0),
    warnings:
      count((check) => check.status === 'warn' || (check.severity !== 'block' && check.status === 'error')) + (coverage === 'warn' ? 1 : 0),
    failed: count(failedOrErrored) + (coverage === 'fail' ? 1 : 0),
    inconclusive: count((check) => check.status === 'inconclusive'),
  };
}

/**
 * Fail if anything blocking failed or errored (or was inconclusive, under `inconclusive: block`), else
 * warn if anything warned or was inconclusive, else pass.
 */
export function decideVerdict(checks: Counted[], coverage?: CoverageResult['status'], inconclusive: InconclusiveRule = 'warn'): Verdict {
  const { blocking, warnings } = countOutcomes(checks, coverage);
  const unsure = (severity: string) => checks.some((check) => check.status === 'inconclusive' && check.severity === severity);
  if (blocking > 0 || (inconclusive === 'block' && unsure('block'))) return 'fail';
  return warnings > 0 || unsure('block') || unsure('warn') ? 'warn' : 'pass';
}

/**
 * The outcome, in this precedence: error (a blocking check errored: the gate could not judge it) >
 * fail (a blocking check or coverage failed) > inconclusive (a check could not see what it must
 * detect) > warn > pass. It does not depend on settings.inconclusive; the verdict does.
 */
export function decideOutcome(checks: Counted[], coverage?: CoverageResult['status']): Outcome {
  const { blocking, warnings, inconclusive } = countOutcomes(checks, coverage);
  if (checks.some((check) => check.severity === 'block' && check.status === 'error')) return 'error';
  if (blocking > 0) return 'fail';
  if (inconclusive > 0) return 'inconclusive';
  return warnings > 0 ? 'warn' : 'pass';
}
