import { normalQuantile } from './normal.js';

/**
 * Wilson's score interval for a proportion of `successes` out of `n` trials, at confidence `level`
 * (Wilson 1927; recommended for small n by Brown, Cai & DasGupta 2001): the p whose score test does
 * not reject, (p^ + z^2/2n +- z sqrt(p^(1-p^)/n + z^2/4n^2)) / (1 + z^2/n). It stays inside [0, 1] and
 * is not degenerate at 0 or n successes, where the normal (Wald) interval collapses to a point.
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): [number, number] | undefined {
  if (!(n > 0) || successes < 0 || successes > n) return undefined;
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  // At 0 and n successes the bounds are 0 and 1 exactly (rounding would leave 2e-17).
  const low = successes === 0 ? 0 : Math.max(0, (centre - spread) / scale);
  const high = successes === n ? 1 : Math.min(1, (centre + spread) / scale);
  return [low, high];
}
