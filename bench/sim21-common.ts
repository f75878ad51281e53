// Shared by issue 21's simulations: a measured share with its binomial 95% interval.

export interface Rate {
  count: number;
  trials: number;
  rate: number;
  /** Wilson's score interval at 95% (it stays inside [0, 1] and says something at 0 of n). */
  low: number;
  high: number;
}

const Z = 1.959963984540054;

export function rate(count: number, trials: number): Rate {
  const p = trials > 0 ? count / trials : NaN;
  const centre = (p + (Z * Z) / (2 * trials)) / (1 + (Z * Z) / trials);
  const half = (Z / (1 + (Z * Z) / trials)) * Math.sqrt((p * (1 - p)) / trials + (Z * Z) / (4 * trials * trials));
  return { count, trials, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** "12.0% [9.4, 15.1]" */
export function formatRate({ rate: p, low, high }: Rate): string {
  return `${(100 * p).toFixed(1)}% [${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`;
}

/** Mean and its standard error. */
export function meanOf(values: number[]): { mean: number; se: number } {
  const finite = values.filter(Number.isFinite);
  const mean = finite.reduce((sum, x) => sum + x, 0) / finite.length;
  const variance = finite.reduce((sum, x) => sum + (x - mean) ** 2, 0) / Math.max(1, finite.length - 1);
  return { mean, se: Math.sqrt(variance / finite.length) };
}
