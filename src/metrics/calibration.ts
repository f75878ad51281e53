import type { SortedRecords } from './ordering.js';

/*
 * The calibration metrics over weighted records: a record counts as many times as its instance's
 * weight (a bootstrap resample's count).
 */

export const ECE_BINS = 10;

/** Sum over bins of (bin share) * |mean correct - mean confidence|. */
export function calibrationError(binWeight: ArrayLike<number>, binCorrect: ArrayLike<number>, binConfidence: ArrayLike<number>): number {
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

/** The total weight of the records: how many copies of them a resample holds. */
export function totalWeight(instance: Int32Array, weights: Float64Array): number {
  let total = 0;
  for (let index = 0; index < instance.length; index++) total += weights[instance[index]];
  return total;
}

/** Per-bin sums and the boundaries between chunks, reused from one resample to the next. */
export class EceBins {
  readonly weight = new Float64Array(ECE_BINS);
  readonly correct = new Float64Array(ECE_BINS);
  readonly confidence = new Float64Array(ECE_BINS);
  readonly boundary = new Float64Array(ECE_BINS);
}

/**
 * HELM's ece_10_bin on the multiset where each record appears its instance's weight times: k = min(10, N)
 * chunks of the sorted confidences cut as numpy.array_split does, boundaries at the midpoints between
 * adjacent chunks plus 1.0 (duplicates dropped), a value equal to a boundary in the lower bin.
 *
 * In one walk: a value v falls in bin min{ j : boundary_j >= v } (bisect_left; a repeated boundary
 * leaves an empty bin). When the walk reaches a record, every boundary at or before its first copy is
 * known, and every later one is at least v (the values after it are), so the bin is the first known
 * boundary at or above v, else the chunk its first copy is in; bins only move up as v does. Chunks
 * are contiguous in the sorted order, so every bin's sums are made in the same order as by binning
 * against the finished boundaries.
 */
export function equalMassEce(
  { instance, value: confidence, payload: correct }: SortedRecords,
  weights: Float64Array,
  total = totalWeight(instance, weights),
  bins = new EceBins(),
): number {
  if (total <= 0) return NaN;
  const chunks = Math.min(ECE_BINS, total);
  const base = Math.floor(total / chunks);
  const larger = total % chunks; // the first `larger` chunks hold one value more
  const { boundary } = bins;
  bins.weight.fill(0);
  bins.correct.fill(0);
  bins.confidence.fill(0);
  let nextChunk = 1; // the first chunk whose start the walk has not reached
  let nextStart = chunks > 1 ? base + Math.min(1, larger) : Infinity;
  let bin = 0;
  let seen = 0;
  let previous = NaN;
  // The current bin's sums, in locals (a sum kept in an array waits for its own store on every record);
  // bins only move up, so each bin's sums are made in one stretch, in the same order.
  let binWeight = 0;
  let binCorrect = 0;
  let binConfidence = 0;
  for (let index = 0; index < instance.length; index++) {
    const weight = weights[instance[index]];
    if (weight === 0) continue;
    const value = confidence[index];
    // Chunk starts among the previous record's copies (after its first), or at this record's first copy.
    while (nextStart <= seen) {
      boundary[nextChunk - 1] = ((nextStart === seen ? value : previous) + previous) / 2;
      nextChunk++;
      nextStart = nextChunk < chunks ? nextChunk * base + Math.min(nextChunk, larger) : Infinity;
    }
    if (bin < nextChunk - 1 && boundary[bin] < value) {
      bins.weight[bin] = binWeight;
      bins.correct[bin] = binCorrect;
      bins.confidence[bin] = binConfidence;
      binWeight = binCorrect = binConfidence = 0;
      do bin++;
      while (bin < nextChunk - 1 && boundary[bin] < value);
    }
    binWeight += weight;
    binCorrect += weight * correct[index];
    binConfidence += weight * value;
    seen += weight;
    previous = value;
  }
  bins.weight[bin] = binWeight;
  bins.correct[bin] = binCorrect;
  bins.confidence[bin] = binConfidence;
  return calibrationError(bins.weight, bins.correct, bins.confidence);
}

/** Harmonic numbers H(0..m), grown on demand: H(k + c) - H(k) sums the 1/(k + t) of c copies at once. */
export class HarmonicNumbers {
  private values = new Float64Array([0]);

  upTo(m: number): Float64Array {
    if (m < this.values.length) return this.values;
    const grown = new Float64Array(Math.max(m + 1, this.values.length * 2));
    grown.set(this.values);
    const from = this.values.length;
    this.values = grown; // before the loop: code after a loop V8 optimized midway bailed out (no type feedback yet)
    for (let k = from; k < grown.length; k++) grown[k] = grown[k - 1] + 1 / k;
    return grown;
  }
}

/**
 * HELM's selective accuracy, records ordered by confidence, highest first: acc_k is the accuracy of
 * the first k; the area is the mean of acc_k over k = 1..N; "@10" is acc_k at k = floor(N/10) + 1.
 */
export function selectiveAccuracy(
  { instance, payload: correct }: SortedRecords,
  weights: Float64Array,
  harmonic: HarmonicNumbers,
  total = totalWeight(instance, weights),
): [number, number] {
  if (total <= 0) return [NaN, NaN];
  const tenPercentK = Math.floor(0.1 * total) + 1;
  const h = harmonic.upTo(total);
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
