import { weightedQuantilesSorted } from '../stats/quantile.js';
import type { Scope } from './scope.js';
import { mergeEntries, SlotEntriesBuilder, sumSlots, type SlotEntries, type SlotTotals } from './sums.js';
import { KIND_FAIRNESS, KIND_ORIGINAL, KIND_ROBUSTNESS, type RecordTable } from './table.js';

/**
 * Every metric is a statistic of instance weights: evaluated as if instance i appeared weights[i]
 * times. All weights 1 gives the metrics' values; multinomial counts give a bootstrap resample.
 * A Statistic computes one or more metrics in one pass; NaN means undefined for those weights
 * (e.g. no weight on any record the metric uses).
 */
export interface MetricInfo {
  metric: string;
  /** How many records (instances for worst-case accuracy) the value rests on. */
  n: number;
}

export interface Statistic {
  metrics: MetricInfo[];
  evaluate(weights: Float64Array): ArrayLike<number>;
  /** An equivalent statistic that is faster to evaluate many times (built once per bootstrap). */
  forResampling(instanceCount: number): Statistic;
}

export interface MetricOptions {
  /** Groups with fewer original records are reported but left out of worst-group and gap metrics. */
  minGroupSize: number;
}

export const DEFAULT_MIN_GROUP_SIZE = 10;

const ECE_BINS = 10;

/** A metric defined by the slot totals. */
interface DerivedMetric extends MetricInfo {
  derive(totals: SlotTotals): number;
}

class SumsStatistic implements Statistic {
  readonly metrics: MetricInfo[];
  constructor(
    private readonly entries: SlotEntries,
    private readonly derived: DerivedMetric[],
  ) {
    this.metrics = derived.map(({ metric, n }) => ({ metric, n }));
  }
  evaluate(weights: Float64Array): number[] {
    const totals = sumSlots(this.entries, weights);
    return this.derived.map((metric) => metric.derive(totals));
  }
  forResampling(instanceCount: number): Statistic {
    return new SumsStatistic(mergeEntries(this.entries, instanceCount), this.derived);
  }
}

const ratio = (slot: number) => ({ numerator, denominator }: SlotTotals) =>
  denominator[slot] > 0 ? numerator[slot] / denominator[slot] : NaN;

/** Sum over bins of (bin share) * |mean correct - mean confidence|. */
function calibrationError(binWeight: ArrayLike<number>, binCorrect: ArrayLike<number>, binConfidence: ArrayLike<number>): number {
  let total = 0;
  for (let bin = 0; bin < binWeight.length; bin++) total += binWeight[bin];
  if (total <= 0) return NaN;
  let error = 0;
  for (let bin = 0; bin < binWeight.length; bin++) {
    const weight = binWeight[bin];
    if (weight > 0) error += (weight / total) * Math.abs(binCorrect[bin] / weight - binConfidence[bin] / weight);
  }
  return error;
}

/** Records of the scope sorted by a value, for the metrics that depend on order. */
interface SortedRecords {
  instance: Int32Array;
  value: Float64Array;
  /** A second per-record number carried along (e.g. `correct`). */
  payload: Float64Array;
}

/**
 * Every row's position when the table's rows that have a value are ordered by it, ties in input
 * order. Computed once per column and direction; scopes and bootstrap subsets then order their rows
 * by these integers, which is much faster than comparing values again.
 */
const rankCache = new WeakMap<Float64Array, { ascending?: Int32Array; descending?: Int32Array }>();

function ranksOf(column: Float64Array, descending: boolean): Int32Array {
  let cached = rankCache.get(column);
  if (!cached) rankCache.set(column, (cached = {}));
  const key = descending ? 'descending' : 'ascending';
  const known = cached[key];
  if (known) return known;
  let present = 0;
  for (let row = 0; row < column.length; row++) if (!Number.isNaN(column[row])) present++;
  const sorted = new Float64Array(present);
  present = 0;
  for (let row = 0; row < column.length; row++) if (!Number.isNaN(column[row])) sorted[present++] = column[row];
  sorted.sort();
  // A row's rank: where its value's run of ties starts in the chosen direction, plus the rows with the
  // same value met before it in input order.
  const tiesBefore = new Int32Array(present);
  const ranks = new Int32Array(column.length).fill(-1);
  for (let row = 0; row < column.length; row++) {
    const value = column[row];
    if (Number.isNaN(value)) continue;
    const first = descending ? present - upperBound(sorted, value) : lowerBound(sorted, value);
    ranks[row] = first + tiesBefore[first]++;
  }
  cached[key] = ranks;
  return ranks;
}

/** First index whose value is >= value. */
function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** First index whose value is > value. */
function upperBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Positions are packed with their rank into one float: exact while rank * 2^22 + position < 2^53. */
const POSITION_BITS = 4194304; // 2^22

function sortRecords(rows: number[], instances: number[], value: Float64Array, payload: Float64Array, descending: boolean): SortedRecords {
  const ranks = ranksOf(value, descending);
  if (rows.length >= POSITION_BITS) throw new Error(`a scope of more than ${POSITION_BITS - 1} records with this value is not supported`);
  const keys = new Float64Array(rows.length);
  for (let position = 0; position < rows.length; position++) keys[position] = ranks[rows[position]] * POSITION_BITS + position;
  keys.sort();
  const sorted: SortedRecords = {
    instance: new Int32Array(rows.length),
    value: new Float64Array(rows.length),
    payload: new Float64Array(rows.length),
  };
  for (let index = 0; index < keys.length; index++) {
    const position = keys[index] % POSITION_BITS;
    sorted.instance[index] = instances[position];
    sorted.value[index] = value[rows[position]];
    sorted.payload[index] = payload[rows[position]];
  }
  return sorted;
}

function totalWeight(instance: Int32Array, weights: Float64Array): number {
  let total = 0;
  for (let index = 0; index < instance.length; index++) total += weights[instance[index]];
  return total;
}

/**
 * HELM's ece_10_bin on the multiset where each record appears its instance's weight times: k = min(10, N)
 * chunks of the sorted confidences cut as numpy.array_split does, boundaries at the midpoints between
 * adjacent chunks plus 1.0 (duplicates dropped), a value equal to a boundary in the lower bin.
 */
function equalMassEce({ instance, value: confidence, payload: correct }: SortedRecords, weights: Float64Array): number {
  const total = totalWeight(instance, weights);
  if (total <= 0) return NaN;
  const chunks = Math.min(ECE_BINS, total);
  const base = Math.floor(total / chunks);
  const larger = total % chunks; // the first `larger` chunks hold one value more
  const chunkStarts: number[] = []; // 0-based positions of the first value of chunks 1..k-1
  for (let chunk = 1; chunk < chunks; chunk++) chunkStarts.push(chunk * base + Math.min(chunk, larger));

  const boundaries: number[] = [];
  let seen = 0;
  let previous = NaN;
  let next = 0;
  for (let index = 0; index < instance.length; index++) {
    const weight = weights[instance[index]];
    if (weight === 0) continue;
    const value = confidence[index];
    // Each chunk start inside this run of copies: the value before it is this one or the previous one.
    while (next < chunkStarts.length && chunkStarts[next] < seen + weight) {
      boundaries.push(((chunkStarts[next] > seen ? value : previous) + value) / 2);
      next++;
    }
    seen += weight;
    previous = value;
  }
  boundaries.push(1.0);
  const bins = [...new Set(boundaries)].sort((a, b) => a - b);

  const binWeight = new Float64Array(bins.length);
  const binCorrect = new Float64Array(bins.length);
  const binConfidence = new Float64Array(bins.length);
  let bin = 0;
  for (let index = 0; index < instance.length; index++) {
    const weight = weights[instance[index]];
    if (weight === 0) continue;
    const value = confidence[index];
    while (bins[bin] < value) bin++; // bisect_left, values ascending
    binWeight[bin] += weight;
    binCorrect[bin] += weight * correct[index];
    binConfidence[bin] += weight * value;
  }
  return calibrationError(binWeight, binCorrect, binConfidence);
}

/** Runs of more copies than this are summed in closed form rather than copy by copy. */
const CLOSED_FORM_COPIES = 32;

/** H(m) - H(k) = 1/(k+1) + ... + 1/m, the harmonic numbers' difference. */
function harmonicDifference(k: number, m: number): number {
  // Asymptotic expansion of ln(m/k) corrections; exact to ~1e-15 relative for k >= 32.
  const tail = (x: number) => Math.log(x) + 1 / (2 * x) - 1 / (12 * x * x) + 1 / (120 * x ** 4);
  if (k >= CLOSED_FORM_COPIES) return tail(m) - tail(k);
  let sum = 0;
  for (let j = k + 1; j <= Math.min(m, CLOSED_FORM_COPIES); j++) sum += 1 / j;
  return m > CLOSED_FORM_COPIES ? sum + tail(m) - tail(CLOSED_FORM_COPIES) : sum;
}

/**
 * HELM's selective accuracy, records ordered by confidence, highest first: acc_k is the accuracy of
 * the first k; the area is the mean of acc_k over k = 1..N; "@10" is acc_k at k = floor(N/10) + 1.
 */
function selectiveAccuracy({ instance, payload: correct }: SortedRecords, weights: Float64Array): [number, number] {
  const total = totalWeight(instance, weights);
  if (total <= 0) return [NaN, NaN];
  const tenPercentK = Math.floor(0.1 * total) + 1;
  let k = 0;
  let correctSoFar = 0;
  let areaSum = 0;
  let atTenPercent = NaN;
  for (let index = 0; index < instance.length; index++) {
    const copies = weights[instance[index]];
    if (copies === 0) continue;
    const score = correct[index];
    if (tenPercentK > k && tenPercentK <= k + copies) atTenPercent = (correctSoFar + (tenPercentK - k) * score) / tenPercentK;
    if (copies <= CLOSED_FORM_COPIES) {
      for (let copy = 0; copy < copies; copy++) {
        k++;
        correctSoFar += score;
        areaSum += correctSoFar / k;
      }
    } else {
      // sum over t = 1..copies of (correctSoFar + t*score) / (k + t)
      areaSum += copies * score + (correctSoFar - score * k) * harmonicDifference(k, k + copies);
      k += copies;
      correctSoFar += copies * score;
    }
  }
  return [areaSum / total, atTenPercent];
}

/** A statistic over records sorted once; cheap enough to evaluate as it is. */
function sortedStatistic(metrics: MetricInfo[], evaluate: (weights: Float64Array) => ArrayLike<number>): Statistic {
  const statistic: Statistic = { metrics, evaluate, forResampling: () => statistic };
  return statistic;
}

/** All metrics of one scope whose inputs are present. A metric without inputs is left out, never 0. */
export function prepareStatistics(table: RecordTable, scope: Scope, options: MetricOptions): Statistic[] {
  if (scope.rows.length === 0) return [];
  const sums = new SlotEntriesBuilder();
  const derived: DerivedMetric[] = [];
  const counted = (slot: number) => {
    let n = 0;
    return { slot, add: (instance: number, value: number) => (n++, sums.add(slot, instance, value)), count: () => n };
  };

  const accuracy = counted(sums.newSlot());
  const errors = counted(sums.newSlot());
  const brier = counted(sums.newSlot());
  const eceCorrect = Array.from({ length: ECE_BINS }, () => sums.newSlot());
  const eceConfidence = Array.from({ length: ECE_BINS }, () => sums.newSlot());
  const toxic = counted(sums.newSlot());
  const outputTokens = counted(sums.newSlot());
  const cost = counted(sums.newSlot());
  const groupSlots = new Map<string, Map<number, ReturnType<typeof counted>>>();

  const worstOriginal = new Float64Array(scope.instanceCount).fill(Infinity);
  const worstRobust = new Float64Array(scope.instanceCount).fill(Infinity);
  const worstFair = new Float64Array(scope.instanceCount).fill(Infinity);
  const calibrationRows: number[] = [];
  const calibrationInstances: number[] = [];
  const latencyRows: number[] = [];
  const latencyInstances: number[] = [];

  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    const instance = scope.instanceOfRow[index];
    const failed = table.failed[row] === 1;
    errors.add(instance, failed ? 1 : 0);
    if (failed) continue;
    const kind = table.kind[row];
    const correct = table.correct[row];
    if (kind === KIND_ROBUSTNESS) worstRobust[instance] = Math.min(worstRobust[instance], correct);
    else if (kind === KIND_FAIRNESS) worstFair[instance] = Math.min(worstFair[instance], correct);
    else {
      worstOriginal[instance] = Math.min(worstOriginal[instance], correct);
      accuracy.add(instance, correct);
      const confidence = table.confidence[row];
      if (!Number.isNaN(confidence)) {
        brier.add(instance, (confidence - correct) ** 2);
        const bin = Math.min(Math.floor(confidence * 10), ECE_BINS - 1);
        sums.add(eceCorrect[bin], instance, correct);
        sums.add(eceConfidence[bin], instance, confidence);
        calibrationRows.push(row);
        calibrationInstances.push(instance);
      }
      for (const [attribute, column] of table.groups) {
        const value = column.valueOf[row];
        if (value < 0) continue;
        let slots = groupSlots.get(attribute);
        if (!slots) groupSlots.set(attribute, (slots = new Map()));
        let slot = slots.get(value);
        if (!slot) slots.set(value, (slot = counted(sums.newSlot())));
        slot.add(instance, correct);
      }
    }
    if (!Number.isNaN(table.latencyMs[row])) {
      latencyRows.push(row);
      latencyInstances.push(instance);
    }
    if (!Number.isNaN(table.toxicity[row])) toxic.add(instance, table.toxicity[row] >= 0.5 ? 1 : 0);
    if (!Number.isNaN(table.outputTokens[row])) outputTokens.add(instance, table.outputTokens[row]);
    if (!Number.isNaN(table.costUsd[row])) cost.add(instance, table.costUsd[row]);
  }

  const statistics: Statistic[] = [];
  const addRatio = (metric: string, slot: ReturnType<typeof counted>) => {
    if (slot.count() > 0) derived.push({ metric, n: slot.count(), derive: ratio(slot.slot) });
  };

  addRatio('accuracy', accuracy);
  const calibrated = calibrationRows.length;
  if (calibrated > 0) {
    derived.push({
      metric: 'ece',
      n: calibrated,
      derive: ({ numerator, denominator }) =>
        calibrationError(
          eceCorrect.map((slot) => denominator[slot]),
          eceCorrect.map((slot) => numerator[slot]),
          eceConfidence.map((slot) => numerator[slot]),
        ),
    });
    const ascending = sortRecords(calibrationRows, calibrationInstances, table.confidence, table.correct, false);
    statistics.push(sortedStatistic([{ metric: 'ece_10_bin', n: calibrated }], (weights) => [equalMassEce(ascending, weights)]));
    addRatio('brier', brier);
    const descending = sortRecords(calibrationRows, calibrationInstances, table.confidence, table.correct, true);
    statistics.push(
      sortedStatistic(
        [
          { metric: 'selective_cov_acc_area', n: calibrated },
          { metric: 'selective_acc@10', n: calibrated },
        ],
        (weights) => selectiveAccuracy(descending, weights),
      ),
    );
  }

  // HELM's worst case per instance over the original and its perturbations of one kind; instances
  // without a usable original are left out, and so are their perturbations.
  for (const [metric, worstPerturbed] of [
    ['accuracy_robust', worstRobust],
    ['accuracy_fair', worstFair],
  ] as const) {
    const slot = counted(sums.newSlot());
    let perturbed = false;
    for (let instance = 0; instance < scope.instanceCount; instance++) {
      if (worstOriginal[instance] === Infinity) continue;
      if (worstPerturbed[instance] !== Infinity) perturbed = true;
      slot.add(instance, Math.min(worstOriginal[instance], worstPerturbed[instance]));
    }
    if (perturbed) addRatio(metric, slot);
  }

  for (const [attribute, slots] of groupSlots) {
    const column = table.groups.get(attribute)!;
    const eligible = [...slots.values()].filter((slot) => slot.count() >= options.minGroupSize);
    if (eligible.length > 0) {
      const n = eligible.reduce((sum, slot) => sum + slot.count(), 0);
      const accuracies = (totals: SlotTotals) => eligible.map((slot) => ratio(slot.slot)(totals)).filter((value) => !Number.isNaN(value));
      derived.push({
        metric: `worst_group_accuracy:${attribute}`,
        n,
        derive: (totals) => {
          const values = accuracies(totals);
          return values.length > 0 ? Math.min(...values) : NaN;
        },
      });
      derived.push({
        metric: `group_accuracy_gap:${attribute}`,
        n,
        derive: (totals) => {
          const values = accuracies(totals);
          return values.length > 0 ? Math.max(...values) - Math.min(...values) : NaN;
        },
      });
    }
    for (const [value, slot] of slots) addRatio(`group_accuracy:${attribute}=${column.values[value]}`, slot);
  }

  addRatio('error_rate', errors);
  if (latencyRows.length > 0) {
    const ascending = sortRecords(latencyRows, latencyInstances, table.latencyMs, table.latencyMs, false);
    const n = latencyRows.length;
    statistics.push(
      sortedStatistic(
        [
          { metric: 'latency_p50_ms', n },
          { metric: 'latency_p95_ms', n },
        ],
        (weights) => weightedQuantilesSorted(ascending.value, ascending.instance, weights, [0.5, 0.95]),
      ),
    );
  }
  addRatio('toxicity_rate', toxic);
  addRatio('output_tokens_mean', outputTokens);
  if (cost.count() > 0) derived.push({ metric: 'cost_usd_total', n: cost.count(), derive: ({ numerator }) => numerator[cost.slot] });

  if (derived.length > 0) statistics.unshift(new SumsStatistic(sums.build(), derived));
  return statistics;
}
