import { weightedQuantileSorted } from '../stats/quantile.js';
import { reverseKeepingTies, sortRowsByValue } from '../stats/sort.js';
import type { Scope } from './scope.js';
import { SlotsBuilder, sumSlots, type Slot, type SlotTotals } from './sums.js';
import { KIND_FAIRNESS, KIND_ORIGINAL, KIND_ROBUSTNESS, type RecordTable, type RowOrder } from './table.js';

/*
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
    private readonly slots: Slot[],
    private readonly derived: DerivedMetric[],
  ) {
    this.metrics = derived.map(({ metric, n }) => ({ metric, n }));
  }
  evaluate(weights: Float64Array): number[] {
    const totals = sumSlots(this.slots, weights);
    return this.derived.map((metric) => metric.derive(totals));
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

/** The orderings the metrics use: confidence both ways (calibration, selective accuracy), latency. */
type Ordering = 'confidence ascending' | 'confidence descending' | 'latencyMs ascending';

/**
 * Every row's position when the table's rows that have a value are ordered by it, ties in input
 * order. Computed once per table and kept in it; scopes and bootstrap subsets then order their rows
 * by these integers, much faster than comparing values.
 */
function rowOrder(table: RecordTable, ordering: Ordering): RowOrder {
  const known = table.orderings.get(ordering);
  if (known) return known;
  const [name, direction] = ordering.split(' ') as ['confidence' | 'latencyMs', string];
  const column = table[name];
  let rowAtRank: Int32Array;
  if (direction === 'descending') {
    rowAtRank = reverseKeepingTies(rowOrder(table, `${name} ascending` as Ordering).rowAtRank, column);
  } else {
    const present: number[] = [];
    for (let row = 0; row < column.length; row++) if (!Number.isNaN(column[row])) present.push(row);
    rowAtRank = sortRowsByValue(column, Int32Array.from(present));
  }
  const rankOf = new Int32Array(column.length).fill(-1);
  for (let rank = 0; rank < rowAtRank.length; rank++) rankOf[rowAtRank[rank]] = rank;
  const order = { rankOf, rowAtRank };
  table.orderings.set(ordering, order);
  return order;
}

/** Positions are packed with their rank into one float: exact while rank * 2^22 + position < 2^53. */
const POSITION_BITS = 4194304; // 2^22

/** The positions in `rows` of those rows, ordered: for a large share of the table, by walking the table's order. */
function orderOfRows(table: RecordTable, ordering: Ordering, rows: number[]): Int32Array {
  const { rankOf, rowAtRank } = rowOrder(table, ordering);
  const order = new Int32Array(rows.length);
  if (rows.length * 16 > table.size || rows.length >= POSITION_BITS) {
    const positionOf = new Int32Array(table.size).fill(-1);
    for (let position = 0; position < rows.length; position++) positionOf[rows[position]] = position;
    let next = 0;
    for (let rank = 0; rank < rowAtRank.length; rank++) {
      const position = positionOf[rowAtRank[rank]];
      if (position >= 0) order[next++] = position;
    }
    return order;
  }
  // A small set (a bootstrap subset): sort (rank, position) pairs packed into floats, natively.
  const keys = new Float64Array(rows.length);
  for (let position = 0; position < rows.length; position++) keys[position] = rankOf[rows[position]] * POSITION_BITS + position;
  keys.sort();
  for (let index = 0; index < keys.length; index++) order[index] = keys[index] % POSITION_BITS;
  return order;
}

function sortRecords(table: RecordTable, ordering: Ordering, rows: number[], instances: number[], payload: Float64Array): SortedRecords {
  const value = ordering.startsWith('confidence') ? table.confidence : table.latencyMs;
  const order = orderOfRows(table, ordering, rows);
  const sorted: SortedRecords = {
    instance: new Int32Array(rows.length),
    value: new Float64Array(rows.length),
    payload: new Float64Array(rows.length),
  };
  for (let index = 0; index < order.length; index++) {
    const position = order[index];
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

/** Harmonic numbers H(0..m), grown on demand: H(k + c) - H(k) sums the 1/(k + t) of c copies at once. */
let harmonic = new Float64Array([0]);
function harmonicUpTo(m: number): Float64Array {
  if (m < harmonic.length) return harmonic;
  const grown = new Float64Array(Math.max(m + 1, harmonic.length * 2));
  grown.set(harmonic);
  for (let k = harmonic.length; k < grown.length; k++) grown[k] = grown[k - 1] + 1 / k;
  harmonic = grown;
  return grown;
}

/**
 * HELM's selective accuracy, records ordered by confidence, highest first: acc_k is the accuracy of
 * the first k; the area is the mean of acc_k over k = 1..N; "@10" is acc_k at k = floor(N/10) + 1.
 */
function selectiveAccuracy({ instance, payload: correct }: SortedRecords, weights: Float64Array): [number, number] {
  const total = totalWeight(instance, weights);
  if (total <= 0) return [NaN, NaN];
  const tenPercentK = Math.floor(0.1 * total) + 1;
  const h = harmonicUpTo(total);
  let k = 0;
  let correctSoFar = 0;
  let areaSum = 0;
  let atTenPercent = NaN;
  for (let index = 0; index < instance.length; index++) {
    const copies = weights[instance[index]];
    if (copies === 0) continue;
    const score = correct[index];
    if (tenPercentK > k && tenPercentK <= k + copies) atTenPercent = (correctSoFar + (tenPercentK - k) * score) / tenPercentK;
    if (copies === 1) {
      k++;
      correctSoFar += score;
      areaSum += correctSoFar / k;
    } else {
      // The sum over t = 1..copies of (correctSoFar + t*score) / (k + t), in closed form.
      areaSum += copies * score + (correctSoFar - score * k) * (h[k + copies] - h[k]);
      k += copies;
      correctSoFar += copies * score;
    }
  }
  return [areaSum / total, atTenPercent];
}

/** What one pass over a scope's records collects for all the metrics. */
interface ScopeCollection {
  sums: SlotsBuilder;
  accuracy: number;
  errors: number;
  brier: number;
  eceCorrect: number[];
  eceConfidence: number[];
  toxic: number;
  outputTokens: number;
  cost: number;
  /** Per `groups` attribute: the slot of each value (-1 if absent) and the values in order of appearance. */
  groups: Array<{ attribute: string; values: string[]; slotOf: Int32Array; seen: number[] }>;
  /** Per instance, the lowest `correct` of its originals and of its perturbations of each kind (Infinity: none). */
  worstOriginal: Float64Array;
  worstRobust: Float64Array;
  worstFair: Float64Array;
  calibrationRows: number[];
  calibrationInstances: number[];
  latencyRows: number[];
  latencyInstances: number[];
}

/** The one pass over a scope's records, kept apart from the metrics' closures so that it stays fast. */
function collectScope(table: RecordTable, scope: Scope): ScopeCollection {
  const sums = new SlotsBuilder();
  const accuracy = sums.newSlot();
  const errors = sums.newSlot();
  const brier = sums.newSlot();
  const eceCorrect = Array.from({ length: ECE_BINS }, () => sums.newSlot());
  const eceConfidence = Array.from({ length: ECE_BINS }, () => sums.newSlot());
  const toxic = sums.newSlot();
  const outputTokens = sums.newSlot();
  const cost = sums.newSlot();
  const groupColumns = [...table.groups.values()].map((column) => column.valueOf);
  const groups = [...table.groups].map(([attribute, column]) => ({
    attribute,
    values: column.values,
    slotOf: new Int32Array(column.values.length).fill(-1),
    seen: [] as number[],
  }));
  const worstOriginal = new Float64Array(scope.instanceCount).fill(Infinity);
  const worstRobust = new Float64Array(scope.instanceCount).fill(Infinity);
  const worstFair = new Float64Array(scope.instanceCount).fill(Infinity);
  const calibrationRows: number[] = [];
  const calibrationInstances: number[] = [];
  const latencyRows: number[] = [];
  const latencyInstances: number[] = [];
  const { failed, kind, correct: correctOf, confidence: confidenceOf, latencyMs, toxicity, outputTokens: tokensOf, costUsd } = table;

  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    const instance = scope.instanceOfRow[index];
    const rowFailed = failed[row] === 1;
    sums.add(errors, instance, rowFailed ? 1 : 0);
    if (rowFailed) continue;
    const rowKind = kind[row];
    const correct = correctOf[row];
    if (rowKind === KIND_ROBUSTNESS) worstRobust[instance] = Math.min(worstRobust[instance], correct);
    else if (rowKind === KIND_FAIRNESS) worstFair[instance] = Math.min(worstFair[instance], correct);
    else {
      worstOriginal[instance] = Math.min(worstOriginal[instance], correct);
      sums.add(accuracy, instance, correct);
      const confidence = confidenceOf[row];
      if (!Number.isNaN(confidence)) {
        sums.add(brier, instance, (confidence - correct) ** 2);
        const bin = Math.min(Math.floor(confidence * 10), ECE_BINS - 1);
        sums.add(eceCorrect[bin], instance, correct);
        sums.add(eceConfidence[bin], instance, confidence);
        calibrationRows.push(row);
        calibrationInstances.push(instance);
      }
      for (let attribute = 0; attribute < groupColumns.length; attribute++) {
        const value = groupColumns[attribute][row];
        if (value < 0) continue;
        const group = groups[attribute];
        if (group.slotOf[value] < 0) {
          group.slotOf[value] = sums.newSlot();
          group.seen.push(value);
        }
        sums.add(group.slotOf[value], instance, correct);
      }
    }
    if (!Number.isNaN(latencyMs[row])) {
      latencyRows.push(row);
      latencyInstances.push(instance);
    }
    if (!Number.isNaN(toxicity[row])) sums.add(toxic, instance, toxicity[row] >= 0.5 ? 1 : 0);
    if (!Number.isNaN(tokensOf[row])) sums.add(outputTokens, instance, tokensOf[row]);
    if (!Number.isNaN(costUsd[row])) sums.add(cost, instance, costUsd[row]);
  }
  return {
    sums,
    accuracy,
    errors,
    brier,
    eceCorrect,
    eceConfidence,
    toxic,
    outputTokens,
    cost,
    groups,
    worstOriginal,
    worstRobust,
    worstFair,
    calibrationRows,
    calibrationInstances,
    latencyRows,
    latencyInstances,
  };
}

/** All metrics of one scope whose inputs are present. A metric without inputs is left out, never 0. */
export function prepareStatistics(table: RecordTable, scope: Scope, options: MetricOptions): Statistic[] {
  if (scope.rows.length === 0) return [];
  const collected = collectScope(table, scope);
  const { sums, accuracy, errors, brier, eceCorrect, eceConfidence, toxic, outputTokens, cost, groups } = collected;
  const { worstOriginal, worstRobust, worstFair, calibrationRows, calibrationInstances, latencyRows, latencyInstances } = collected;
  const derived: DerivedMetric[] = [];

  const statistics: Statistic[] = [];
  const addRatio = (metric: string, slot: number) => {
    if (sums.count(slot) > 0) derived.push({ metric, n: sums.count(slot), derive: ratio(slot) });
  };

  addRatio('accuracy', accuracy);
  const calibrated = calibrationRows.length;
  if (calibrated > 0) {
    const binWeight = new Float64Array(ECE_BINS);
    const binCorrect = new Float64Array(ECE_BINS);
    const binConfidence = new Float64Array(ECE_BINS);
    derived.push({
      metric: 'ece',
      n: calibrated,
      derive: ({ numerator, denominator }) => {
        for (let bin = 0; bin < ECE_BINS; bin++) {
          binWeight[bin] = denominator[eceCorrect[bin]];
          binCorrect[bin] = numerator[eceCorrect[bin]];
          binConfidence[bin] = numerator[eceConfidence[bin]];
        }
        return calibrationError(binWeight, binCorrect, binConfidence);
      },
    });
    const ascending = sortRecords(table, 'confidence ascending', calibrationRows, calibrationInstances, table.correct);
    statistics.push({ metrics: [{ metric: 'ece_10_bin', n: calibrated }], evaluate: (weights) => [equalMassEce(ascending, weights)] });
    addRatio('brier', brier);
    const descending = sortRecords(table, 'confidence descending', calibrationRows, calibrationInstances, table.correct);
    statistics.push({
      metrics: [
        { metric: 'selective_cov_acc_area', n: calibrated },
        { metric: 'selective_acc@10', n: calibrated },
      ],
      evaluate: (weights) => selectiveAccuracy(descending, weights),
    });
  }

  // HELM's worst case per instance over the original and its perturbations of one kind; instances
  // without a usable original are left out, and so are their perturbations.
  for (const [metric, worstPerturbed] of [
    ['accuracy_robust', worstRobust],
    ['accuracy_fair', worstFair],
  ] as const) {
    const slot = sums.newSlot();
    let perturbed = false;
    for (let instance = 0; instance < scope.instanceCount; instance++) {
      if (worstOriginal[instance] === Infinity) continue;
      if (worstPerturbed[instance] !== Infinity) perturbed = true;
      sums.add(slot, instance, Math.min(worstOriginal[instance], worstPerturbed[instance]));
    }
    if (perturbed) addRatio(metric, slot);
  }

  for (const { attribute, values, slotOf, seen } of groups) {
    if (seen.length === 0) continue;
    const eligible = seen.map((value) => slotOf[value]).filter((slot) => sums.count(slot) >= options.minGroupSize);
    if (eligible.length > 0) {
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
      derived.push({ metric: `worst_group_accuracy:${attribute}`, n, derive: (totals) => range(totals)[0] });
      derived.push({
        metric: `group_accuracy_gap:${attribute}`,
        n,
        derive: (totals) => {
          const [lowest, highest] = range(totals);
          return highest - lowest;
        },
      });
    }
    for (const value of seen) addRatio(`group_accuracy:${attribute}=${values[value]}`, slotOf[value]);
  }

  addRatio('error_rate', errors);
  if (latencyRows.length > 0) {
    const ascending = sortRecords(table, 'latencyMs ascending', latencyRows, latencyInstances, table.latencyMs);
    const n = latencyRows.length;
    // Timed records per instance, to total a resample's copies without a pass over every record.
    const perInstance = new Float64Array(scope.instanceCount);
    for (const instance of latencyInstances) perInstance[instance]++;
    const timed: number[] = [];
    for (let instance = 0; instance < perInstance.length; instance++) if (perInstance[instance] > 0) timed.push(instance);
    const timedInstances = Int32Array.from(timed);
    const timedCounts = timedInstances.map((instance) => perInstance[instance]);
    statistics.push({
      metrics: [
        { metric: 'latency_p50_ms', n },
        { metric: 'latency_p95_ms', n },
      ],
      evaluate: (weights) => {
        let total = 0;
        for (let index = 0; index < timedInstances.length; index++) total += weights[timedInstances[index]] * timedCounts[index];
        return [0.5, 0.95].map((q) => weightedQuantileSorted(ascending.value, ascending.instance, weights, total, q));
      },
    });
  }
  addRatio('toxicity_rate', toxic);
  addRatio('output_tokens_mean', outputTokens);
  if (sums.count(cost) > 0) derived.push({ metric: 'cost_usd_total', n: sums.count(cost), derive: ({ numerator }) => numerator[cost] });

  if (derived.length > 0) statistics.unshift(new SumsStatistic(sums.build(), derived));
  return statistics;
}
