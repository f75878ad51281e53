import { bootstrapDeviations, type BootstrapOptions, type Estimator } from '../stats/bootstrap.js';
import { ECE_BINS, EceBins, equalMassEce, totalWeight } from './calibration.js';
import type { ScopeCollection } from './collect.js';
import { parseMetricName } from './names.js';
import { sortRecords } from './ordering.js';
import type { Scope } from './scope.js';
import { ScopeStatistics, type MetricOptions } from './statistics.js';
import type { MetricsTable } from './table.js';

/*
 * The components behind the metrics whose plug-in estimate is biased (ece, ece_10_bin, a worst group,
 * a gap), and their bootstrap deviations: what the bound tests of src/stats/bound-estimators.ts read.
 * A calibration error is sum_b |m_b|, m_b = (sum of correct - sum of confidence in bin b) / N; a worst
 * group and a gap are the minimum and the range of the eligible groups' accuracies. Computed in their
 * own pass, only for the (metric, scope) pairs a bound judges: the metrics' statistics are untouched.
 */

export type ComponentShape = 'calibration' | 'minimum' | 'range';

export interface MetricComponents {
  shape: ComponentShape;
  /** The components on the data: the bins' signed parts m_b, or the eligible groups' accuracies. */
  values: Float64Array;
  /** Each resample's deviations from the centre (stats/bootstrap.ts: bootstrapDeviations), NaN where undefined. */
  deviations: Float64Array[];
  /** Calibration: each bin's sums on the data, what Kumar et al.'s debiased estimate reads. */
  bins?: { weight: Float64Array; correct: Float64Array; confidence: Float64Array };
  /** Groups: each eligible group's records (examples), what the spread floor reads. */
  sizes?: Float64Array;
}

/** Which shape a metric's components have; undefined for a metric without a bound test of its own. */
export function componentShape(metric: string): ComponentShape | undefined {
  if (metric === 'ece' || metric === 'ece_10_bin') return 'calibration';
  const family = parseMetricName(metric)?.family;
  return family === 'worst_group_accuracy' ? 'minimum' : family === 'group_accuracy_gap' ? 'range' : undefined;
}

/** Fills `bins` with each calibration bin's sums under some weights (width bins for ece, equal-mass for ece_10_bin). */
type BinSums = (weights: Float64Array, bins: EceBins) => void;

function binSumsOf(table: MetricsTable, collected: ScopeCollection, metric: string): BinSums | undefined {
  const { calibrated, sums, eceCorrect, eceConfidence } = collected;
  if (calibrated.rows.length === 0) return undefined;
  if (metric === 'ece') {
    const slots = sums.build(new Set([...eceCorrect, ...eceConfidence]));
    return (weights, bins) => {
      const { numerator, denominator } = slots.sum(weights);
      // Stryker disable next-line EqualityOperator: a write past a typed array's end is dropped
      for (let bin = 0; bin < ECE_BINS; bin++) {
        bins.weight[bin] = denominator[eceCorrect[bin]];
        bins.correct[bin] = numerator[eceCorrect[bin]];
        bins.confidence[bin] = numerator[eceConfidence[bin]];
      }
    };
  }
  // As statistics.ts bins ece_10_bin: the calibrated records by confidence, cut anew on each resample.
  const ascending = sortRecords(table, 'confidence', calibrated.rows, calibrated.instances, table.correct);
  return (weights, bins) => void equalMassEce(ascending, weights, totalWeight(ascending.instance, weights), bins);
}

/** The bins' signed parts m_b = (correct_b - confidence_b) / N; NaN without weight (or without calibrated records). */
function calibrationEstimator(binSums: BinSums | undefined): Estimator & { bins: EceBins } {
  const bins = new EceBins();
  const parts = new Float64Array(ECE_BINS);
  return {
    bins,
    evaluate(weights) {
      if (!binSums) return parts.fill(NaN);
      binSums(weights, bins);
      let total = 0;
      for (let bin = 0; bin < ECE_BINS; bin++) total += bins.weight[bin];
      // Stryker disable next-line ConditionalExpression,EqualityOperator: without weight every bin's sums are 0 too, and 0 / 0 is NaN; a write past a typed array's end is dropped
      for (let bin = 0; bin < ECE_BINS; bin++) parts[bin] = total > 0 ? (bins.correct[bin] - bins.confidence[bin]) / total : NaN;
      return parts;
    },
  };
}

/** The group slots a worst group or gap over `attribute` ranges over: as statistics.ts picks them (at least two). */
function eligibleGroups(collected: ScopeCollection, attribute: string, options: MetricOptions): number[] {
  const { sums } = collected;
  // Stryker disable next-line ArrayDeclaration: a slot that does not exist has no entries and is left out
  const slots = collected.groups.find((group) => group.attribute === attribute)?.slots ?? [];
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a scope's group slot is made by its first record, so it has entries (the test is statistics.ts's, which also reads subsets)
  const eligible = slots.filter((slot) => sums.entries(slot) > 0 && sums.count(slot) >= options.minGroupSize);
  return eligible.length >= 2 ? eligible : [];
}

/** The groups' accuracies (NaN for a group without weight). */
function groupEstimator(collected: ScopeCollection, slots: number[]): Estimator {
  const sums = collected.sums.build(new Set(slots));
  const accuracies = new Float64Array(slots.length);
  return {
    evaluate(weights) {
      const { numerator, denominator } = sums.sum(weights);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: with no weight the numerator is 0 too, and 0 / 0 is NaN
      slots.forEach((slot, g) => (accuracies[g] = denominator[slot] > 0 ? numerator[slot] / denominator[slot] : NaN));
      return accuracies;
    },
  };
}

/**
 * A bound-tested metric's components in one scope, with their deviations on the resamples that
 * `bootstrap` draws (the scope's seed and subset size: the same resamples as the metric's interval);
 * undefined when the scope does not have the metric.
 */
export function metricComponents(
  table: MetricsTable,
  scope: Scope,
  options: MetricOptions,
  metric: string,
  bootstrap: BootstrapOptions,
): MetricComponents | undefined {
  const shape = componentShape(metric);
  const statistics = new ScopeStatistics(table, scope, options);
  const collected = statistics.collection();
  if (!shape || !collected) return undefined;
  const ones = new Float64Array(scope.instanceCount).fill(1);
  if (shape === 'calibration') {
    const binSums = binSumsOf(table, collected, metric);
    if (!binSums) return undefined;
    const full = calibrationEstimator(binSums);
    const values = Float64Array.from(full.evaluate(ones));
    const bins = {
      weight: Float64Array.from(full.bins.weight),
      correct: Float64Array.from(full.bins.correct),
      confidence: Float64Array.from(full.bins.confidence),
    };
    const factory = (subset?: Int32Array) =>
      subset ? calibrationEstimator(binSumsOf(table, statistics.collection(subset)!, metric)) : full;
    return { shape, values, bins, deviations: bootstrapDeviations(factory, scope.instanceCount, bootstrap) };
  }
  // Stryker disable next-line OptionalChaining: a worst group or a gap (componentShape) always names its attribute
  const attribute = parseMetricName(metric)?.group?.attribute;
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: likewise; and no group has an undefined attribute
  const slots = attribute === undefined ? [] : eligibleGroups(collected, attribute, options);
  if (slots.length === 0) return undefined;
  const full = groupEstimator(collected, slots);
  const factory = (subset?: Int32Array) => (subset ? groupEstimator(statistics.collection(subset)!, slots) : full);
  return {
    shape,
    values: Float64Array.from(full.evaluate(ones)),
    sizes: Float64Array.from(slots, (slot) => collected.sums.count(slot)),
    deviations: bootstrapDeviations(factory, scope.instanceCount, bootstrap),
  };
}
