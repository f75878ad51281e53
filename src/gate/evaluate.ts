import { compareMetric, computeMetrics, type ComputeOptions, type MetricsReport, type MetricValue } from '../metrics/compute.js';
import { lookupMetric, type Dimension, type Direction } from '../metrics/registry.js';
import type { Budget, Check, Policy } from '../policy/schema.js';
import { OVERALL, sharedScopes } from '../metrics/scope.js';
import { KIND_ORIGINAL, type RecordTable } from '../metrics/table.js';
import { scopeMetrics, type RunInput } from './inputs.js';

/*
 * The decision. Each check ends pass, fail, warn (a failed check of severity warn), skipped (a
 * regression budget without a baseline to compare with; absolute bounds still apply), error (the
 * metric is missing from the candidate, or a baseline shares no instance with it in the check's scope)
 * or off. The verdict fails closed: any blocking failure or error fails it. Coverage
 * (settings.coverage) adds one more condition: a candidate that answered fewer of the baseline's
 * instances than the policy asks (missing, or failed calls) warns, or fails.
 */

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skipped' | 'error' | 'off';
export type Verdict = 'pass' | 'warn' | 'fail';

/** How the candidate was compared with the baseline. */
export interface Comparison {
  /** paired: bootstrap over shared instance ids; summary: point estimates of metrics files. */
  method: 'paired' | 'summary';
  candidate: number;
  baseline: number;
  /** candidate - baseline */
  change: number;
  /** The change in the bad direction (positive = worse). */
  worsening: number;
  /** One-sided p-value that the worsening is above 0 (paired only). */
  pWorse?: number;
  /** One-sided p-value that the improvement is above 0 (paired only). */
  pBetter?: number;
  /** Instances compared (paired only). */
  shared?: number;
  /** 95% interval of the change (paired only). */
  ci?: [number, number];
}

export interface CheckResult {
  check: Check;
  scope: string;
  dimension: Dimension;
  direction: Direction;
  status: CheckStatus;
  candidate?: MetricValue;
  comparison?: Comparison;
  /** The regression budget in effect, in the metric's unit, and where it came from. */
  budget?: { value: number; from: string };
  /** Why the check ended as it did, one short sentence each. */
  reasons: string[];
}

export interface TradeoffResult {
  name: string;
  applied: boolean;
  reasons: string[];
}

/** How many of the baseline's instances (scenario and id) the candidate answered (its original record, not a failed call). */
export interface CoverageResult {
  status: 'pass' | 'warn' | 'fail';
  baselineInstances: number;
  covered: number;
  /** The policy's least share. */
  min: number;
  /** A few of the instances the candidate lacks, "scenario/id". */
  missing: string[];
  reason: string;
}

export interface GateResult {
  verdict: Verdict;
  checks: CheckResult[];
  tradeoffs: TradeoffResult[];
  /** Present when both runs are records files and the policy checks coverage. */
  coverage?: CoverageResult;
  /** False when there was no baseline: regression budgets were skipped. */
  hasBaseline: boolean;
  /** Every metric of the candidate, with intervals. */
  candidateMetrics: MetricsReport;
}

/** A metric's direction and dimension: the registry's, or what the policy states for a metric from another tool. */
function metricMeta(policy: Policy, metric: string, termDirection?: Direction): { direction: Direction; dimension: Dimension } {
  const known = lookupMetric(metric);
  if (known) return known;
  const check = policy.checks.find((candidate) => candidate.metric === metric && candidate.direction !== undefined);
  return { direction: termDirection ?? check!.direction!, dimension: check?.dimension ?? 'accuracy' };
}

/** One key per (metric, scope). */
const keyOf = (metric: string, scenario: string | undefined) => `${scenario ?? ''}\u0000${metric}`;

function budgetValue(budget: Budget, baseline: number): number {
  return typeof budget === 'number' ? budget : (Number.parseFloat(budget) / 100) * Math.abs(baseline);
}

const computed = new WeakMap<RunInput, Map<string, MetricsReport>>();
/** A run's metrics, computed once per run and options (several policies may gate one run). */
function computeMetricsOf(run: RunInput, options: ComputeOptions): MetricsReport {
  if (run.kind === 'metrics') return run.report;
  let byOptions = computed.get(run);
  if (!byOptions) computed.set(run, (byOptions = new Map()));
  const key = JSON.stringify(options);
  let report = byOptions.get(key);
  if (!report) byOptions.set(key, (report = computeMetrics(run.table, options)));
  return report;
}

/** Compares one metric of the two runs: paired on shared instances when both have records. */
function compare(candidate: RunInput, baseline: RunInput, metric: string, scenario: string | undefined, options: ComputeOptions, direction: Direction): Comparison | undefined {
  const sign = direction === 'higher' ? -1 : 1; // worsening = sign * change
  if (candidate.kind === 'records' && baseline.kind === 'records') {
    const paired = compareMetric(candidate.table, baseline.table, metric, scenario, options);
    if (!paired) return undefined;
    return {
      method: 'paired',
      candidate: paired.candidateValue,
      baseline: paired.baselineValue,
      change: paired.difference,
      worsening: sign * paired.difference,
      pWorse: direction === 'higher' ? paired.pBelow : paired.pAbove,
      pBetter: direction === 'higher' ? paired.pAbove : paired.pBelow,
      shared: paired.shared,
      ci: paired.ci,
    };
  }
  // Point estimates; the baseline's intervals are not needed.
  const candidateValue = scopeMetrics(computeMetricsOf(candidate, options), scenario)?.[metric]?.value;
  const baselineValue = scopeMetrics(computeMetricsOf(baseline, { ...options, resamples: 0 }), scenario)?.[metric]?.value;
  if (candidateValue === undefined || baselineValue === undefined) return undefined;
  const change = candidateValue - baselineValue;
  return { method: 'summary', candidate: candidateValue, baseline: baselineValue, change, worsening: sign * change };
}

type Outcome = { severity: string; status: CheckStatus };

/**
 * What the checks' outcomes add up to (coverage counts as one check): `blocking`, blocking checks that
 * failed or errored; `warnings`, warn checks that failed or errored; `failed`, all that failed or
 * errored, whatever their severity.
 */
export function countOutcomes(checks: Outcome[], coverage?: CoverageResult['status']): { blocking: number; warnings: number; failed: number } {
  const count = (matches: (check: Outcome) => boolean) => checks.filter(matches).length;
  const failedOrErrored = (check: Outcome) => check.status === 'fail' || check.status === 'error';
  return {
    blocking: count((check) => check.severity === 'block' && failedOrErrored(check)) + (coverage === 'fail' ? 1 : 0),
    warnings: count((check) => check.status === 'warn' || (check.severity !== 'block' && check.status === 'error')) + (coverage === 'warn' ? 1 : 0),
    failed: count(failedOrErrored) + (coverage === 'fail' ? 1 : 0),
  };
}

/** The verdict, failing closed: fail if anything blocking failed or errored, else warn if anything warned, else pass. */
export function decideVerdict(checks: Outcome[], coverage?: CoverageResult['status']): Verdict {
  const { blocking, warnings } = countOutcomes(checks, coverage);
  return blocking > 0 ? 'fail' : warnings > 0 ? 'warn' : 'pass';
}

const MISSING_SHOWN = 5;

/** Instances with an answered original record (not a perturbed variant, not a failed call). */
function answeredInstances(table: RecordTable): Set<string> {
  const answered = new Set<string>();
  for (let row = 0; row < table.size; row++) {
    if (table.kind[row] === KIND_ORIGINAL && table.failed[row] === 0) answered.add(table.instanceKeys[table.instanceOf[row]]);
  }
  return answered;
}

/** The candidate's coverage of the baseline's instances, when both are records files. */
function coverageOf(candidate: RunInput, baseline: RunInput | undefined, setting: Policy['settings']['coverage']): CoverageResult | undefined {
  if (setting.severity === 'off' || candidate.kind !== 'records' || baseline?.kind !== 'records') return undefined;
  const answered = answeredInstances(candidate.table);
  const missing = baseline.table.instanceKeys.filter((key) => !answered.has(key));
  const baselineInstances = baseline.table.instanceKeys.length;
  const covered = baselineInstances - missing.length;
  // In whole instances: 0.07 x 100 is 7.000000000000001 in floating point, and 7 must be enough.
  const enough = covered >= Math.ceil(setting.min * baselineInstances - 1e-9);
  const percent = (share: number) => `${+(share * 100).toFixed(1)}%`;
  const shown = missing.slice(0, MISSING_SHOWN).map((key) => key.replace('\u0000', '/'));
  const more = missing.length > MISSING_SHOWN ? ` and ${missing.length - MISSING_SHOWN} more` : '';
  return {
    status: enough ? 'pass' : setting.severity === 'block' ? 'fail' : 'warn',
    baselineInstances,
    covered,
    min: setting.min,
    missing: shown,
    reason:
      `the candidate answered ${covered} of the baseline's ${baselineInstances} instances (${percent(covered / baselineInstances)}` +
      `${enough ? '' : `, the policy asks at least ${percent(setting.min)}`})${missing.length > 0 ? `; missing or failed: ${shown.join(', ')}${more}` : ''}`,
  };
}

export interface GateInputs {
  policy: Policy;
  candidate: RunInput;
  baseline?: RunInput;
}

/** Decides a candidate against a policy and, if there is one, a baseline. */
export function evaluateGate({ policy, candidate, baseline }: GateInputs): GateResult {
  const { settings } = policy;
  const options: ComputeOptions = { resamples: settings.resamples, seed: settings.seed, minGroupSize: settings.min_group_size };
  const significant = (p: number | undefined) => settings.significance === 'off' || (p !== undefined && p < settings.significance);
  const comparisons = new Map<string, Comparison | undefined>();
  const compareOnce = (metric: string, scenario: string | undefined, direction: Direction) => {
    const key = keyOf(metric, scenario);
    if (!comparisons.has(key) && baseline) comparisons.set(key, compare(candidate, baseline, metric, scenario, options, direction));
    return comparisons.get(key);
  };

  // Trade-offs first: they decide which regression budgets are in effect.
  const relaxed = new Map<string, Array<{ value: Budget; from: string }>>();
  const tradeoffs: TradeoffResult[] = policy.tradeoffs.map((tradeoff) => {
    const reasons: string[] = [];
    let applied = baseline !== undefined;
    if (!baseline) reasons.push('no baseline to measure improvements against');
    for (const term of baseline ? tradeoff.when : []) {
      const label = `${term.metric} (${term.scenario ?? OVERALL})`;
      const comparison = compareOnce(term.metric, term.scenario, metricMeta(policy, term.metric, term.direction).direction);
      if (!comparison) {
        applied = false;
        reasons.push(`${label}: not in both runs`);
        continue;
      }
      const improvement = -comparison.worsening;
      const needed = budgetValue(term.min_improvement, comparison.baseline);
      const real = comparison.method === 'summary' || significant(comparison.pBetter);
      const ok = improvement >= needed && real;
      if (!ok) applied = false;
      const evidence = comparison.pBetter === undefined ? '' : `, p = ${comparison.pBetter.toPrecision(2)}`;
      const moved = improvement >= 0 ? `improved by ${improvement.toPrecision(3)}` : `got worse by ${(-improvement).toPrecision(3)}`;
      reasons.push(`${label} ${moved} (needs an improvement of ${needed.toPrecision(3)}${evidence})${ok ? '' : improvement >= needed ? ': not statistically real' : ': not enough'}`);
    }
    if (applied) {
      for (const term of tradeoff.allow) {
        const key = keyOf(term.metric, term.scenario);
        relaxed.set(key, [...(relaxed.get(key) ?? []), { value: term.max_regression, from: `trade-off "${tradeoff.name}"` }]);
      }
    }
    return { name: tradeoff.name, applied, reasons };
  });

  const candidateMetrics = computeMetricsOf(candidate, options);
  /** Both runs have instances in the scope, but not one in common: nothing can be compared. */
  const sharesNoInstance = (scenario: string | undefined) =>
    candidate.kind === 'records' &&
    baseline?.kind === 'records' &&
    (scenario === undefined || baseline.table.scenarios.includes(scenario)) &&
    sharedScopes(candidate.table, baseline.table, scenario).shared === 0;
  const checks = policy.checks.map((check): CheckResult => {
    const definition = metricMeta(policy, check.metric, check.direction);
    const result: CheckResult = {
      check,
      scope: check.scenario ?? OVERALL,
      dimension: definition.dimension,
      direction: definition.direction,
      status: 'pass',
      reasons: [],
    };
    if (check.severity === 'off') return { ...result, status: 'off', reasons: ['turned off'] };
    const value = scopeMetrics(candidateMetrics, check.scenario)?.[check.metric];
    if (!value) return { ...result, status: 'error', reasons: [`the candidate has no ${check.metric} for ${result.scope}`] };
    result.candidate = value;
    let failed = false;
    if (check.min !== undefined && value.value < check.min) {
      failed = true;
      result.reasons.push(`below the minimum ${check.min}`);
    }
    if (check.max !== undefined && value.value > check.max) {
      failed = true;
      result.reasons.push(`above the maximum ${check.max}`);
    }
    let skipped = false;
    let errored = false;
    if (check.max_regression !== undefined) {
      const comparison = baseline ? compareOnce(check.metric, check.scenario, definition.direction) : undefined;
      if (!comparison && baseline && sharesNoInstance(check.scenario)) {
        // A baseline that cannot be compared at all is an evaluation gone wrong, not a missing baseline.
        failed = true;
        errored = true;
        result.reasons.push('regression not checked: the candidate shares no instance (scenario and id) with the baseline');
      } else if (!comparison) {
        skipped = true;
        result.reasons.push(baseline ? `regression not checked: ${check.metric} is not in both runs` : 'regression not checked: no baseline');
      } else {
        result.comparison = comparison;
        // A trade-off that applies replaces the check's budget; of several, the most generous wins.
        const candidates = relaxed.get(keyOf(check.metric, check.scenario)) ?? [{ value: check.max_regression, from: 'the check' }];
        const budget = candidates
          .map(({ value, from }) => ({ value: budgetValue(value, comparison.baseline), from }))
          .reduce((best, next) => (next.value > best.value ? next : best));
        result.budget = budget;
        if (comparison.worsening > budget.value) {
          if (comparison.method === 'summary' || significant(comparison.pWorse)) {
            failed = true;
            result.reasons.push(`worse than the baseline by ${comparison.worsening.toPrecision(3)}, over the budget ${budget.value.toPrecision(3)}`);
          } else {
            result.reasons.push(`worse by ${comparison.worsening.toPrecision(3)}, over the budget, but not statistically real (p = ${comparison.pWorse!.toPrecision(2)})`);
          }
        }
      }
    }
    if (errored) result.status = 'error';
    else if (failed) result.status = check.severity === 'warn' ? 'warn' : 'fail';
    else if (skipped) result.status = 'skipped';
    return result;
  });

  const coverage = coverageOf(candidate, baseline, settings.coverage);
  const verdict = decideVerdict(
    checks.map((result) => ({ severity: result.check.severity, status: result.status })),
    coverage?.status,
  );
  return { verdict, checks, tradeoffs, ...(coverage ? { coverage } : {}), hasBaseline: baseline !== undefined, candidateMetrics };
}
