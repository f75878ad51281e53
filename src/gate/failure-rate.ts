import type { MetricsReport } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';
import { scopeOf } from '../metrics/names.js';
import { builtinChecks, isBuiltin, JUDGE_UNKNOWN_CHECK } from '../policy/builtin.js';
import type { Check, Policy } from '../policy/schema.js';
import { FAILED_CALL, UNGRADED, type RecordTable } from '../metrics/table.js';
import type { RunInput } from '../runs/load.js';
import { scopeMetric } from '../runs/metrics-file.js';
import type { RunComparer } from './compare.js';
import type { CheckResult, Comparison } from './types.js';

/*
 * The built-in rate checks (src/policy/builtin.ts) at the gate: the failure-rate check, and where a
 * run was judged the judge's unknown-verdict check. They run when both runs are records files (a
 * paired comparison), each as one more blocking regression check, so its test joins the blocking
 * family. When neither run has such a record on the shared instances the check is decided here, a
 * pass outside the family: every resample's difference is 0, so its p-value is 1 whatever happens,
 * and a test that cannot reject costs the others nothing (Tarone 1990); nor has it a spread from which
 * to say what it could see.
 */

/** What a built-in check counts: the rows it counts (a table's `failed` code) and what its trivial pass says. */
const COUNTED: ReadonlyMap<string, { failed: number; none: string }> = new Map([
  ['error_rate', { failed: FAILED_CALL, none: 'no failed call' }],
  [JUDGE_UNKNOWN_CHECK.metric, { failed: UNGRADED, none: 'no unknown verdict or failed judge call' }],
]);

/** The checks a gate runs: the policy's, then the built-in ones that test something. */
export interface GateChecks {
  /** The policy with the built-in checks that test something added after its own. */
  policy: Policy;
  /** The built-in checks' comparisons where neither run had a record they count on the shared instances. */
  trivial: Array<{ check: Check; comparison: Comparison }>;
}

const hasRows = (table: RecordTable, failed: number) => table.failed.includes(failed);

/** The comparison of two runs of which neither has a record the check counts on the shared instances; undefined if one has. */
function nothingCounted(check: Check, comparer: RunComparer, candidate: RecordTable, baseline: RecordTable): Comparison | undefined {
  const shared = comparer.sharedInstances(check.scenario) ?? 0;
  if (shared === 0) return undefined; // nothing compared: the check errors as any regression check does
  const { failed } = COUNTED.get(check.metric)!;
  if (hasRows(candidate, failed) || hasRows(baseline, failed)) {
    // Some record counts somewhere: only the comparison says whether on the shared instances.
    const comparison = comparer.compare(check.metric, check.scenario, 'lower');
    return comparison && comparison.candidate === 0 && comparison.baseline === 0 ? comparison : undefined;
  }
  return { method: 'paired', candidate: 0, baseline: 0, change: 0, worsening: 0, sd: 0, shared, ci: [0, 0] };
}

/** What the gate runs: the built-in checks join when both runs are records files and the policy does not check their metrics. */
export function gateChecks(
  policy: Policy,
  comparer: RunComparer | undefined,
  candidate: RunInput,
  baseline: RunInput | undefined,
): GateChecks {
  if (!comparer || candidate.kind !== 'records' || baseline?.kind !== 'records') return { policy, trivial: [] };
  const judged = candidate.table.judge.some((code) => code !== 0) || baseline.table.judge.some((code) => code !== 0);
  const trivial: GateChecks['trivial'] = [];
  const tested: Check[] = [];
  for (const check of builtinChecks(policy, judged)) {
    const comparison = nothingCounted(check, comparer, candidate.table, baseline.table);
    if (comparison) trivial.push({ check, comparison });
    else tested.push(check);
  }
  return { policy: tested.length > 0 ? { ...policy, checks: [...policy.checks, ...tested] } : policy, trivial };
}

/** A built-in check's pass when neither run had a record it counts on the shared instances. */
function trivialPass(check: Check, comparison: Comparison, candidateMetrics: MetricsReport): CheckResult {
  const { metric } = check;
  const { dimension, direction } = lookupMetric(metric)!;
  const candidate = scopeMetric(candidateMetrics, check.scenario, metric);
  return {
    check,
    scope: scopeOf(check.scenario),
    dimension,
    direction,
    status: 'pass',
    reasons: [`${COUNTED.get(metric)!.none} in either run on the ${comparison.shared} shared instances: nothing to test`],
    flags: [],
    ...(candidate ? { candidate } : {}),
    comparison,
    budget: { value: 0, from: 'the check' },
    test: 'regression',
    builtin: true,
  };
}

/** The checks' results with the built-in ones marked, and the trivial built-in passes after them. */
export function withBuiltinResults(checks: CheckResult[], gate: GateChecks, candidateMetrics: MetricsReport): CheckResult[] {
  const marked = checks.map((result) => (isBuiltin(result.check) ? { ...result, builtin: true } : result));
  return [...marked, ...gate.trivial.map(({ check, comparison }) => trivialPass(check, comparison, candidateMetrics))];
}
