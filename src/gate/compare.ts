import {
  RunMetrics,
  type ComputeOptions,
  type MetricComponents,
  type MetricSamples,
  type MetricSet,
  type MetricsReport,
  type ScenarioName,
  type ScopeEntries,
} from '../metrics/compute.js';
import { lookupMetric, type Dimension, type Direction } from '../metrics/registry.js';
import { scorerMismatch } from '../metrics/comparability.js';
import { PairedRuns } from '../metrics/paired.js';
import { splitSamples, type SamplesSplit } from '../metrics/samples-split.js';
import type { Budget, Policy } from '../policy/schema.js';
import type { RunInput } from '../runs/load.js';
import { own } from '../records/dictionary.js';
import { scopeMetrics } from '../runs/metrics-file.js';
import type { Comparison } from './types.js';

/*
 * Comparing the candidate with the baseline, one metric in one scope at a time: paired on shared
 * instances when both runs are records files, else on point estimates.
 */

type RecordsRun = Extract<RunInput, { kind: 'records' }>;

/** What a policy's settings ask of the metrics: resamples, seed, the smallest group. */
export const computeOptionsOf = ({ settings }: Policy): ComputeOptions => ({
  resamples: settings.resamples,
  seed: settings.seed,
  minGroupSize: settings.min_group_size,
});

/** The value of `key` in `map`, made and kept the first time. */
function cached<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  // Stryker disable next-line ConditionalExpression: `true` makes it again, with the same result; `false` never keeps one and is killed.
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/**
 * The metrics of runs, each scope computed once per run and options: several policies may gate one run.
 * `named`: the scopes (undefined: overall) whose intervals a caller reads, computed first and always
 * (src/metrics/compute.ts: RunMetrics).
 */
export class MetricsMemo {
  private readonly computed = new Map<RunInput, Map<string, RunMetrics>>();
  private readonly pairs = new Map<RunInput, Map<RunInput, Map<string, PairedRuns>>>();
  /** Scopes being computed elsewhere (a worker thread), adopted by `settled`. */
  private readonly elsewhere: Array<{ run: RecordsRun; options: ComputeOptions; scopes: () => Promise<ScopeEntries | undefined> }> = [];

  // Stryker disable next-line ArrayDeclaration: a scope no run has adds nothing to the report.
  of(run: RunInput, options: ComputeOptions, named: ScenarioName[] = []): MetricsReport {
    return run.kind === 'metrics' ? run.report : this.metricsOf(run, options).report(named);
  }

  /** The bootstrap values behind the intervals of a records run's `named` scopes; undefined for a metrics file. */
  samplesOf(run: RunInput, options: ComputeOptions, named: ScenarioName[]): MetricSamples | undefined {
    return run.kind === 'metrics' ? undefined : this.metricsOf(run, options).samples(named);
  }

  /** The components of a bound-tested metric in one scope of a records run (metrics/bound-components.ts); undefined for a metrics file. */
  componentsOf(run: RunInput, options: ComputeOptions, scenario: ScenarioName, metric: string): MetricComponents | undefined {
    return run.kind === 'metrics' ? undefined : this.metricsOf(run, options).boundComponents(scenario, metric);
  }

  /** One scope's metrics: a metrics file's, or a records run's point estimates (nothing else computed). */
  pointEstimates(run: RunInput, options: ComputeOptions, scenario: ScenarioName): MetricSet | undefined {
    return run.kind === 'metrics' ? scopeMetrics(run.report, scenario) : this.metricsOf(run, options).pointEstimates(scenario);
  }

  /** One scope of a records run, with its intervals and the bootstrap values behind them (nothing else computed). */
  scopeOf(run: RecordsRun, options: ComputeOptions, scenario: ScenarioName) {
    return this.metricsOf(run, options).withSamples(scenario);
  }

  /** Two records runs' paired comparisons: their shared scopes and statistics made once, whichever policies compare them. */
  pairedRuns(candidate: RecordsRun, baseline: RecordsRun, options: ComputeOptions): PairedRuns {
    const byBaseline = cached(this.pairs, candidate, () => new Map<RunInput, Map<string, PairedRuns>>());
    const byOptions = cached(byBaseline, baseline, () => new Map<string, PairedRuns>());
    return cached(byOptions, JSON.stringify(options), () => new PairedRuns(candidate.table, baseline.table, options));
  }

  /**
   * Scopes of a records run being computed elsewhere (pipeline/metrics-thread.ts) under `options`:
   * kept as if computed here once `settled` has waited for them (undefined: none came, so they are
   * computed here when read).
   */
  computedElsewhere(run: RecordsRun, options: ComputeOptions, scopes: () => Promise<ScopeEntries | undefined>): void {
    this.elsewhere.push({ run, options, scopes });
  }

  /** Waits for the scopes computed elsewhere and adopts them. */
  async settled(): Promise<void> {
    const waiting = this.elsewhere.splice(0).map(async ({ run, options, scopes }) => {
      const entries = await scopes();
      if (entries) this.metricsOf(run, options).adopt(entries);
    });
    await Promise.all(waiting);
  }

  private metricsOf(run: RecordsRun, options: ComputeOptions): RunMetrics {
    const byOptions = cached(this.computed, run, () => new Map<string, RunMetrics>());
    return cached(byOptions, JSON.stringify(options), () => new RunMetrics(run.table, options));
  }
}

/** A metric's direction and dimension: the registry's, or what the policy states for a metric from another tool. */
export function metricMeta(policy: Policy, metric: string, termDirection?: Direction): { direction: Direction; dimension: Dimension } {
  const known = lookupMetric(metric);
  if (known) return known;
  const check = policy.checks.find((candidate) => candidate.metric === metric && candidate.direction !== undefined);
  const direction = termDirection ?? check?.direction;
  // The policy's validation refuses a metric evalgate does not know without a direction.
  if (direction === undefined) throw new Error(`no direction for the metric ${metric}: the policy was not validated`);
  return { direction, dimension: check?.dimension ?? 'accuracy' };
}

/** A budget in the metric's unit: as given, or a percentage of the baseline's value. */
export function budgetValue(budget: Budget, baseline: number): number {
  return typeof budget === 'number' ? budget : (Number.parseFloat(budget) / 100) * Math.abs(baseline);
}

/** One key per metric and scope (a check's, a trade-off term's). */
export const metricScopeKey = (metric: string, scenario: string | undefined) => JSON.stringify([scenario ?? null, metric]);

/** The resampled worsenings of a paired comparison, and the baseline's value on each resample. */
export interface WorseningSamples {
  worsenings: Float64Array;
  baselines: Float64Array;
}

/** How many instances, or records of the metric (a group's), a paired comparison rests on: the fewer. */
export function pairedBasis(comparison: Comparison): number {
  return Math.min(comparison.shared ?? 0, comparison.population ?? Infinity);
}

/** Whether a p-value is small enough under the policy's significance (always, when it is off). */
export function isSignificant(significance: Policy['settings']['significance'], p: number | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: `undefined < significance` is false too; the test says what is meant.
  return significance === 'off' || (p !== undefined && p < significance);
}

/** "p = 0.031", or "p = 0.012, adjusted 0.048" when the family's correction changed it. */
export function pValueText(p: number, adjusted: number | undefined): string {
  return adjusted === undefined || adjusted === p
    ? `p = ${p.toPrecision(2)}`
    : `p = ${p.toPrecision(2)}, adjusted ${adjusted.toPrecision(2)}`;
}

/**
 * Why a paired comparison rests on too little to mean anything, if it does: fewer shared instances, or
 * records of the metric within them (a group's), than settings.min_shared_instances.
 */
export function tooFewShared(comparison: Comparison, policy: Policy): string | undefined {
  const minimum = policy.settings.min_shared_instances;
  if (comparison.method !== 'paired' || pairedBasis(comparison) >= minimum) return undefined;
  const basis =
    (comparison.shared ?? 0) < minimum
      ? `${comparison.shared} shared instances`
      : `${comparison.population} records of the metric on the ${comparison.shared} shared instances`;
  return `${basis}, fewer than the ${minimum} a paired comparison needs (settings.min_shared_instances)`;
}

/** Why a metric could not be compared (RunComparer.whyNotCompared). */
export interface NotCompared {
  lacks: 'candidate' | 'baseline';
  /** Instances both runs have in the scope (records files only). */
  shared?: number;
  /** False when every one of the baseline's records on the shared instances is a failed call. */
  baselineAnswered: boolean;
}

/**
 * Two runs' judges as a reason names them, short enough for a report (which cuts data at 400 characters):
 * one fingerprint each, by the parts in which they differ ("judge model=openai:a served=a"); else every
 * fingerprint whole; "no judge" for records without one.
 */
function judgesNamed(baseline: string[], candidate: string[]): [string, string] {
  const whole = (scorers: string[]) => scorers.map((scorer) => (scorer === '' ? 'no judge' : `"${scorer}"`)).join(' and ');
  if (baseline.length !== 1 || candidate.length !== 1 || baseline[0] === '' || candidate[0] === '') {
    return [whole(baseline), whole(candidate)];
  }
  const [mine, theirs] = [baseline[0].split(' '), candidate[0].split(' ')];
  const differing = (parts: string[], other: string[]) =>
    `"${parts.filter((part, index) => index === 0 || !other.includes(part)).join(' ')} ..."`;
  return [differing(mine, theirs), differing(theirs, mine)];
}

/** Compares the runs once per metric and scope, whoever asks (trade-offs and checks share the result). */
export class RunComparer {
  private readonly comparisons = new Map<string, Comparison | undefined>();
  private readonly distributions = new Map<string, WorseningSamples>();
  /** Both runs' shared scopes and statistics, when both are records files: made once for every comparison. */
  private readonly paired: PairedRuns | undefined;

  constructor(
    private readonly candidate: RunInput,
    private readonly baseline: RunInput,
    private readonly options: ComputeOptions,
    private readonly memo: MetricsMemo,
  ) {
    if (candidate.kind === 'records' && baseline.kind === 'records') this.paired = memo.pairedRuns(candidate, baseline, options);
  }

  compare(metric: string, scenario: string | undefined, direction: Direction): Comparison | undefined {
    // Not `cached`: a comparison that could not be made (undefined) is kept too.
    const key = metricScopeKey(metric, scenario);
    // Stryker disable next-line ConditionalExpression: `true` compares again, with the same result; `false` never keeps one and is killed.
    if (!this.comparisons.has(key)) this.comparisons.set(key, this.compareOnce(metric, scenario, direction));
    return this.comparisons.get(key);
  }

  /** The bootstrap behind a paired comparison made by `compare`. */
  samples(metric: string, scenario: string | undefined): WorseningSamples | undefined {
    return this.distributions.get(metricScopeKey(metric, scenario));
  }

  /**
   * The paired comparison's variance split into the part between instances and the noise within
   * examples, as `evalgate plan` splits it; only when both runs are records files and one of them has
   * more than one sample of some example (else there is nothing to split).
   */
  samplesSplit(metric: string, scenario: string | undefined): SamplesSplit | undefined {
    const { candidate, baseline } = this;
    if (candidate.kind !== 'records' || baseline.kind !== 'records') return undefined;
    if (!candidate.table.samples && !baseline.table.samples) return undefined;
    return splitSamples(metric, scenario, baseline.table, candidate.table);
  }

  /** How many instances of the scope both runs have (records files only). */
  sharedInstances(scenario: string | undefined): number | undefined {
    return this.paired?.shared(scenario);
  }

  /**
   * Why the scope cannot be compared because the runs were judged differently (a judge's fingerprint in
   * `provenance.scorer`, records files only), naming both; undefined when they were scored alike.
   */
  judgeMismatch(scenario: string | undefined): string | undefined {
    const { candidate, baseline } = this;
    if (candidate.kind !== 'records' || baseline.kind !== 'records') return undefined;
    const mismatch = scorerMismatch(candidate.table, baseline.table, scenario);
    if (!mismatch) return undefined;
    const [baselineJudge, candidateJudge] = judgesNamed(mismatch.baseline, mismatch.candidate);
    return (
      `the baseline was judged by ${baselineJudge} and the candidate by ${candidateJudge} in scenario "${mismatch.scenario}": ` +
      "re-judge the baseline with the candidate's suite (evalgate rejudge)"
    );
  }

  /** Both runs have instances in the scope, but not one in common: nothing can be compared. */
  sharesNoInstance(scenario: string | undefined): boolean {
    const { baseline, paired } = this;
    return (
      paired !== undefined &&
      // Stryker disable next-line ConditionalExpression: with `paired` both runs are records files; this narrows the type.
      baseline.kind === 'records' &&
      (scenario === undefined || baseline.table.scenarios.includes(scenario)) &&
      paired.shared(scenario) === 0
    );
  }

  /**
   * Why `compare` gave nothing for a metric: the run that lacks it where they meet (the baseline first),
   * the instances they share (records files), and whether the baseline answered any of them.
   */
  whyNotCompared(metric: string, scenario: string | undefined): NotCompared {
    if (this.paired) {
      const lacking = this.paired.lacking(metric, scenario);
      return {
        lacks: lacking.baseline ? 'baseline' : 'candidate',
        shared: this.paired.shared(scenario),
        baselineAnswered: lacking.baselineAnswered,
      };
    }
    const baseline = own(this.memo.pointEstimates(this.baseline, { ...this.options, resamples: 0 }, scenario), metric);
    return { lacks: baseline === undefined ? 'baseline' : 'candidate', baselineAnswered: true };
  }

  private compareOnce(metric: string, scenario: string | undefined, direction: Direction): Comparison | undefined {
    const { candidate, baseline, options } = this;
    const sign = direction === 'higher' ? -1 : 1; // worsening = sign * change
    if (this.paired) {
      const paired = this.paired.compare(metric, scenario);
      if (!paired) return undefined;
      this.distributions.set(metricScopeKey(metric, scenario), {
        worsenings: paired.differences.map((change) => sign * change),
        baselines: paired.baselines,
      });
      return {
        method: 'paired',
        candidate: paired.candidateValue,
        baseline: paired.baselineValue,
        change: paired.difference,
        worsening: sign * paired.difference,
        pWorse: direction === 'higher' ? paired.pBelow : paired.pAbove,
        pBetter: direction === 'higher' ? paired.pAbove : paired.pBelow,
        shared: paired.shared,
        population: paired.population,
        ci: paired.ci,
        sd: paired.sd,
        resamples: paired.resamples,
      };
    }
    // Point estimates of the one scope; neither run's intervals are needed.
    const candidateValue = own(this.memo.pointEstimates(candidate, options, scenario), metric)?.value;
    const baselineValue = own(this.memo.pointEstimates(baseline, { ...options, resamples: 0 }, scenario), metric)?.value;
    if (candidateValue === undefined || baselineValue === undefined) return undefined;
    const change = candidateValue - baselineValue;
    return { method: 'summary', candidate: candidateValue, baseline: baselineValue, change, worsening: sign * change };
  }
}
