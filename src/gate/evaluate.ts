import type { ComputeOptions } from '../metrics/compute.js';
import type { Policy } from '../policy/schema.js';
import type { RunInput } from '../runs/load.js';
import { evaluateChecks } from './checks.js';
import { MetricsMemo, RunComparer } from './compare.js';
import { coverageOf } from './coverage.js';
import { explainFailures } from './failures.js';
import { evaluateTradeoffs } from './tradeoffs.js';
import type { GateResult } from './types.js';
import { decideOutcome, decideVerdict } from './verdict.js';

export interface GateInputs {
  policy: Policy;
  candidate: RunInput;
  baseline?: RunInput;
}

/**
 * Decides a candidate against a policy and, if there is one, a baseline: trade-offs first (they
 * decide which budgets are in effect), then every check, then coverage; the verdict fails closed.
 */
export function evaluateGate({ policy, candidate, baseline }: GateInputs, memo = new MetricsMemo()): GateResult {
  const { settings } = policy;
  const options: ComputeOptions = { resamples: settings.resamples, seed: settings.seed, minGroupSize: settings.min_group_size };
  const comparer = baseline ? new RunComparer(candidate, baseline, options, memo) : undefined;
  const tradeoffs = evaluateTradeoffs(policy, comparer);
  // The checks' scopes get their intervals (and keep the resampled values) whatever the number of scenarios.
  const named = policy.checks.filter((check) => check.severity !== 'off').map((check) => check.scenario);
  const candidateMetrics = memo.of(candidate, options, named);
  const candidateSamples = memo.samplesOf(candidate, options, named);
  const { checks, coverage } = explainFailures(
    evaluateChecks({ policy, candidateMetrics, candidateSamples, comparer, relaxed: tradeoffs.relaxed }),
    coverageOf(candidate, baseline, settings.coverage),
    candidate,
  );
  const counted = checks.map((result) => ({ severity: result.check.severity, status: result.status }));
  return {
    verdict: decideVerdict(counted, coverage?.status, settings.inconclusive),
    outcome: decideOutcome(counted, coverage?.status),
    checks,
    tradeoffs: tradeoffs.results,
    ...(coverage ? { coverage } : {}),
    hasBaseline: baseline !== undefined,
    candidateMetrics,
    baselineMetrics: baseline ? memo.of(baseline, { ...options, resamples: 0 }) : null,
  };
}
