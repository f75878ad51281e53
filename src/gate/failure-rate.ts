import type { MetricsReport } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';
import { scopeOf } from '../metrics/names.js';
import { builtinChecks, FAILURE_RATE_CHECK, isBuiltin } from '../policy/builtin.js';
import type { Policy } from '../policy/schema.js';
import type { RecordTable } from '../metrics/table.js';
import type { RunInput } from '../runs/load.js';
import { scopeMetric } from '../runs/metrics-file.js';
import type { RunComparer } from './compare.js';
import type { CheckResult, Comparison } from './types.js';

/*
 * The built-in failure-rate check (src/policy/builtin.ts) at the gate: it runs when both runs are
 * records files (a paired comparison of their calls), as one more blocking regression check, so its
 * test joins the blocking family. When neither run failed a call on the shared instances it is decided
 * here, a pass outside the family: every resample's difference is 0, so its p-value is 1 whatever
 * happens, and a test that cannot reject costs the others nothing (Tarone 1990); nor has it a spread
 * from which to say what it could see.
 */

const { metric } = FAILURE_RATE_CHECK;

/** The checks a gate runs: the policy's, then the built-in ones that test something. */
export interface GateChecks {
  /** The policy with the built-in checks that test something added after its own. */
  policy: Policy;
  /** The built-in failure-rate comparison when neither run failed on the shared instances. */
  trivial?: Comparison;
}

/** The comparison of two runs of which neither failed a call on the shared instances; undefined if one did. */
function noFailures(comparer: RunComparer, candidate: RecordTable, baseline: RecordTable): Comparison | undefined {
  const shared = comparer.sharedInstances(FAILURE_RATE_CHECK.scenario) ?? 0;
  if (shared === 0) return undefined; // nothing compared: the check errors as any regression check does
  if (candidate.commonFailure || baseline.commonFailure) {
    // Some call failed somewhere: only the comparison says whether on the shared instances.
    const comparison = comparer.compare(metric, FAILURE_RATE_CHECK.scenario, 'lower');
    return comparison && comparison.candidate === 0 && comparison.baseline === 0 ? comparison : undefined;
  }
  return { method: 'paired', candidate: 0, baseline: 0, change: 0, worsening: 0, sd: 0, shared, ci: [0, 0] };
}

/** What the gate runs: the built-in check joins when both runs are records files and the policy has no error_rate check. */
export function gateChecks(
  policy: Policy,
  comparer: RunComparer | undefined,
  candidate: RunInput,
  baseline: RunInput | undefined,
): GateChecks {
  const builtins = builtinChecks(policy);
  if (!comparer || builtins.length === 0 || candidate.kind !== 'records' || baseline?.kind !== 'records') return { policy };
  const trivial = noFailures(comparer, candidate.table, baseline.table);
  return trivial ? { policy, trivial } : { policy: { ...policy, checks: [...policy.checks, ...builtins] } };
}

/** The built-in check's pass when neither run failed a call on the shared instances. */
function trivialPass(comparison: Comparison, candidateMetrics: MetricsReport): CheckResult {
  const { dimension, direction } = lookupMetric(metric)!;
  const candidate = scopeMetric(candidateMetrics, FAILURE_RATE_CHECK.scenario, metric);
  return {
    check: FAILURE_RATE_CHECK,
    scope: scopeOf(FAILURE_RATE_CHECK.scenario),
    dimension,
    direction,
    status: 'pass',
    reasons: [`no failed call in either run on the ${comparison.shared} shared instances: nothing to test`],
    flags: [],
    ...(candidate ? { candidate } : {}),
    comparison,
    budget: { value: 0, from: 'the check' },
    test: 'regression',
    builtin: true,
  };
}

/** The checks' results with the built-in ones marked, and the trivial built-in pass after them. */
export function withBuiltinResults(checks: CheckResult[], gate: GateChecks, candidateMetrics: MetricsReport): CheckResult[] {
  const marked = checks.map((result) => (isBuiltin(result.check) ? { ...result, builtin: true } : result));
  return gate.trivial ? [...marked, trivialPass(gate.trivial, candidateMetrics)] : marked;
}
