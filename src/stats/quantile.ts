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
  // Stryker disable next-line ConditionalExpression: without it, sorted[low] and sorted[high] of no value are undefined and lerp gives NaN too
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const low = Math.floor(h);
  const high = Math.min(low + 1, n - 1);
  return lerp(sorted[low], sorted[high], h - low);
}

/**
 * A quantile of a resample without expanding it: `sorted` ascending, value i appearing
 * weights[instanceOf[i]] times, `total` copies in all. The same as quantileSorted on the expanded list.
 * It walks in from the nearer end, so the high percentiles cost little.
 */
export function weightedQuantileSorted(
  sorted: Float64Array,
  instanceOf: Int32Array,
  weights: Float64Array,
  total: number,
  q: number,
): number {
  if (total <= 0) return NaN;
  const h = (total - 1) * q;
  const lowRank = Math.floor(h);
  const highRank = Math.min(lowRank + 1, total - 1);
  let low = NaN;
  let seen = 0; // copies passed so far
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: both walks find the copies at lowRank and highRank, the same values; the test only picks the nearer end
  if (lowRank < total / 2) {
    // Stryker disable next-line EqualityOperator: the walk returns by the last copy (seen reaches total > highRank), never one past the end
    for (let index = 0; index < sorted.length; index++) {
      seen += weights[instanceOf[index]];
      if (Number.isNaN(low) && seen > lowRank) low = sorted[index];
      if (seen > highRank) return lerp(low, sorted[index], h - lowRank);
    }
  } else {
    // From the top: the copy at rank r is the (total - 1 - r)-th from the end.
    let high = NaN;
    for (let index = sorted.length - 1; index >= 0; index--) {
      seen += weights[instanceOf[index]];
      if (Number.isNaN(high) && seen > total - 1 - highRank) high = sorted[index];
      if (seen > total - 1 - lowRank) return lerp(sorted[index], high, h - lowRank);
    }
  }
  return NaN;
}
