import { pairedBootstrap, type PairedDifference } from '../stats/bootstrap.js';
import { deriveSeed } from '../stats/random.js';
import { DEFAULT_COMPUTE_OPTIONS, isTotal, subsetSizeFor, type ComputeOptions, type ScenarioName } from './compute.js';
import { OVERALL, sharedScopes, type Scope } from './scope.js';
import { ScopeStatistics, type Statistic } from './statistics.js';
import type { RecordTable } from './table.js';

/*
 * Paired comparisons of two runs on the instances they share. Per scope, the shared numbering and
 * both runs' collections are made once for every metric compared there. Each metric prepares only
 * the statistic that has it (no sorts or sums for metrics not compared), on the whole scope and per
 * little-bootstrap subset, a subset's from the slots the scope's collection holds (its own seed
 * draws its own subsets, so they cannot be shared).
 */

export interface MetricComparison extends PairedDifference {
  /** Instances present in both runs, the only ones compared. */
  shared: number;
  /** The fewer of the two runs' records (or instances) the metric rests on, within the shared instances. */
  population: number;
  /** The metric of each run on the shared instances. */
  candidateValue: number;
  baselineValue: number;
}

/** One metric as a function of instance weights (NaN where the statistics lack it), and its n (0 where they lack it). */
function metricOf(statistics: Statistic[], metric: string): { evaluate: (weights: Float64Array) => number; n: number } {
  let value: { statistic: Statistic; index: number } | undefined;
  let n: number | undefined;
  for (const statistic of statistics) {
    const index = statistic.metrics.findIndex((info) => info.metric === metric);
    if (index < 0) continue;
    value = { statistic, index }; // a name found twice: the value is the last one's, n the first's
    n ??= statistic.metrics[index].n;
  }
  return { evaluate: value ? (weights) => value.statistic.evaluate(weights)[value.index] : () => NaN, n: n ?? 0 };
}

/** Both runs' scopes restricted to the instances they share, and their collections (made on the first comparison). */
interface PairedScope {
  candidate: Scope;
  baseline: Scope;
  shared: number;
  /** Both runs' collections, the statistics of the scope and of its subsets made from them. */
  prepared?: { candidate: ScopeStatistics; baseline: ScopeStatistics };
}

/** Two records runs compared metric by metric and scope by scope, each scope's shared instances found once. */
export class PairedRuns {
  private readonly scopes = new Map<ScenarioName, PairedScope>();
  /** Each comparison made, by scope and metric: a gate may make them ahead (gate/evaluate.ts compareAhead). */
  private readonly comparisons = new Map<string, MetricComparison | undefined>();

  constructor(
    private readonly candidate: RecordTable,
    private readonly baseline: RecordTable,
    private readonly options: ComputeOptions = DEFAULT_COMPUTE_OPTIONS,
  ) {}

  /** How many instances of the scope both runs have. */
  shared(scenario: ScenarioName): number {
    return this.scopeOf(scenario).shared;
  }

  /**
   * candidate - baseline for one metric, by paired bootstrap over the instances the two runs share.
   * Undefined when the metric cannot be computed on the shared instances of both runs.
   */
  compare(metric: string, scenario: ScenarioName): MetricComparison | undefined {
    const key = JSON.stringify([scenario ?? null, metric]);
    if (!this.comparisons.has(key)) this.comparisons.set(key, this.compareOnce(metric, scenario));
    return this.comparisons.get(key);
  }

  private compareOnce(metric: string, scenario: ScenarioName): MetricComparison | undefined {
    const { options } = this;
    const { scopes, prepared, candidateMetric, baselineMetric, candidateValue, baselineValue } = this.onShared(metric, scenario);
    if (Number.isNaN(candidateValue) || Number.isNaN(baselineValue)) return undefined;
    const full = { candidate: candidateMetric.evaluate, baseline: baselineMetric.evaluate };
    const onSubset = (subset: Int32Array) => ({
      candidate: metricOf(prepared.candidate.subset(subset, metric), metric).evaluate,
      baseline: metricOf(prepared.baseline.subset(subset, metric), metric).evaluate,
    });
    const populations = [candidateMetric.n, baselineMetric.n];
    const comparison = pairedBootstrap((subset) => (subset ? onSubset(subset) : full), scopes.shared, {
      resamples: options.resamples,
      seed: deriveSeed(options.seed, `${scenario ?? OVERALL}\u0000${metric}`),
      subsetSize: subsetSizeFor(scopes.shared, populations),
      extensive: () => isTotal(metric), // the difference and the baseline alike
    });
    return { ...comparison, shared: scopes.shared, population: Math.min(...populations), candidateValue, baselineValue };
  }

  /**
   * Why `compare` gives nothing, run by run: which lacks the metric on the shared instances, and
   * whether the baseline answered any of them (a row that is not a failed call).
   */
  lacking(metric: string, scenario: ScenarioName): { candidate: boolean; baseline: boolean; baselineAnswered: boolean } {
    const { scopes, candidateValue, baselineValue } = this.onShared(metric, scenario);
    const { failed } = this.baseline;
    return {
      candidate: Number.isNaN(candidateValue),
      baseline: Number.isNaN(baselineValue),
      baselineAnswered: scopes.baseline.rows.some((row) => failed[row] === 0),
    };
  }

  /** Both runs' statistics of the metric on the shared instances of the scope, and its value in each. */
  private onShared(metric: string, scenario: ScenarioName) {
    const { candidate, baseline, options } = this;
    const scopes = this.scopeOf(scenario);
    const prepared = (scopes.prepared ??= {
      candidate: new ScopeStatistics(candidate, scopes.candidate, options),
      baseline: new ScopeStatistics(baseline, scopes.baseline, options),
    });
    const candidateMetric = metricOf(prepared.candidate.prepare(metric), metric);
    const baselineMetric = metricOf(prepared.baseline.prepare(metric), metric);
    const ones = new Float64Array(scopes.shared).fill(1);
    return {
      scopes,
      prepared,
      candidateMetric,
      baselineMetric,
      candidateValue: candidateMetric.evaluate(ones),
      baselineValue: baselineMetric.evaluate(ones),
    };
  }

  private scopeOf(scenario: ScenarioName): PairedScope {
    let scope = this.scopes.get(scenario);
    if (!scope) this.scopes.set(scenario, (scope = sharedScopes(this.candidate, this.baseline, scenario)));
    return scope;
  }
}

/** One comparison of two runs (PairedRuns compares many, sharing the scopes). */
export function compareMetric(
  candidate: RecordTable,
  baseline: RecordTable,
  metric: string,
  scenario: ScenarioName,
  options: ComputeOptions = DEFAULT_COMPUTE_OPTIONS,
): MetricComparison | undefined {
  return new PairedRuns(candidate, baseline, options).compare(metric, scenario);
}
