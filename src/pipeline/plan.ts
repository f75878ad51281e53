import { MetricsMemo, RunComparer, budgetValue, computeOptionsOf, metricMeta, pairedBasis } from '../gate/compare.js';
import { defaultDetect, detectionOf, isUnitMetric, samplesColumns, type SamplesColumns } from '../gate/power.js';
import type { ComputeOptions } from '../metrics/compute.js';
import { UNGRADED } from '../metrics/table.js';
import { scopeLabel, scopeOf } from '../metrics/names.js';
import { splitSamples } from '../metrics/samples-split.js';
import { correctionFactor, familiesOf, familyOf, testOf } from '../policy/family.js';
import type { LoadedPolicy } from '../policy/load.js';
import type { Check } from '../policy/schema.js';
import type { RunInput } from '../runs/load.js';
import { parseKey } from '../records/key.js';
import { own } from '../records/dictionary.js';
import { standardDeviation } from '../stats/bootstrap.js';

/*
 * Sizing a suite before trusting the gate (`evalgate plan`): for each paired regression check, the
 * spread of the comparison, the smallest worsening it sees at 80% power today (MDE80, docs/statistics.md),
 * and how many instances it needs to see what the check must `detect` (stated, or the default) with a
 * margin: MDE80 <= b + 0.85 (detect - b), so that the gate does not call it inconclusive half the time
 * (gate/power.ts PLAN_MARGIN). The spread shrinks as 1 / sqrt(n), so n' = n (sigma / sigma_needed)^2. With a baseline alone the paired spread is unknown: the plan uses
 * sqrt(2) times the baseline's standard error, the spread of two independent runs (conservative: two
 * runs of related models on the same instances are positively correlated, and their paired spread is
 * smaller). With repeated samples, the plan also splits the spread into the part between instances and
 * the noise within examples, which more samples per example shrink (metrics/samples-split.ts, gate/power.ts samplesColumns).
 */

export interface PlanRow extends SamplesColumns {
  metric: string;
  scope: string;
  /** The budget and what the check must detect, in the metric's unit: stated, or the default (detectFrom). */
  budget: number;
  detect: number;
  detectFrom: 'check' | 'default';
  /** The standard error of the comparison, and where it comes from. */
  spread: number;
  spreadFrom: 'paired' | 'sqrt(2) x baseline';
  instances: number;
  /** MDE80, as the gate computes it (gate/power.ts detectionOf); null when the runs show no spread at all. */
  mde: number | null;
  /** Instances needed for MDE80 <= b + 0.85 (detect - b) (null when detect is not above the budget). */
  needed: number | null;
}

export interface PlanProblem {
  metric: string;
  scope: string;
  reason: string;
}

/** The instances of a scope of a run: all of them, or a scenario's. */
function instancesIn(run: Extract<RunInput, { kind: 'records' }>, scenario: string | undefined): number {
  const keys = run.table.instanceKeys;
  return scenario === undefined ? keys.length : keys.filter((key) => parseKey(key).scenario === scenario).length;
}

/** The spread of one check's comparison and the instances it rests on, or why there is none. */
function spreadOf(
  check: Check,
  direction: 'higher' | 'lower',
  baseline: Extract<RunInput, { kind: 'records' }>,
  candidate: RunInput | undefined,
  memo: MetricsMemo,
  options: ComputeOptions,
) {
  if (candidate) {
    const comparison = new RunComparer(candidate, baseline, options, memo).compare(check.metric, check.scenario, direction);
    if (comparison?.method !== 'paired' || comparison.sd === undefined) return { reason: `${check.metric} is not in both runs` };
    const { sd, shared, baseline: value } = comparison;
    return { spread: sd, from: 'paired' as const, instances: shared!, basis: pairedBasis(comparison), value };
  }
  const scope = memo.scopeOf(baseline, options, check.scenario);
  const samples = own(scope?.samples, check.metric);
  const value = own(scope?.metrics, check.metric)?.value;
  if (!samples || samples.length < 2 || value === undefined) return { reason: `the baseline has no ${check.metric} with an interval` };
  return {
    spread: Math.SQRT2 * standardDeviation(samples),
    from: 'sqrt(2) x baseline' as const,
    instances: instancesIn(baseline, check.scenario),
    basis: instancesIn(baseline, check.scenario),
    value,
  };
}

/** The plan of every paired regression check of a policy, on a baseline (and a candidate, for the paired spread). */
export function planSuite(loaded: LoadedPolicy, baseline: RunInput, candidate?: RunInput): { rows: PlanRow[]; problems: PlanProblem[] } {
  const { policy } = loaded;
  if (baseline.kind !== 'records') {
    return { rows: [], problems: [{ metric: '-', scope: '-', reason: 'the baseline is a metrics file: a plan needs its records' }] };
  }
  const options = computeOptionsOf(policy);
  const alpha = policy.settings.significance === 'off' ? 0.05 : policy.settings.significance;
  // The gate tests the built-in failure rate only when a run failed some call, and the judge's unknown
  // verdicts only when a run has one (or a failed judge call): src/gate/failure-rate.ts.
  const records = [baseline, candidate].flatMap((run) => (run?.kind === 'records' ? [run.table] : []));
  const failedCalls = records.some((table) => table.commonFailure !== undefined);
  const ungraded = records.some((table) => table.failed.includes(UNGRADED));
  const families = familiesOf(policy, failedCalls, ungraded);
  const memo = new MetricsMemo();
  const rows: PlanRow[] = [];
  const problems: PlanProblem[] = [];
  for (const check of policy.checks) {
    const family = familyOf(check);
    if (!family || check.max_regression === undefined || testOf(check, policy) !== 'regression') continue;
    const scope = scopeLabel(scopeOf(check.scenario));
    const found = spreadOf(check, metricMeta(policy, check.metric, check.direction).direction, baseline, candidate, memo, options);
    if ('reason' in found) {
      problems.push({ metric: check.metric, scope, reason: found.reason! });
      continue;
    }
    const budget = budgetValue(check.max_regression, found.value);
    const detect = budgetValue(check.detect ?? defaultDetect(check.metric, check.max_regression), found.value);
    const alphaPerTest = alpha / correctionFactor(policy, families[family].length);
    const minInstances = policy.settings.min_shared_instances;
    const { spread, mde, needSpread, instancesNeeded } = detectionOf(
      found.spread,
      { metric: check.metric, detect, budget, alphaPerTest },
      { basis: found.basis, shared: found.instances, minInstances },
    );
    const split = splitSamples(check.metric, check.scenario, baseline.table, candidate?.kind === 'records' ? candidate.table : undefined);
    const context = { instances: found.instances, minInstances, unitMetric: isUnitMetric(check.metric), detect };
    rows.push({
      metric: check.metric,
      scope,
      budget,
      detect,
      detectFrom: check.detect === undefined ? 'default' : 'check',
      spread,
      spreadFrom: found.from,
      instances: found.instances,
      mde,
      needed: instancesNeeded,
      ...samplesColumns(split, found.spread, needSpread, context),
    });
  }
  return { rows, problems };
}
