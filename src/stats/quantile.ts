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
 * Quantile of a multiset given as distinct sorted values with integer multiplicities (a bootstrap
 * resample): the same as quantileSorted on the expanded list, without expanding it.
 */
export function weightedQuantileSorted(
  sorted: ArrayLike<number>,
  weightOf: (index: number) => number,
  total: number,
  q: number,
): number {
  if (total <= 0) return NaN;
  const h = (total - 1) * q;
  const lowRank = Math.floor(h);
  const highRank = Math.min(lowRank + 1, total - 1);
  let low = NaN;
  let seen = 0;
  for (let index = 0; index < sorted.length; index++) {
    const weight = weightOf(index);
    if (weight === 0) continue;
    seen += weight;
    if (Number.isNaN(low) && lowRank < seen) low = sorted[index];
    if (highRank < seen) return lerp(low, sorted[index], h - lowRank);
  }
  return NaN;
}
