import { weightedQuantileSorted } from '../stats/quantile.js';
import { calibrationError, ECE_BINS, EceBins, equalMassEce, HarmonicNumbers, selectiveAccuracy, totalWeight } from './calibration.js';
import { numberSubset, unnumberSubset } from './by-instance.js';
import { collectScope, subsetCollection, type ScopeCollection } from './collect.js';
import { reverseKeepingTies, sortRecords } from './ordering.js';
import { subScopes, type Scope } from './scope.js';
import { ATTRIBUTE_FAMILIES, formatMetricName, GROUP_FAMILY } from './names.js';
import type { SlotSums, SlotTotals } from './sums.js';
import type { MetricsTable } from './table.js';

/*
 * Every metric is a statistic of instance weights: evaluated as if instance i appeared weights[i]
 * times. All weights 1 gives the metrics' values; multinomial counts give a bootstrap resample.
 * A Statistic computes one or more metrics in one pass; NaN means undefined for those weights
 * (e.g. no weight on any record the metric uses).
 */

export interface MetricInfo {
  metric: string;
  /** What the value rests on: records, examples (the means over examples, when examples have several samples: docs/metrics.md) or instances (the worst cases). */
  n: number;
}

export interface Statistic {
  metrics: MetricInfo[];
  evaluate(weights: Float64Array): ArrayLike<number>;
}

export interface MetricOptions {
  /** Groups with fewer original records are reported but left out of worst-group and gap metrics. */
  minGroupSize: number;
}

export const DEFAULT_MIN_GROUP_SIZE = 10;

/** A metric defined by the slot totals: those of `slots`. */
interface DerivedMetric extends MetricInfo {
  slots: number[];
  derive(totals: SlotTotals): number;
}

class SumsStatistic implements Statistic {
  readonly metrics: MetricInfo[];
  constructor(
    private readonly slots: SlotSums,
    private readonly derived: DerivedMetric[],
  ) {
    this.metrics = derived.map(({ metric, n }) => ({ metric, n }));
  }
  evaluate(weights: Float64Array): number[] {
    const totals = this.slots.sum(weights);
    return this.derived.map((metric) => metric.derive(totals));
  }
}

const ratio =
  (slot: number) =>
  ({ numerator, denominator }: SlotTotals) =>
    // Stryker disable next-line ConditionalExpression,EqualityOperator: with no weight the numerator is 0 too, and 0 / 0 is NaN
    denominator[slot] > 0 ? numerator[slot] / denominator[slot] : NaN;

/** What the metric builders below add to: sums-based metrics, and statistics of their own. */
interface Found {
  collected: ScopeCollection;
  derived: DerivedMetric[];
  statistics: Statistic[];
  /** Whether a metric is asked for: the builders skip the work of those that are not. */
  wanted(metric: string): boolean;
  /** A sums-based metric that is the ratio of a slot, if the slot has records and it is wanted. */
  addRatio(metric: string, slot: number): void;
}

const EQUAL_MASS = ['ece_10_bin', 'selective_cov_acc_area', 'selective_acc@10'];

function addCalibration(table: MetricsTable, { collected, derived, statistics, wanted, addRatio }: Found): void {
  // Stryker disable next-line ConditionalExpression: saves work only; each metric below is added only when wanted
  if (!['ece', 'brier', ...EQUAL_MASS].some(wanted)) return; // before reading the calibrated rows, a subset's copied when read
  const { brier, eceCorrect, eceConfidence } = collected;
  const calibrated = collected.calibrated.rows.length;
  if (calibrated === 0) return;
  const binWeight = new Float64Array(ECE_BINS);
  const binCorrect = new Float64Array(ECE_BINS);
  const binConfidence = new Float64Array(ECE_BINS);
  if (wanted('ece')) {
    derived.push({
      metric: 'ece',
      n: collected.sums.count(brier), // calibrated examples (records without repeated samples)
      slots: [...eceCorrect, ...eceConfidence],
      derive: ({ numerator, denominator }) => {
        // Stryker disable next-line EqualityOperator: a write past a typed array's end is dropped
        for (let bin = 0; bin < ECE_BINS; bin++) {
          binWeight[bin] = denominator[eceCorrect[bin]];
          binCorrect[bin] = numerator[eceCorrect[bin]];
          binConfidence[bin] = numerator[eceConfidence[bin]];
        }
        return calibrationError(binWeight, binCorrect, binConfidence);
      },
    });
  }
  addRatio('brier', brier);
  // Stryker disable next-line ConditionalExpression: saves work only; a statistic of metrics not wanted is never read
  if (!EQUAL_MASS.some(wanted)) return;
  const ascending = sortRecords(table, 'confidence', collected.calibrated.rows, collected.calibrated.instances, table.correct);
  const mostConfidentFirst = reverseKeepingTies(ascending);
  const harmonic = new HarmonicNumbers();
  const bins = new EceBins();
  // One statistic: the three share the total weight of the calibrated records.
  statistics.push({
    metrics: EQUAL_MASS.map((metric) => ({ metric, n: calibrated })),
    evaluate: (weights) => {
      const total = totalWeight(ascending.instance, weights);
      return [equalMassEce(ascending, weights, total, bins), ...selectiveAccuracy(mostConfidentFirst, weights, harmonic, total)];
    },
  });
}

/**
 * HELM's worst case per instance over the original and its perturbations of one kind; instances
 * without a usable original are left out, and so are their perturbations.
 */
function addWorstCase(instanceCount: number, { collected, wanted, addRatio }: Found): void {
  const { sums } = collected;
  for (const [metric, worst] of [
    ['accuracy_robust', 'worstRobust'],
    ['accuracy_fair', 'worstFair'],
  ] as const) {
    // Stryker disable next-line ConditionalExpression: saves work only; addRatio adds only what is wanted
    if (!wanted(metric)) continue; // before reading the worst cases, a subset's picked when read
    const { worstOriginal, [worst]: worstPerturbed } = collected;
    const slot = sums.newSlot(instanceCount);
    let perturbed = false;
    for (let instance = 0; instance < instanceCount; instance++) {
      if (worstOriginal[instance] === Infinity) continue;
      if (worstPerturbed[instance] !== Infinity) perturbed = true;
      sums.add(slot, instance, Math.min(worstOriginal[instance], worstPerturbed[instance]));
    }
    if (perturbed) addRatio(metric, slot);
  }
}

/** Worst-group accuracy and the gap over groups of at least minGroupSize, and every group's accuracy. */
function addGroups(options: MetricOptions, { collected, derived, wanted, addRatio }: Found): void {
  const { sums, groups } = collected;
  for (const { attribute, values, seen, slots } of groups) {
    // Stryker disable next-line ConditionalExpression: an attribute no record has has no slot to add
    if (seen.length === 0) continue;
    const [worst, gap] = ATTRIBUTE_FAMILIES.map((family) => formatMetricName({ family, group: { attribute } }));
    // A subset's groups are its scope's: those without records in the subset (empty slots) are left out.
    const eligible =
      // Stryker disable next-line ConditionalExpression,EqualityOperator: saves work only (each is added when wanted); a slot without entries counts 0, below any min_group_size (at least 1)
      wanted(worst) || wanted(gap) ? slots.filter((slot) => sums.entries(slot) > 0 && sums.count(slot) >= options.minGroupSize) : [];
    // A worst group and a gap need two groups to compare: one alone is no fairness measure.
    if (eligible.length >= 2) {
      const n = eligible.reduce((sum, slot) => sum + sums.count(slot), 0);
      const accuracies = eligible.map(ratio);
      // Lowest and highest accuracy among the groups with weight in these totals.
      const range = (totals: SlotTotals): [number, number] => {
        let lowest = Infinity;
        let highest = -Infinity;
        for (const accuracyOf of accuracies) {
          const value = accuracyOf(totals);
          if (Number.isNaN(value)) continue;
          lowest = Math.min(lowest, value);
          highest = Math.max(highest, value);
        }
        return lowest === Infinity ? [NaN, NaN] : [lowest, highest];
      };
      // Stryker disable next-line ConditionalExpression: a derived metric not wanted is never read
      if (wanted(worst)) derived.push({ metric: worst, n, slots: eligible, derive: (totals) => range(totals)[0] });
      // Stryker disable next-line ConditionalExpression: a derived metric not wanted is never read
      if (wanted(gap)) {
        derived.push({
          metric: gap,
          n,
          slots: eligible,
          derive: (totals) => {
            const [lowest, highest] = range(totals);
            return highest - lowest;
          },
        });
      }
    }
    seen.forEach((value, k) => addRatio(formatMetricName({ family: GROUP_FAMILY, group: { attribute, value: values[value] } }), slots[k]));
  }
}

/**
 * How many copies of the records a weighting makes: sum of weight * records over the first `count`
 * instances. Its own function, so that the closure calling it has no loop: V8 would optimize the loop
 * midway on the first long call, before the code after it had run, and that code would then bail out
 * on every later call (a thousand times a run).
 */
function copiesOf(instances: Int32Array, records: Float64Array, count: number, weights: Float64Array): number {
  let total = 0;
  for (let index = 0; index < count; index++) total += weights[instances[index]] * records[index];
  return total;
}

/*
 * addLatency's passes, each a function that ends with its loop: V8 optimizes a long loop midway on the
 * first long call, and code after it that had not run yet has no type feedback; the optimized code,
 * entered midway again by later calls, bailed out there (42 times a gate of the bench pair).
 */

function countPerInstance(instances: Int32Array, perInstance: Float64Array): void {
  // Stryker disable next-line EqualityOperator: one past the end reads undefined, and perInstance[undefined] is no element
  for (let index = 0; index < instances.length; index++) perInstance[instances[index]]++;
}

/** The instances with timed records, in order, and how many each has: how many there are. */
function listTimed(perInstance: Float64Array, timedInstances: Int32Array, timedCounts: Float64Array): number {
  let timed = 0;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: one past the end is undefined (not > 0); an instance with no timed record adds 0 copies
  for (let instance = 0; instance < perInstance.length; instance++) {
    if (perInstance[instance] > 0) {
      timedInstances[timed] = instance;
      timedCounts[timed++] = perInstance[instance];
    }
  }
  return timed;
}

function addLatency(table: MetricsTable, instanceCount: number, { collected, statistics, wanted }: Found): void {
  // Stryker disable next-line ConditionalExpression: saves work only; a statistic of metrics not wanted is never read
  if (!(wanted('latency_p50_ms') || wanted('latency_p95_ms'))) return; // before reading the timed rows, a subset's copied when read
  const { rows, instances } = collected.timed;
  if (rows.length === 0) return;
  const ascending = sortRecords(table, 'latencyMs', rows, instances, table.latencyMs);
  const n = rows.length;
  // Timed records per instance, to total a resample's copies without a pass over every record.
  const perInstance = new Float64Array(instanceCount);
  countPerInstance(instances, perInstance);
  const timedInstances = new Int32Array(instanceCount);
  const timedCounts = new Float64Array(instanceCount);
  const timed = listTimed(perInstance, timedInstances, timedCounts);
  statistics.push({
    metrics: [
      { metric: 'latency_p50_ms', n },
      { metric: 'latency_p95_ms', n },
    ],
    evaluate: (weights) => {
      const total = copiesOf(timedInstances, timedCounts, timed, weights);
      return [
        weightedQuantileSorted(ascending.value, ascending.instance, weights, total, 0.5),
        weightedQuantileSorted(ascending.value, ascending.instance, weights, total, 0.95),
      ];
    },
  });
}

/**
 * All metrics of one scope whose inputs are present. A metric without inputs is left out, never 0.
 * `only`: one metric wanted (a paired comparison's); the statistic that has it (if the scope has it)
 * may have others, with the same values as when all are prepared.
 */
export function prepareStatistics(table: MetricsTable, scope: Scope, options: MetricOptions, only?: string): Statistic[] {
  return new ScopeStatistics(table, scope, options).prepare(only);
}

/**
 * A scope's statistics, and those of its little-bootstrap subsets: what prepareStatistics makes of a
 * subset's own scope. One metric's (a paired comparison's) come from the scope's collection, its
 * slots restricted to the subset, without a pass over the subset's rows scattered in the table.
 */
export class ScopeStatistics {
  private readonly collected: ScopeCollection | undefined;
  private subScope?: (subset: Int32Array) => Scope;
  /** A subset's numbering of the scope's instances (numberSubset), every entry -1 between subsets: made once, not per subset. */
  private local?: Int32Array;

  constructor(
    private readonly table: MetricsTable,
    private readonly scope: Scope,
    private readonly options: MetricOptions,
  ) {
    this.collected = scope.rows.length === 0 ? undefined : collectScope(table, scope);
  }

  /** The scope's statistics (see prepareStatistics). */
  prepare(only?: string): Statistic[] {
    return this.collected ? statisticsOf(this.table, this.collected, this.scope.instanceCount, this.options, only) : [];
  }

  /** The scope's collection, or (subset) what it holds of some instances: what bound-components.ts reads. */
  collection(subset?: Int32Array): ScopeCollection | undefined {
    if (!this.collected || !subset) return this.collected;
    // Its own numbering: the caller reads the collection when it likes.
    return subsetCollection(this.collected, numberSubset(new Int32Array(this.scope.instanceCount).fill(-1), subset), subset);
  }

  /** The statistics of the scope's rows of some of its instances, numbered 0..subset.length-1 in subset order. */
  subset(subset: Int32Array, only?: string): Statistic[] {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a scope without rows has no instances, so its subsets are empty, and an empty subset has no statistic either way
    if (!this.collected || subset.length === 0) return [];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: both ways give the same statistics (the second is the faster for one metric, the first for all)
    if (only === undefined) {
      // Every metric: a pass over the subset's rows costs less than copying every slot of the scope.
      this.subScope ??= subScopes(this.scope);
      return prepareStatistics(this.table, this.subScope(subset), this.options);
    }
    const local = numberSubset((this.local ??= new Int32Array(this.scope.instanceCount).fill(-1)), subset);
    try {
      return statisticsOf(this.table, subsetCollection(this.collected, local, subset), subset.length, this.options, only);
    } finally {
      // The statistics read all they need of the collection before they are returned (its slots summed, its rows sorted).
      unnumberSubset(local, subset);
    }
  }
}

/**
 * The Rogan-Gladen estimate (Rogan & Gladen 1978) of the share of answers that are right, from the
 * share the judge passed (p) and its rates on the labelled records: (p + tnr - 1) / (tpr + tnr - 1),
 * clipped to [0, 1]; undefined (NaN) where the judge is no better than chance on the labels (tpr + tnr
 * <= 1) or some kind of label is missing. Only where both kinds of label are (docs/statistics.md).
 */
export function roganGladen(passed: number, tpr: number, tnr: number): number {
  const youden = tpr + tnr - 1;
  if (!(youden > 0)) return NaN;
  return Math.min(1, Math.max(0, (passed + tnr - 1) / youden));
}

function addCorrectedAccuracy(found: Found): void {
  const { sums, judge } = found.collected;
  const slots = [judge.passed, judge.truePositive, judge.trueNegative];
  if (!found.wanted('judge_corrected_accuracy') || slots.some((slot) => sums.count(slot) === 0)) return;
  const rate = slots.map(ratio);
  found.derived.push({
    metric: 'judge_corrected_accuracy',
    n: sums.count(judge.passed),
    slots,
    derive: (totals) => roganGladen(rate[0](totals), rate[1](totals), rate[2](totals)),
  });
}

function statisticsOf(
  table: MetricsTable,
  collected: ScopeCollection,
  instanceCount: number,
  options: MetricOptions,
  only?: string,
): Statistic[] {
  const { sums } = collected;
  const wanted = only === undefined ? () => true : (metric: string) => metric === only;
  const found: Found = {
    collected,
    derived: [],
    statistics: [],
    wanted,
    addRatio: (metric, slot) => {
      if (wanted(metric) && sums.count(slot) > 0) found.derived.push({ metric, n: sums.count(slot), slots: [slot], derive: ratio(slot) });
    },
  };
  // In the order the metrics are listed: the order of the report.
  found.addRatio('accuracy', collected.accuracy);
  addCalibration(table, found);
  addWorstCase(instanceCount, found);
  addGroups(options, found);
  found.addRatio('error_rate', collected.errors);
  const { judge } = collected;
  found.addRatio('judge_unknown_rate', judge.unknown);
  found.addRatio('judge_error_rate', judge.errors);
  found.addRatio('judge_agreement', judge.agreement);
  found.addRatio('judge_tpr', judge.truePositive);
  found.addRatio('judge_tnr', judge.trueNegative);
  addCorrectedAccuracy(found);
  found.addRatio('judge_self_agreement', judge.selfAgreement);
  found.addRatio('judge_win_rate', judge.win);
  found.addRatio('judge_flip_rate', judge.flip);
  found.addRatio('judge_longer_wins_rate', judge.longerWins);
  addLatency(table, instanceCount, found);
  found.addRatio('toxicity_rate', collected.toxic);
  found.addRatio('output_tokens_mean', collected.outputTokens);
  for (const [metric, slot] of [
    ['cost_usd_total', collected.cost],
    ['judge_cost_usd_total', judge.cost],
  ] as const) {
    if (wanted(metric) && sums.count(slot) > 0) {
      found.derived.push({ metric, n: sums.count(slot), slots: [slot], derive: ({ numerator }) => numerator[slot] });
    }
  }

  const { derived, statistics } = found;
  // Only the derived metrics' slots are summed: each slot's sums are the same whichever others are summed with it.
  if (derived.length > 0) statistics.unshift(new SumsStatistic(sums.build(new Set(derived.flatMap(({ slots }) => slots))), derived));
  return statistics;
}
