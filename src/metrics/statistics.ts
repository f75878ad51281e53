import { weightedQuantileSorted } from '../stats/quantile.js';
import type { Scope } from './scope.js';
import { KIND_FAIRNESS, KIND_ORIGINAL, KIND_ROBUSTNESS, type RecordTable } from './table.js';

/**
 * Every metric is a statistic of instance weights: `evaluate(weights)` computes it as if instance i
 * appeared weights[i] times. All weights 1 gives the metric's value; multinomial counts give a
 * bootstrap resample. NaN means undefined for these weights (e.g. no weight on any record it uses).
 */
export interface WeightedStatistic {
  metric: string;
  /** How many records (or instances, or groups' records) the value rests on. */
  n: number;
  evaluate(weights: ArrayLike<number>): number;
}

export interface MetricOptions {
  /** Groups with fewer original records are reported but left out of worst-group and gap metrics. */
  minGroupSize: number;
}

export const DEFAULT_MIN_GROUP_SIZE = 10;

/** Rows of the scope selected by `keep`, with their instance numbers. */
interface Selection {
  rows: number[];
  instances: number[];
}

function select(scope: Scope, keep: (row: number) => boolean): Selection {
  const rows: number[] = [];
  const instances: number[] = [];
  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    if (keep(row)) {
      rows.push(row);
      instances.push(scope.instanceOfRow[index]);
    }
  }
  return { rows, instances };
}

function weightedMean(metric: string, instances: ArrayLike<number>, values: ArrayLike<number>): WeightedStatistic {
  const instanceOf = Int32Array.from(instances);
  const valueOf = Float64Array.from(values);
  return {
    metric,
    n: instanceOf.length,
    evaluate(weights) {
      let sum = 0;
      let total = 0;
      for (let index = 0; index < instanceOf.length; index++) {
        const weight = weights[instanceOf[index]];
        sum += weight * valueOf[index];
        total += weight;
      }
      return total > 0 ? sum / total : NaN;
    },
  };
}

function weightedSum(metric: string, instances: ArrayLike<number>, values: ArrayLike<number>): WeightedStatistic {
  const instanceOf = Int32Array.from(instances);
  const valueOf = Float64Array.from(values);
  return {
    metric,
    n: instanceOf.length,
    evaluate(weights) {
      let sum = 0;
      for (let index = 0; index < instanceOf.length; index++) sum += weights[instanceOf[index]] * valueOf[index];
      return sum;
    },
  };
}

/** Indices 0..n-1 ordered by `key`, ties in input order. */
function orderBy(n: number, compare: (a: number, b: number) => number): Int32Array {
  return Int32Array.from({ length: n }, (_, index) => index).sort((a, b) => compare(a, b) || a - b);
}

function accuracyFamily(table: RecordTable, scope: Scope, out: WeightedStatistic[]): void {
  const originals = select(scope, (row) => table.kind[row] === KIND_ORIGINAL && table.failed[row] === 0);
  if (originals.rows.length === 0) return;
  out.push(weightedMean('accuracy', originals.instances, originals.rows.map((row) => table.correct[row])));
}

/** HELM's worst case per instance over the original and its perturbations of one kind. */
function worstCase(table: RecordTable, scope: Scope, metric: string, kind: number): WeightedStatistic | undefined {
  const worstOriginal = new Float64Array(scope.instanceCount).fill(Infinity);
  const worstPerturbed = new Float64Array(scope.instanceCount).fill(Infinity);
  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    if (table.failed[row]) continue;
    const instance = scope.instanceOfRow[index];
    if (table.kind[row] === KIND_ORIGINAL) worstOriginal[instance] = Math.min(worstOriginal[instance], table.correct[row]);
    else if (table.kind[row] === kind) worstPerturbed[instance] = Math.min(worstPerturbed[instance], table.correct[row]);
  }
  const instances: number[] = [];
  const values: number[] = [];
  let anyPerturbation = false;
  for (let instance = 0; instance < scope.instanceCount; instance++) {
    if (worstOriginal[instance] === Infinity) continue; // no usable original: its perturbations do not count
    if (worstPerturbed[instance] !== Infinity) anyPerturbation = true;
    instances.push(instance);
    values.push(Math.min(worstOriginal[instance], worstPerturbed[instance]));
  }
  return anyPerturbation ? weightedMean(metric, instances, values) : undefined;
}

function calibrationFamily(table: RecordTable, scope: Scope, out: WeightedStatistic[]): void {
  const selected = select(
    scope,
    (row) => table.kind[row] === KIND_ORIGINAL && table.failed[row] === 0 && !Number.isNaN(table.confidence[row]),
  );
  const n = selected.rows.length;
  if (n === 0) return;
  const instanceOf = Int32Array.from(selected.instances);
  const confidence = Float64Array.from(selected.rows, (row) => table.confidence[row]);
  const correct = Float64Array.from(selected.rows, (row) => table.correct[row]);

  const equalWidthBin = Int32Array.from(confidence, (value) => Math.min(Math.floor(value * 10), 9));
  out.push({
    metric: 'ece',
    n,
    evaluate(weights) {
      const binWeight = new Float64Array(10);
      const binCorrect = new Float64Array(10);
      const binConfidence = new Float64Array(10);
      for (let index = 0; index < n; index++) {
        const weight = weights[instanceOf[index]];
        const bin = equalWidthBin[index];
        binWeight[bin] += weight;
        binCorrect[bin] += weight * correct[index];
        binConfidence[bin] += weight * confidence[index];
      }
      return calibrationError(binWeight, binCorrect, binConfidence);
    },
  });

  const ascending = orderBy(n, (a, b) => confidence[a] - confidence[b]);
  out.push({ metric: 'ece_10_bin', n, evaluate: (weights) => equalMassEce(ascending, instanceOf, confidence, correct, weights) });

  out.push(weightedMean('brier', instanceOf, confidence.map((value, index) => (value - correct[index]) ** 2)));

  const descending = orderBy(n, (a, b) => confidence[b] - confidence[a]);
  const orderedInstance = Int32Array.from(descending, (index) => instanceOf[index]);
  const orderedCorrect = Float64Array.from(descending, (index) => correct[index]);
  out.push({ metric: 'selective_cov_acc_area', n, evaluate: (weights) => selectiveAccuracy(orderedInstance, orderedCorrect, weights).area });
  out.push({ metric: 'selective_acc@10', n, evaluate: (weights) => selectiveAccuracy(orderedInstance, orderedCorrect, weights).atTenPercent });
}

/** Sum over bins of (bin share) * |mean correct - mean confidence|. */
function calibrationError(binWeight: Float64Array, binCorrect: Float64Array, binConfidence: Float64Array): number {
  let total = 0;
  for (const weight of binWeight) total += weight;
  if (total <= 0) return NaN;
  let error = 0;
  for (let bin = 0; bin < binWeight.length; bin++) {
    const weight = binWeight[bin];
    if (weight > 0) error += (weight / total) * Math.abs(binCorrect[bin] / weight - binConfidence[bin] / weight);
  }
  return error;
}

/**
 * HELM's ece_10_bin on the multiset where record i appears weights[instance] times: k = min(10, N)
 * chunks of the sorted confidences as numpy.array_split cuts them, boundaries at the midpoints
 * between chunks plus 1.0 (duplicates dropped), a value on a boundary goes to the lower bin.
 */
function equalMassEce(
  ascending: Int32Array,
  instanceOf: Int32Array,
  confidence: Float64Array,
  correct: Float64Array,
  weights: ArrayLike<number>,
): number {
  let total = 0;
  for (const index of ascending) total += weights[instanceOf[index]];
  if (total <= 0) return NaN;
  const chunks = Math.min(10, total);
  const base = Math.floor(total / chunks);
  const larger = total % chunks; // the first `larger` chunks hold one more value
  // Positions (0-based, in the expanded sorted list) of the first value of chunks 1..k-1.
  const chunkStarts: number[] = [];
  for (let chunk = 1; chunk < chunks; chunk++) chunkStarts.push(chunk * base + Math.min(chunk, larger));

  const boundaries: number[] = [];
  let seen = 0;
  let previousValue = NaN;
  let next = 0;
  for (const index of ascending) {
    const weight = weights[instanceOf[index]];
    if (weight === 0) continue;
    const value = confidence[index];
    // Every chunk start inside this run of copies; the value before it is this one or the previous.
    while (next < chunkStarts.length && chunkStarts[next] < seen + weight) {
      const before = chunkStarts[next] > seen ? value : previousValue;
      boundaries.push((before + value) / 2);
      next++;
    }
    seen += weight;
    previousValue = value;
  }
  boundaries.push(1.0);
  const bins = [...new Set(boundaries)].sort((a, b) => a - b);

  const binWeight = new Float64Array(bins.length);
  const binCorrect = new Float64Array(bins.length);
  const binConfidence = new Float64Array(bins.length);
  let bin = 0;
  for (const index of ascending) {
    const weight = weights[instanceOf[index]];
    if (weight === 0) continue;
    const value = confidence[index];
    while (bins[bin] < value) bin++; // bisect_left over ascending values
    binWeight[bin] += weight;
    binCorrect[bin] += weight * correct[index];
    binConfidence[bin] += weight * value;
  }
  return calibrationError(binWeight, binCorrect, binConfidence);
}

/**
 * HELM's selective accuracy over records ordered by confidence, highest first: acc_k is the accuracy
 * of the first k; the area is the mean of acc_k over k = 1..N; "at 10%" is acc_k at k = floor(N/10)+1.
 */
function selectiveAccuracy(
  orderedInstance: Int32Array,
  orderedCorrect: Float64Array,
  weights: ArrayLike<number>,
): { area: number; atTenPercent: number } {
  let total = 0;
  for (const instance of orderedInstance) total += weights[instance];
  if (total <= 0) return { area: NaN, atTenPercent: NaN };
  const tenPercentK = Math.floor(0.1 * total) + 1;
  let k = 0;
  let correctSoFar = 0;
  let areaSum = 0;
  let atTenPercent = NaN;
  for (let index = 0; index < orderedInstance.length; index++) {
    const copies = weights[orderedInstance[index]];
    const correct = orderedCorrect[index];
    for (let copy = 0; copy < copies; copy++) {
      k++;
      correctSoFar += correct;
      areaSum += correctSoFar / k;
      if (k === tenPercentK) atTenPercent = correctSoFar / k;
    }
  }
  return { area: areaSum / total, atTenPercent };
}

function groupFamily(table: RecordTable, scope: Scope, options: MetricOptions, out: WeightedStatistic[]): void {
  for (const [attribute, column] of table.groups) {
    const perValue = column.values.map(() => ({ instances: [] as number[], values: [] as number[] }));
    for (let index = 0; index < scope.rows.length; index++) {
      const row = scope.rows[index];
      const value = column.valueOf[row];
      if (value < 0 || table.kind[row] !== KIND_ORIGINAL || table.failed[row]) continue;
      perValue[value].instances.push(scope.instanceOfRow[index]);
      perValue[value].values.push(table.correct[row]);
    }
    const present = column.values
      .map((name, value) => ({ name, statistic: weightedMean(`group_accuracy:${attribute}=${name}`, perValue[value].instances, perValue[value].values) }))
      .filter(({ statistic }) => statistic.n > 0);
    if (present.length === 0) continue;
    const eligible = present.filter(({ statistic }) => statistic.n >= options.minGroupSize).map(({ statistic }) => statistic);
    if (eligible.length > 0) {
      const n = eligible.reduce((sum, statistic) => sum + statistic.n, 0);
      const groupAccuracies = (weights: ArrayLike<number>): number[] =>
        eligible.map((statistic) => statistic.evaluate(weights)).filter((value) => !Number.isNaN(value));
      out.push({
        metric: `worst_group_accuracy:${attribute}`,
        n,
        evaluate: (weights) => {
          const accuracies = groupAccuracies(weights);
          return accuracies.length > 0 ? Math.min(...accuracies) : NaN;
        },
      });
      out.push({
        metric: `group_accuracy_gap:${attribute}`,
        n,
        evaluate: (weights) => {
          const accuracies = groupAccuracies(weights);
          return accuracies.length > 0 ? Math.max(...accuracies) - Math.min(...accuracies) : NaN;
        },
      });
    }
    for (const { statistic } of present) out.push(statistic);
  }
}

function efficiencyFamily(table: RecordTable, scope: Scope, out: WeightedStatistic[]): void {
  const succeeded = (column: Float64Array) => select(scope, (row) => table.failed[row] === 0 && !Number.isNaN(column[row]));

  const timed = succeeded(table.latencyMs);
  if (timed.rows.length > 0) {
    const ascending = orderBy(timed.rows.length, (a, b) => table.latencyMs[timed.rows[a]] - table.latencyMs[timed.rows[b]]);
    const sorted = Float64Array.from(ascending, (index) => table.latencyMs[timed.rows[index]]);
    const instanceOf = Int32Array.from(ascending, (index) => timed.instances[index]);
    const percentile = (metric: string, q: number): WeightedStatistic => ({
      metric,
      n: sorted.length,
      evaluate(weights) {
        let total = 0;
        for (const instance of instanceOf) total += weights[instance];
        return weightedQuantileSorted(sorted, (index) => weights[instanceOf[index]], total, q);
      },
    });
    out.push(percentile('latency_p50_ms', 0.5), percentile('latency_p95_ms', 0.95));
  }

  const scored = succeeded(table.toxicity);
  if (scored.rows.length > 0) {
    out.push(weightedMean('toxicity_rate', scored.instances, scored.rows.map((row) => (table.toxicity[row] >= 0.5 ? 1 : 0))));
  }
  const counted = succeeded(table.outputTokens);
  if (counted.rows.length > 0) {
    out.push(weightedMean('output_tokens_mean', counted.instances, counted.rows.map((row) => table.outputTokens[row])));
  }
  const priced = succeeded(table.costUsd);
  if (priced.rows.length > 0) {
    out.push(weightedSum('cost_usd_total', priced.instances, priced.rows.map((row) => table.costUsd[row])));
  }
}

/** All metrics of one scope whose inputs are present, in registry order. A metric without inputs is left out. */
export function prepareStatistics(table: RecordTable, scope: Scope, options: MetricOptions): WeightedStatistic[] {
  const out: WeightedStatistic[] = [];
  if (scope.rows.length === 0) return out;
  accuracyFamily(table, scope, out);
  calibrationFamily(table, scope, out);
  const robust = worstCase(table, scope, 'accuracy_robust', KIND_ROBUSTNESS);
  if (robust) out.push(robust);
  const fair = worstCase(table, scope, 'accuracy_fair', KIND_FAIRNESS);
  if (fair) out.push(fair);
  groupFamily(table, scope, options, out);
  out.push(weightedMean('error_rate', Array.from(scope.instanceOfRow), Array.from(scope.rows, (row) => table.failed[row])));
  efficiencyFamily(table, scope, out);
  return out;
}
