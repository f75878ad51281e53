import { bootstrapSamples, DEFAULT_RESAMPLES, DEFAULT_SEED, percentileInterval, type Estimator } from '../stats/bootstrap.js';
import { dictionary } from '../records/dictionary.js';
import { wilsonInterval } from '../stats/proportion.js';
import { deriveSeed } from '../stats/random.js';
import { MAX_INTERVAL_SCENARIOS } from '../limits.js';
import { scopeNamed, scopesOf, type Scope } from './scope.js';
import { METRICS, lookupMetric } from './registry.js';
import { isGroupAccuracy } from './names.js';
import { componentShape, metricComponents, type MetricComponents } from './bound-components.js';
import { DEFAULT_MIN_GROUP_SIZE, ScopeStatistics, type MetricOptions, type Statistic } from './statistics.js';
import type { MetricSet, MetricsReport, MetricValue } from './report.js';
import type { MetricsTable } from './table.js';

export type { MetricComponents } from './bound-components.js';
export { LITTLE_BOOTSTRAP_SUBSETS } from '../stats/bootstrap.js';

/** What the engine computes: the JSON of `evalgate metrics --json`, typed by its schema. */
export type { MetricSet, MetricsReport, MetricValue } from './report.js';

export interface ComputeOptions extends MetricOptions {
  resamples: number;
  seed: number;
}

export const DEFAULT_COMPUTE_OPTIONS: ComputeOptions = {
  resamples: DEFAULT_RESAMPLES,
  seed: DEFAULT_SEED,
  minGroupSize: DEFAULT_MIN_GROUP_SIZE,
};

/** Scopes of up to this many instances get the plain bootstrap; larger ones the bag of little bootstraps. */
export const PLAIN_BOOTSTRAP_MAX_INSTANCES = 500;
/** Whether a metric sums over the instances rather than averages: its value grows with the instance count. */
export const isTotal = (metric: string) => metric === 'cost_usd_total' || metric === 'judge_cost_usd_total';
/** A little-bootstrap subset should hold at least this many records of every metric, on average. */
const MIN_RECORDS_PER_SUBSET = 50;

/**
 * Instances per little-bootstrap subset: n^0.7 (Kleiner et al.), at least PLAIN_BOOTSTRAP_MAX_INSTANCES,
 * and large enough that the metric resting on the fewest records still has MIN_RECORDS_PER_SUBSET of
 * them per subset on average; n (the plain bootstrap) for small scopes.
 */
export function subsetSizeFor(instanceCount: number, populations: number[]): number {
  if (instanceCount <= PLAIN_BOOTSTRAP_MAX_INSTANCES) return instanceCount;
  const smallest = Math.max(1, Math.min(...populations));
  const size = Math.max(
    Math.ceil(instanceCount ** 0.7),
    PLAIN_BOOTSTRAP_MAX_INSTANCES,
    Math.ceil((MIN_RECORDS_PER_SUBSET * instanceCount) / smallest),
  );
  return Math.min(size, instanceCount);
}

/** Metrics whose intervals decide the subset size: all but the groups too small to be gated on as a group. */
function gatedPopulations(statistics: Statistic[], options: MetricOptions): number[] {
  return statistics.flatMap((statistic) =>
    statistic.metrics.filter(({ metric, n }) => !(isGroupAccuracy(metric) && n < options.minGroupSize)).map(({ n }) => n),
  );
}

/** Each metric's bootstrap values (NaN resamples left out), laid out as a MetricsReport. */
export interface MetricSamples {
  overall: Record<string, Float64Array>;
  scenarios: Record<string, Record<string, Float64Array>>;
}

/** One scope's metrics, with intervals unless computed without resamples, and the resampled values behind them when kept. */
export interface ScopeMetrics {
  metrics: MetricSet;
  intervals: boolean;
  samples?: Record<string, Float64Array>;
  /** Instances per little-bootstrap subset (the instance count: the plain bootstrap). */
  subsetSize: number;
}

/** The metrics of one scope, with their intervals (none for 0 resamples), and the resampled values the intervals come from. */
function metricsOfScope(table: MetricsTable, scope: Scope, options: ComputeOptions, keepSamples: boolean): ScopeMetrics {
  const scopeStatistics = new ScopeStatistics(table, scope, options);
  const statistics = scopeStatistics.prepare();
  const ones = new Float64Array(scope.instanceCount).fill(1);
  const values = statistics.map((statistic) => statistic.evaluate(ones));
  const factory = (subset?: Int32Array): Estimator[] => {
    if (!subset) return statistics;
    const prepared = scopeStatistics.subset(subset);
    if (sameMetrics(prepared, statistics)) return prepared;
    // The subset lacks a metric the scope has (or orders them otherwise): align, undefined where missing.
    return statistics.map((statistic) =>
      alignedEstimator(
        statistic.metrics.map(({ metric }) => metric),
        prepared,
      ),
    );
  };
  const subsetSize = subsetSizeFor(scope.instanceCount, gatedPopulations(statistics, options));
  const samples =
    options.resamples > 0
      ? bootstrapSamples(factory, values, scope.instanceCount, {
          ...scopeBootstrap(scope, options),
          subsetSize,
          extensive: (s, k) => isTotal(statistics[s].metrics[k].metric),
        })
      : undefined;
  const found: Array<[string, MetricValue]> = [];
  const resampled = dictionary<Float64Array>();
  statistics.forEach((statistic, s) => {
    statistic.metrics.forEach(({ metric, n }, k) => {
      if (Number.isNaN(values[s][k])) return;
      const ci =
        samples &&
        (WILSON_METRICS.has(metric)
          ? wilsonInterval(values[s][k] * n, n)
          : metric === 'judge_corrected_accuracy'
            ? definedPercentileInterval(samples[s][k], options.resamples)
            : percentileInterval(samples[s][k]));
      found.push([metric, { value: values[s][k], ci: clipped(metric, ci), n }]);
      // A correction undefined in too many resamples to give an interval gives a bound none to test on either.
      const tellsNothing = metric === 'judge_corrected_accuracy' && !ci;
      if (samples && keepSamples && !tellsNothing) resampled[metric] = samples[s][k];
    });
  });
  const metrics = dictionary(sortByRegistry(found));
  return { metrics, intervals: options.resamples > 0, subsetSize, ...(keepSamples ? { samples: resampled } : {}) };
}

/**
 * The judge's agreement with people, with itself, and its order flips and length bias: shares of records
 * that are each 1 or 0, whose intervals are Wilson's (docs/statistics.md, "The judge's agreement"), good on
 * the few dozen labels a suite has; the resamples are kept for the gate's tests. The win rate (ties count
 * half) keeps the bootstrap's interval.
 */
const WILSON_METRICS = new Set([
  'judge_agreement',
  'judge_tpr',
  'judge_tnr',
  'judge_self_agreement',
  'judge_flip_rate',
  'judge_longer_wins_rate',
]);

/**
 * The percentile interval of a metric that some resamples leave undefined (the Rogan-Gladen correction,
 * where a resample's judge is no better than chance on its labels, or lacks a kind of label): over the
 * defined resamples (`samples`: bootstrapSamples leaves the others out), and none at all when more than
 * 5% of the `resamples` are undefined (too few labels to tell). docs/statistics.md.
 */
function definedPercentileInterval(samples: Float64Array, resamples: number): [number, number] | undefined {
  return samples.length >= 0.95 * resamples ? percentileInterval(samples) : undefined;
}

/** A scope's resamples: its own seed, so that its numbers do not depend on which other scopes are computed. */
const scopeBootstrap = (scope: Scope, options: ComputeOptions) => ({
  resamples: options.resamples,
  seed: deriveSeed(options.seed, scope.name),
});

/**
 * An interval within the values the metric can take: the little bootstrap shifts resamples, which can
 * carry a bound of, say, a gap that is near 0 below 0.
 */
function clipped(metric: string, ci: [number, number] | undefined): [number, number] | null {
  if (!ci) return null;
  const [low, high] = lookupMetric(metric)!.range;
  return [Math.min(Math.max(ci[0], low), high), Math.min(Math.max(ci[1], low), high)];
}

function sameMetrics(a: Statistic[], b: Statistic[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (statistic, s) =>
        statistic.metrics.length === b[s].metrics.length && statistic.metrics.every(({ metric }, k) => metric === b[s].metrics[k].metric),
    )
  );
}

/** An estimator of the named metrics, each computed by whichever of `prepared` has it (NaN if none). */
function alignedEstimator(metrics: string[], prepared: Statistic[]): Estimator {
  // By name, in one pass: a scope may have thousands of metrics (a group each).
  const where = new Map<string, { statistic: number; index: number }>();
  prepared.forEach((statistic, s) => statistic.metrics.forEach(({ metric }, index) => where.set(metric, { statistic: s, index })));
  const sources = metrics.map((metric) => where.get(metric));
  const needed = prepared.map((_, statistic) => sources.some((source) => source?.statistic === statistic));
  return {
    evaluate(weights) {
      const values = prepared.map((statistic, s) => (needed[s] ? statistic.evaluate(weights) : undefined));
      return sources.map((source) => (source ? values[source.statistic]![source.index] : NaN));
    },
  };
}

/**
 * Every metric overall and per scenario, with its confidence interval: overall and the first
 * MAX_INTERVAL_SCENARIOS scenarios (all of them, usually); the others' are point estimates, and the
 * report says how many.
 */
export function computeMetrics(table: MetricsTable, options: ComputeOptions = DEFAULT_COMPUTE_OPTIONS): MetricsReport {
  return new RunMetrics(table, options).report();
}

/** A scope named by its scenario; undefined for the pooled scope (a scenario may be called "overall"). */
export type ScenarioName = string | undefined;

/** Scopes as computed, each with its scenario (undefined: pooled). */
export type ScopeEntries = Array<[ScenarioName, ScopeMetrics]>;

/**
 * A run's metrics, one scope at a time, each computed when first needed and then kept: what a gate
 * reads (the scopes its checks name, with intervals and the resampled values behind them) costs those
 * scopes' bootstraps, not every scenario's. Same numbers, to the last bit, in whatever order scopes are
 * computed: each scope's bootstrap has its own seed.
 */
export class RunMetrics {
  private readonly scopes = new Map<ScenarioName, ScopeMetrics>();
  private readonly reports = new Map<string, MetricsReport>();
  private readonly components = new Map<string, MetricComponents | undefined>();

  constructor(
    private readonly table: MetricsTable,
    private readonly options: ComputeOptions,
  ) {}

  /**
   * Every scope's metrics: the pooled scope and the `named` scenarios with intervals (and their
   * resampled values kept), the other scenarios with intervals in order of first appearance until
   * MAX_INTERVAL_SCENARIOS scenarios have them, the rest point estimates only.
   */
  report(named: ScenarioName[] = []): MetricsReport {
    const key = JSON.stringify([...new Set(named)].map((name) => name ?? null).sort());
    let report = this.reports.get(key);
    if (!report) this.reports.set(key, (report = this.compute(new Set(named))));
    return report;
  }

  /** The resampled values behind the intervals of the `named` scopes (pooled: undefined) the run has. */
  samples(named: ScenarioName[]): MetricSamples {
    const samples: MetricSamples = { overall: dictionary(), scenarios: dictionary() };
    for (const scenario of new Set(named)) {
      const values = this.withSamples(scenario)?.samples;
      if (values === undefined) continue;
      if (scenario === undefined) samples.overall = values;
      else samples.scenarios[scenario] = values;
    }
    return samples;
  }

  /** One scope's metrics, point estimates at least (those known with intervals too); undefined for a scenario the run lacks. */
  pointEstimates(scenario: ScenarioName): MetricSet | undefined {
    if (scenario !== undefined && !this.table.scenarios.includes(scenario)) return undefined;
    return this.metricsOf(scenario, () => scopeNamed(this.table, scenario), false, false).metrics;
  }

  /** One scope's metrics with intervals and the resampled values behind them; undefined for a scenario the run lacks. */
  withSamples(scenario: ScenarioName): { metrics: MetricSet; samples: Record<string, Float64Array> } | undefined {
    if (scenario !== undefined && !this.table.scenarios.includes(scenario)) return undefined;
    const { metrics, samples = dictionary() } = this.metricsOf(scenario, () => scopeNamed(this.table, scenario), true, true);
    return { metrics, samples };
  }

  /**
   * The components a bound test on a biased metric reads (bound-components.ts), on the same resamples
   * as the metric's interval; undefined for another metric, without resamples, or where the scope lacks it.
   */
  boundComponents(scenario: ScenarioName, metric: string): MetricComponents | undefined {
    if (componentShape(metric) === undefined || this.options.resamples === 0 || !this.withSamples(scenario)) return undefined;
    const key = JSON.stringify([scenario ?? null, metric]);
    if (!this.components.has(key)) {
      const scope = scopeNamed(this.table, scenario);
      const { subsetSize } = this.scopes.get(scenario)!;
      const bootstrap = { ...scopeBootstrap(scope, this.options), subsetSize };
      this.components.set(key, metricComponents(this.table, scope, this.options, metric, bootstrap));
    }
    return this.components.get(key);
  }

  /**
   * The scopes `report(named)` computes, as they are when computed: a worker thread's work
   * (pipeline/metrics-thread.ts), adopted by the RunMetrics of the same table and options in the main thread.
   */
  computeScopes(named: ScenarioName[]): ScopeEntries {
    const entries: ScopeEntries = [];
    this.eachScope(new Set(named), (scenario, computed) => entries.push([scenario, computed]));
    return entries;
  }

  /** Scopes computed elsewhere (computeScopes) on the same records and options: kept as if computed here. */
  adopt(entries: ScopeEntries): void {
    for (const [scenario, computed] of entries) {
      if (this.scopes.has(scenario)) continue;
      // A thread's copy: names from data go back into prototype-free objects (records/dictionary.ts).
      const { metrics, samples, ...rest } = computed;
      this.scopes.set(scenario, {
        ...rest,
        metrics: dictionary(Object.entries(metrics)),
        ...(samples ? { samples: dictionary(Object.entries(samples)) } : {}),
      });
    }
  }

  private compute(named: Set<ScenarioName>): MetricsReport {
    const report: MetricsReport = { overall: dictionary(), scenarios: dictionary() };
    let withoutIntervals = 0;
    this.eachScope(named, (scenario, computed) => {
      if (scenario === undefined) {
        report.overall = computed.metrics;
      } else {
        if (!computed.intervals && this.options.resamples > 0) withoutIntervals++;
        report.scenarios[scenario] = computed.metrics;
      }
    });
    return withoutIntervals > 0 ? { ...report, scenariosWithoutIntervals: withoutIntervals } : report;
  }

  /**
   * Every scope, in order, computed as the report needs it: the pooled scope and the `named` scenarios
   * with intervals (and their resampled values kept), the other scenarios with intervals in order of
   * first appearance until MAX_INTERVAL_SCENARIOS scenarios have them, the rest point estimates.
   */
  private eachScope(named: Set<ScenarioName>, onScope: (scenario: ScenarioName, computed: ScopeMetrics) => void): void {
    const [overall, ...scenarios] = scopesOf(this.table);
    onScope(
      undefined,
      this.metricsOf(undefined, () => overall, true, named.has(undefined)),
    );
    let room = MAX_INTERVAL_SCENARIOS - scenarios.filter((scope) => named.has(scope.name)).length;
    for (const scope of scenarios) {
      const kept = named.has(scope.name);
      onScope(
        scope.name,
        this.metricsOf(scope.name, () => scope, kept || room-- > 0, kept),
      );
    }
  }

  /** One scope's metrics, computed unless they are known with (at least) the intervals and samples asked for. */
  private metricsOf(scenario: ScenarioName, scope: () => Scope, intervals: boolean, keepSamples: boolean): ScopeMetrics {
    const known = this.scopes.get(scenario);
    if (known && (known.intervals || !intervals || this.options.resamples === 0) && (known.samples || !keepSamples)) return known;
    const options = intervals ? this.options : { ...this.options, resamples: 0 };
    const computed = metricsOfScope(this.table, scope(), options, keepSamples);
    this.scopes.set(scenario, computed);
    return computed;
  }
}

/** Orders metrics as the registry lists them; a family's members keep the order they were found in. */
function sortByRegistry(found: Array<[string, MetricValue]>): Array<[string, MetricValue]> {
  const rank = (name: string) => METRICS.indexOf(lookupMetric(name)!);
  return found.sort((a, b) => rank(a[0]) - rank(b[0]));
}
