/**
 * numpy's default percentile ("linear": interpolate between the closest ranks at h = (n - 1) q),
 * including numpy's way of computing the interpolation so that results agree to the last bits.
 */
export function lerp(low: number, high: number, t: number): number {
  const difference = high - low;
  return t >= 0.5 ? high - difference * (1 - t) : low + difference * t;
}

/** Quantile q in [0, 1] of values already sorted ascending. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const low = Math.floor(h);
  const high = Math.min(low + 1, n - 1);
  return lerp(sorted[low], sorted[high], h - low);
}

/**
 * Quantiles of a resample without expanding it: `sorted` ascending, value i appearing
 * weights[instanceOf[i]] times. The same as quantileSorted on the expanded list, for each q ascending.
 */
export function weightedQuantilesSorted(
  sorted: Float64Array,
  instanceOf: Int32Array,
  weights: Float64Array,
  qs: readonly number[],
): number[] {
  let total = 0;
  for (let index = 0; index < instanceOf.length; index++) total += weights[instanceOf[index]];
  const results = qs.map(() => NaN);
  if (total <= 0) return results;
  let seen = 0; // copies consumed so far
  let index = 0;
  let current = NaN; // the value of the last copy consumed
  const consumeThrough = (rank: number) => {
    while (seen <= rank) {
      const weight = weights[instanceOf[index]];
      if (weight > 0) {
        seen += weight;
        current = sorted[index];
      }
      index++;
    }
  };
  qs.forEach((q, k) => {
    const h = (total - 1) * q;
    const lowRank = Math.floor(h);
    consumeThrough(lowRank);
    const low = current;
    consumeThrough(Math.min(lowRank + 1, total - 1));
    results[k] = lerp(low, current, h - lowRank);
  });
  return results;
}
