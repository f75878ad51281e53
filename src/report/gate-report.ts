import type { CheckResult, CheckStatus, CoverageResult, GateResult } from '../gate/evaluate.js';
import type { RunInput } from '../gate/inputs.js';
import type { MetricsReport } from '../metrics/compute.js';
import type { LoadedPolicy } from '../policy/load.js';

/**
 * The JSON report of a gate run (`evalgate gate --json`, the action's `report` output). Versioned:
 * fields are only ever added within a version.
 */
export interface GateReport {
  version: 1;
  verdict: GateResult['verdict'];
  /** source: where the policy was read (the action reads it at the pull request's base commit). */
  policy: { name: string; file: string; sha256: string; source?: string };
  /** Set by the action: the event and, on a pull request, its number and commits. */
  github?: { event: string; sha: string; pullRequest: { number: number; baseSha: string; headSha: string } | null };
  candidate: RunSummary;
  baseline: RunSummary | null;
  checks: Array<{
    metric: string;
    scope: string;
    dimension: string;
    direction: string;
    severity: string;
    status: CheckStatus;
    threshold: string;
    candidate: { value: number; ci: [number, number] | null; n: number } | null;
    comparison: CheckResult['comparison'] | null;
    budget: CheckResult['budget'] | null;
    reasons: string[];
  }>;
  tradeoffs: GateResult['tradeoffs'];
  /** How many of the baseline's instances the candidate has (both runs records files), else null. */
  coverage: CoverageResult | null;
  /** The candidate's metrics per scenario, for the details. */
  scenarios: MetricsReport['scenarios'];
}

export interface RunSummary {
  file: string;
  /** records: per-example data, compared instance by instance; metrics: summary numbers only. */
  kind: RunInput['kind'];
  records: number | null;
  instances: number | null;
  /** The commit the baseline was saved at, when it came from the Actions cache. */
  commit?: string;
}

function summarizeRun(run: RunInput): RunSummary {
  return run.kind === 'records'
    ? { file: run.file, kind: 'records', records: run.table.size, instances: run.table.instanceKeys.length }
    : { file: run.file, kind: 'metrics', records: null, instances: null };
}

/** "min 0.7, max 0.9, regression <= 0.02" */
function thresholdText(result: CheckResult): string {
  const { check } = result;
  const parts: string[] = [];
  if (check.min !== undefined) parts.push(`>= ${check.min}`);
  if (check.max !== undefined) parts.push(`<= ${check.max}`);
  if (check.max_regression !== undefined) {
    const relaxed = result.budget && result.budget.from !== 'the check' ? ` (${result.budget.value.toPrecision(3)} by ${result.budget.from})` : '';
    parts.push(`regression <= ${check.max_regression}${relaxed}`);
  }
  return parts.join(', ');
}

export function buildGateReport(result: GateResult, policy: LoadedPolicy, candidate: RunInput, baseline: RunInput | undefined, scenarios: MetricsReport['scenarios']): GateReport {
  return {
    version: 1,
    verdict: result.verdict,
    policy: { name: policy.policy.name, file: policy.file, sha256: policy.sha256 },
    candidate: summarizeRun(candidate),
    baseline: baseline ? summarizeRun(baseline) : null,
    checks: result.checks.map((check) => ({
      metric: check.check.metric,
      scope: check.scope,
      dimension: check.dimension,
      direction: check.direction,
      severity: check.check.severity,
      status: check.status,
      threshold: thresholdText(check),
      candidate: check.candidate ?? null,
      comparison: check.comparison ?? null,
      budget: check.budget ?? null,
      reasons: check.reasons,
    })),
    tradeoffs: result.tradeoffs,
    coverage: result.coverage ?? null,
    scenarios,
  };
}
