import type { Policy } from '../policy/schema.js';
import type { RunInput } from '../runs/load.js';
import { evaluateChecks } from './checks.js';
import { computeOptionsOf, MetricsMemo, RunComparer } from './compare.js';
import { coverageOf } from './coverage.js';
import { gateChecks, withBuiltinResults } from './failure-rate.js';
import { explainFailures } from './failures.js';
import type { MissingBaseline } from './not-compared.js';
import { evaluateTradeoffs } from './tradeoffs.js';
import type { GateResult } from './types.js';
import { decideOutcome, decideVerdict } from './verdict.js';

export interface GateInputs {
  policy: Policy;
  candidate: RunInput;
  baseline?: RunInput;
  /** Without a baseline, regression budgets are skipped, or inconclusive where a change is gated (a pull request). */
  missingBaseline?: MissingBaseline;
}

/**
 * Decides a candidate against a policy and, if there is one, a baseline: trade-offs first (they
 * decide which budgets are in effect), then every check (the policy's, and the built-in failure-rate
 * check against a records baseline), then coverage; the verdict fails closed.
 */
export function evaluateGate({ policy, candidate, baseline, missingBaseline }: GateInputs, memo = new MetricsMemo()): GateResult {
  const { settings } = policy;
  const options = computeOptionsOf(policy);
  const comparer = baseline ? new RunComparer(candidate, baseline, options, memo) : undefined;
  const tradeoffs = evaluateTradeoffs(policy, comparer);
  const gate = gateChecks(policy, comparer, candidate, baseline);
  // The checks' scopes get their intervals (and keep the resampled values) whatever the number of scenarios.
  const named = gate.policy.checks.filter((check) => check.severity !== 'off').map((check) => check.scenario);
  const candidateMetrics = memo.of(candidate, options, named);
  const candidateSamples = memo.samplesOf(candidate, options, named);
  const evaluated = evaluateChecks({
    policy: gate.policy,
    candidateMetrics,
    candidateSamples,
    candidateComponents: (scenario, metric) => memo.componentsOf(candidate, options, scenario, metric),
    comparer,
    relaxed: tradeoffs.relaxed,
    missingBaseline,
  });
  const { checks, coverage } = explainFailures(
    withBuiltinResults(evaluated, gate, candidateMetrics),
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
