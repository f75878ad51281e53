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

/** The checks' scopes: they get their intervals (and keep the resampled values) whatever the number of scenarios. */
export const gatedScopes = (policy: Policy) => policy.checks.filter((check) => check.severity !== 'off').map((check) => check.scenario);

/** The options the baseline's metrics are computed under: point estimates only (its intervals are never read). */
export const baselineOptionsOf = (policy: Policy) => ({ ...computeOptionsOf(policy), resamples: 0 });

/**
 * Makes ahead, and keeps in the memo, the paired comparisons a gate of `policy` makes: its trade-offs'
 * terms and its regression budgets, the built-in checks' among them. What this thread does while the
 * candidate's metrics are computed in another (pipeline/gate-run.ts); nothing is decided here, and a
 * comparison made ahead is the one the gate would make (each has its own seed).
 */
export function compareAhead(policy: Policy, candidate: RunInput, baseline: RunInput, memo: MetricsMemo): void {
  if (candidate.kind !== 'records' || baseline.kind !== 'records') return;
  const options = computeOptionsOf(policy);
  const comparer = new RunComparer(candidate, baseline, options, memo);
  const budgets = gateChecks(policy, comparer, candidate, baseline).policy.checks.filter(
    (check) => check.severity !== 'off' && check.max_regression !== undefined,
  );
  const paired = memo.pairedRuns(candidate, baseline, options);
  for (const { metric, scenario } of [...policy.tradeoffs.flatMap((tradeoff) => tradeoff.when), ...budgets]) {
    if (!comparer.judgeMismatch(scenario)) paired.compare(metric, scenario);
  }
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
  const named = gatedScopes(gate.policy);
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
    baselineMetrics: baseline ? memo.of(baseline, baselineOptionsOf(policy)) : null,
  };
}
