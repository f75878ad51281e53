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
export function equalMassEce({ instance, value: confidence, payload: correct }: SortedRecords, weights: Float64Array): number {
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
export class HarmonicNumbers {
  private values = new Float64Array([0]);

  upTo(m: number): Float64Array {
    if (m < this.values.length) return this.values;
    const grown = new Float64Array(Math.max(m + 1, this.values.length * 2));
    grown.set(this.values);
    for (let k = this.values.length; k < grown.length; k++) grown[k] = grown[k - 1] + 1 / k;
    this.values = grown;
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
): [number, number] {
  const total = totalWeight(instance, weights);
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
