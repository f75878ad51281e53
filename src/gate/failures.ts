import type { RunInput } from '../runs/load.js';
import type { CheckResult, CoverageResult } from './types.js';

/*
 * Where failed calls decide, the report says what they were: the candidate's most common error is
 * added to the reasons of an error_rate check that did not pass, of a check with no value (no record
 * answered), and of coverage that fell short. "The candidate has no accuracy" alone names no cause.
 */

/** Whether failed calls may be why a check ended as it did. */
function failuresDecide(result: CheckResult): boolean {
  if (result.status === 'error' && !result.candidate) return true;
  return result.check.metric === 'error_rate' && (result.status === 'fail' || result.status === 'warn' || result.status === 'error');
}

/** The checks and coverage, with the candidate's most common failed call among the reasons where failures decide. */
export function explainFailures(
  checks: CheckResult[],
  coverage: CoverageResult | undefined,
  candidate: RunInput,
): { checks: CheckResult[]; coverage: CoverageResult | undefined } {
  const common = candidate.kind === 'records' ? candidate.table.commonFailure : undefined;
  if (!common) return { checks, coverage };
  const { error, count, failed } = common;
  const reason = `the most common error of the candidate's ${failed} failed call${failed === 1 ? '' : 's'} (${count} of them): ${error}`;
  return {
    checks: checks.map((result) => (failuresDecide(result) ? { ...result, reasons: [...result.reasons, reason] } : result)),
    coverage: coverage && coverage.status !== 'pass' ? { ...coverage, reason: `${coverage.reason}; ${reason}` } : coverage,
  };
}
