import { bootstrapSamples, DEFAULT_RESAMPLES, DEFAULT_SEED, pairedBootstrap, percentileInterval, type PairedDifference } from '../stats/bootstrap.js';
import { deriveSeed } from '../stats/random.js';
import { OVERALL, scopesOf, sharedScopes, type Scope } from './scope.js';
import { DEFAULT_MIN_GROUP_SIZE, prepareStatistics, type MetricOptions } from './statistics.js';
import type { RecordTable } from './table.js';

export interface MetricValue {
  value: number;
  /** 95% bootstrap percentile interval; null when no resampling was asked for. */
  ci: [number, number] | null;
  n: number;
}

export type MetricSet = Record<string, MetricValue>;

/** The JSON of `evalgate metrics --json`. */
export interface MetricsReport {
  overall: MetricSet;
  scenarios: Record<string, MetricSet>;
}

export interface ComputeOptions extends MetricOptions {
  resamples: number;
  seed: number;
}

export const DEFAULT_COMPUTE_OPTIONS: ComputeOptions = {
  resamples: DEFAULT_RESAMPLES,
  seed: DEFAULT_SEED,
  minGroupSize: DEFAULT_MIN_GROUP_SIZE,
};

function metricsOfScope(table: RecordTable, scope: Scope, options: ComputeOptions): MetricSet {
  const statistics = prepareStatistics(table, scope, options);
  const ones = new Float64Array(scope.instanceCount).fill(1);
  const samples =
    options.resamples > 0
      ? bootstrapSamples(statistics, scope.instanceCount, { resamples: options.resamples, seed: deriveSeed(options.seed, scope.name) })
      : undefined;
  const metrics: MetricSet = {};
  statistics.forEach((statistic, index) => {
    const value = statistic.evaluate(ones);
    if (Number.isNaN(value)) return;
    metrics[statistic.metric] = { value, ci: (samples && percentileInterval(samples[index])) ?? null, n: statistic.n };
  });
  return metrics;
}

/** Every metric, with its confidence interval, overall and per scenario. */
export function computeMetrics(table: RecordTable, options: ComputeOptions = DEFAULT_COMPUTE_OPTIONS): MetricsReport {
  const [overall, ...scenarios] = scopesOf(table);
  const report: MetricsReport = { overall: metricsOfScope(table, overall, options), scenarios: {} };
  for (const scope of scenarios) report.scenarios[scope.name] = metricsOfScope(table, scope, options);
  return report;
}

export interface MetricComparison extends PairedDifference {
  /** Instances present in both runs, the only ones compared. */
  shared: number;
}

/**
 * candidate - baseline for one metric, by paired bootstrap over the instances the two runs share.
 * Undefined when the metric cannot be computed on the shared instances of both runs.
 */
export function compareMetric(
  candidate: RecordTable,
  baseline: RecordTable,
  metric: string,
  scenario: string | undefined,
  options: ComputeOptions = DEFAULT_COMPUTE_OPTIONS,
): MetricComparison | undefined {
  const scopes = sharedScopes(candidate, baseline, scenario);
  const find = (table: RecordTable, scope: Scope) => prepareStatistics(table, scope, options).find((statistic) => statistic.metric === metric);
  const candidateStatistic = find(candidate, scopes.candidate);
  const baselineStatistic = find(baseline, scopes.baseline);
  if (!candidateStatistic || !baselineStatistic) return undefined;
  const seed = deriveSeed(options.seed, `${scenario ?? OVERALL}\u0000${metric}`);
  const comparison = pairedBootstrap(candidateStatistic, baselineStatistic, scopes.shared, { resamples: options.resamples, seed });
  if (Number.isNaN(comparison.difference)) return undefined;
  return { ...comparison, shared: scopes.shared };
}
