import { normalCdf, normalQuantile } from './normal.js';
import { quantileSorted } from './quantile.js';

/*
 * Estimates, confidence bounds and p-values for the metrics whose plug-in estimate is biased by
 * O(1/sqrt(n)): a calibration error (a sum of absolute bin gaps), the worst group's accuracy (a minimum
 * of means) and the gap between groups (a range of means). Each is a function of components (the bins'
 * signed gaps, the groups' accuracies) whose estimates are unbiased or nearly so, and the tests here are
 * built on the components' bootstrap deviations so that they hold whatever the unknown components are:
 * in particular when they are equal, or zero, where the plug-in's bias is largest and the bootstrap of
 * the metric itself cannot see it (its resamples all lie on the biased side of the truth).
 * docs/statistics-design-21.md derives them and measures them by simulation.
 *
 * Deviations: deviations[r][k] = component k on resample r minus the component's centre (the full
 * data's value for the plain bootstrap; a little-bootstrap subset's own value for its resamples); NaN
 * where the component is undefined on that resample (a group the resample does not hold).
 *
 * Every family gives pAbove(limit), the p-value of "the value is above limit" (H0: value <= limit; a
 * lenient max blocks, a strict min passes, when it is small), pBelow(limit) the other way round, and
 * bounds(alpha), the one-sided bounds at level 1 - alpha that those tests amount to (pAbove(limit) <
 * alpha about when bounds(alpha).lower > limit). Resampled p-values count (#{...} + 1) / (B + 1).
 */

export interface ConfidenceBounds {
  /** One-sided lower bound at level 1 - alpha. */
  lower: number;
  /** One-sided upper bound at level 1 - alpha. */
  upper: number;
}

export interface BoundTests {
  /** The plug-in value of the metric from the components. */
  value: number;
  bounds(alpha: number): ConfidenceBounds;
  pAbove(limit: number): number;
  pBelow(limit: number): number;
}

/** Bootstrap bias correction (Efron and Tibshirani 1993, ch. 10): value - (mean of the resamples - value). */
export function biasCorrected(value: number, samples: ArrayLike<number>): number {
  let sum = 0;
  let count = 0;
  for (let r = 0; r < samples.length; r++) {
    if (Number.isNaN(samples[r])) continue;
    sum += samples[r];
    count++;
  }
  // Stryker disable next-line ConditionalExpression: `false` computes 2 * value - 0 / 0 with no count, NaN as well; `true` is killed.
  return count === 0 ? NaN : 2 * value - sum / count;
}

/** E|mu + s Z|, Z standard normal: the folded normal's mean. */
export function foldedNormalMean(mu: number, s: number): number {
  const m = Math.abs(mu);
  if (!(s > 0)) return m;
  return s * Math.sqrt(2 / Math.PI) * Math.exp((-m * m) / (2 * s * s)) + m * (1 - 2 * normalCdf(-m / s));
}

/**
 * The debiased calibration error of Kumar, Liang and Ma (NeurIPS 2019, "Verified Uncertainty
 * Calibration", section 5, their normal_debiased_ce with p = 1), in closed form: each bin's
 * |mean correct - mean confidence| = |d| is replaced by 2|d| - E|d + s Z|, s^2 = ybar (1 - ybar) / n_b
 * the variance of the bin's mean correct, i.e. the plug-in minus its bias under a normal model of the
 * bin's mean. Bins are given by their weight n_b and sums of correct and confidence.
 */
export function debiasedCalibrationError(weight: ArrayLike<number>, correct: ArrayLike<number>, confidence: ArrayLike<number>): number {
  let total = 0;
  for (let bin = 0; bin < weight.length; bin++) total += weight[bin];
  if (!(total > 0)) return NaN;
  let error = 0;
  // Stryker disable next-line EqualityOperator: `<=` reads weight[weight.length], undefined, which !(n > 0) skips; `>=` is killed.
  for (let bin = 0; bin < weight.length; bin++) {
    const n = weight[bin];
    if (!(n > 0)) continue;
    const accuracy = correct[bin] / n;
    const gap = accuracy - confidence[bin] / n;
    const s = Math.sqrt(Math.max(0, accuracy * (1 - accuracy)) / n);
    error += (n / total) * (2 * Math.abs(gap) - foldedNormalMean(gap, s));
  }
  return error;
}

/** Each component's bootstrap standard deviation (NaN deviations left out; NaN with fewer than two). */
export function componentSpreads(deviations: ArrayLike<number>[], components: number): Float64Array {
  const spreads = new Float64Array(components);
  // Stryker disable next-line EqualityOperator: `<=` adds k = components, whose spread is written past the end of the Float64Array, which ignores it; `>=` is killed.
  for (let k = 0; k < components; k++) {
    let count = 0;
    let mean = 0;
    let squares = 0;
    for (const deviation of deviations) {
      const x = deviation[k];
      if (Number.isNaN(x)) continue;
      count++;
      const delta = x - mean;
      mean += delta / count;
      squares += delta * (x - mean);
    }
    // Stryker disable next-line EqualityOperator: `>=` takes one deviation's sqrt(0 / 0), NaN as well; `<=` is killed.
    spreads[k] = count > 1 ? Math.sqrt(squares / (count - 1)) : NaN;
  }
  return spreads;
}

/** A statistic's resampled values: its (1 - alpha) quantile, and the p-value of an observed value (#{>= observed} + 1) / (B + 1). */
class Resampled {
  private readonly sorted: Float64Array;
  constructor(values: number[]) {
    this.sorted = Float64Array.from(values.filter(Number.isFinite)).sort();
  }
  quantile(alpha: number): number {
    return quantileSorted(this.sorted, 1 - alpha);
  }
  p(observed: number): number {
    let atLeast = 0;
    for (const value of this.sorted) if (value >= observed) atLeast++;
    return (atLeast + 1) / (this.sorted.length + 1);
  }
}

/**
 * Tests on E = sum_b |m_b| from estimates m^_b of the signed parts (a calibration error: m_b the
 * share-weighted gap of bin b, E[(correct - confidence) 1{bin b}]). With D = sum_b |m^_b - m_b|:
 *   |E^ - E| <= D (triangle inequality): lower = E^ - q_{1-alpha}(D*) holds for every m, and
 *   pAbove(L) = P*(D* >= E^ - L);
 *   E - E^ <= sum_b sign(m_b) (m_b - m^_b), a sum of the parts' errors with fixed signs, whose spread is
 *   s = sqrt(sum_b var*(m^*_b)): upper = E^ + z_{1-alpha} s holds for every m, pBelow(L) = Phi((E^ - L) / s).
 * D* is D on the bootstrap deviations. The lower bound is exact at m = 0 (a calibrated model, where
 * the plug-in's bias is largest) and conservative when every bin is clearly miscalibrated.
 */
export function absoluteSumTests(parts: ArrayLike<number>, deviations: ArrayLike<number>[]): BoundTests {
  let value = 0;
  for (let b = 0; b < parts.length; b++) value += Math.abs(parts[b]);
  const distances = new Resampled(
    deviations.map((deviation) => {
      let d = 0;
      for (let b = 0; b < parts.length; b++) if (!Number.isNaN(deviation[b])) d += Math.abs(deviation[b]);
      return d;
    }),
  );
  let variance = 0;
  for (const spread of componentSpreads(deviations, parts.length)) if (Number.isFinite(spread)) variance += spread * spread;
  const s = Math.sqrt(variance);
  return {
    value,
    bounds: (alpha) => ({ lower: Math.max(0, value - distances.quantile(alpha)), upper: value + normalQuantile(1 - alpha) * s }),
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the distances are sums of absolute values, at least 0, so with value <= limit p(value - limit) counts all of them: 1, as returned (`true`, `>=`; a limit is a policy number, which zod keeps from being NaN); the other mutants are killed.
    pAbove: (limit) => (value > limit ? distances.p(value - limit) : 1),
    pBelow: (limit) => (s > 0 ? normalCdf((value - limit) / s) : value < limit ? 0 : 1),
  };
}

/**
 * Each group's spread, at least what the groups' pooled variance gives it (sizes: the groups' weights,
 * records or examples): a small group whose estimate happens to lie near 0 or 1 shows a bootstrap spread
 * far below its true one (a proportion's variance p (1 - p) / n is estimated at p^), and would alone
 * decide a minimum or a range. Pooling is exact when the groups are equal, where the bias is largest.
 */
function flooredSpreads(spreads: Float64Array, sizes: ArrayLike<number> | undefined): Float64Array {
  if (!sizes) return spreads;
  let pooled = 0;
  let total = 0;
  spreads.forEach((spread, g) => {
    if (!Number.isFinite(spread)) return;
    pooled += sizes[g] * sizes[g] * spread * spread; // n_g var(a^_g): the group's per-record variance, weighted by n_g
    total += sizes[g];
  });
  if (!(total > 0)) return spreads;
  return spreads.map((spread, g) => Math.max(Number.isFinite(spread) ? spread : 0, Math.sqrt(pooled / total / sizes[g])));
}

/**
 * The studentized maximum over the resamples, max_k sign * deviation_k / spread_k (sign -1: how far
 * below; 0: either way): its quantile is the critical value of simultaneous bounds on all the components
 * at once (max-t; Romano and Wolf 2005). A component without spread does not stray: it counts 0 where
 * it is defined, as its distance to a limit it sits on counts (largestStandardized), so components that
 * never vary are shown beyond a limit they are beyond (p = 1 / (B + 1), as by the plain bootstrap,
 * where every resample is beyond it), never one they sit on. A resample without any component is undefined (NaN).
 */
function studentizedMaxima(deviations: ArrayLike<number>[], spreads: Float64Array, sign: -1 | 0): Resampled {
  return new Resampled(
    deviations.map((deviation) => {
      let max = -Infinity;
      for (let k = 0; k < spreads.length; k++) {
        if (Number.isNaN(deviation[k])) continue;
        const t = spreads[k] > 0 ? deviation[k] / spreads[k] : 0;
        max = Math.max(max, sign === 0 ? Math.abs(t) : -t);
      }
      return max === -Infinity ? NaN : max;
    }),
  );
}

const spreadOr0 = (spread: number) => (Number.isFinite(spread) ? spread : 0);

/** The largest of (x_k - limit) / s_k (limit - x_k when `below`), the statistic a simultaneous test compares with its critical value. */
function largestStandardized(values: number[], spreads: ArrayLike<number>, limit: number, below: boolean): number {
  let largest = -Infinity;
  values.forEach((x, k) => {
    const distance = below ? limit - x : x - limit;
    const s = spreadOr0(spreads[k]);
    largest = Math.max(largest, s > 0 ? distance / s : distance > 0 ? Infinity : distance < 0 ? -Infinity : 0);
  });
  return largest;
}

/**
 * Tests on W = min_g a_g (the worst group's accuracy) from the groups' estimates a^_g:
 *   W is above L only if every group is: pAbove(L) = max_g Phi((L - a^_g) / se_g), and the lower bound
 *   min_g (a^_g - z_{1-alpha} se_g) (W is below it only if the truly worst group is below its own);
 *   W is below L if some group is: pBelow(L) compares t = max_g (L - a^_g) / se_g with the simultaneous
 *   distribution of max_g (a^_g - a^*_g) / se_g (max-t over the bootstrap), and the upper bound is
 *   min_g (a^_g + c se_g), c its (1 - alpha) quantile. A plain z there would fail when several groups
 *   are equally bad: each has its own chance to fall low, which is the minimum's bias.
 * se_g: the bootstrap spreads, floored by the pooled variance when the groups' sizes are given.
 */
export function minimumTests(values: ArrayLike<number>, deviations: ArrayLike<number>[], sizes?: ArrayLike<number>): BoundTests {
  const estimates = Array.from(values);
  const spreads = flooredSpreads(componentSpreads(deviations, estimates.length), sizes);
  // Stryker disable next-line UnaryOperator: studentizedMaxima tells the one-sided sign only from 0 (sign === 0), so +1 is read as -1.
  const maxima = studentizedMaxima(deviations, spreads, -1);
  return {
    value: Math.min(...estimates),
    bounds: (alpha) => {
      const z = normalQuantile(1 - alpha);
      const c = maxima.quantile(alpha);
      return {
        lower: Math.min(...estimates.map((a, g) => a - z * spreadOr0(spreads[g]))),
        upper: Math.min(...estimates.map((a, g) => a + c * spreadOr0(spreads[g]))),
      };
    },
    pAbove: (limit) => normalCdf(largestStandardized(estimates, spreads, limit, true)),
    pBelow: (limit) => maxima.p(largestStandardized(estimates, spreads, limit, true)),
  };
}

/**
 * Tests on G = max_g a_g - min_g a_g (the gap between groups) over the pairs' differences
 * d_gh = |a^_g - a^_h|:
 *   G is below L only if the truly extreme pair is: pBelow(L) = max_(g,h) Phi((d_gh - L) / se_gh), and
 *   the upper bound max_(g,h) (d_gh + z_{1-alpha} se_gh);
 *   G is above L if some pair is: pAbove(L) compares t = max_(g,h) (d_gh - L) / se_gh with the
 *   simultaneous distribution of max over pairs |d^*_gh - d^_gh| / se_gh, and the lower bound is
 *   max(0, max_(g,h) (d_gh - c se_gh)), c its (1 - alpha) quantile: with equal groups every pair may
 *   stray, and the plug-in's bias comes from the largest of them.
 * se_gh: the pair's bootstrap spread, at least that of two independent groups with floored spreads.
 */
export function rangeTests(values: ArrayLike<number>, deviations: ArrayLike<number>[], sizes?: ArrayLike<number>): BoundTests {
  const pairs: Array<[number, number]> = [];
  // Stryker disable next-line EqualityOperator: `g <=` adds g = length, whose h loop starts past the end and adds no pair; the other mutants are killed.
  for (let g = 0; g < values.length; g++) for (let h = g + 1; h < values.length; h++) pairs.push([g, h]);
  const pairDeviations = deviations.map((deviation) => pairs.map(([g, h]) => deviation[g] - deviation[h]));
  const group = flooredSpreads(componentSpreads(deviations, values.length), sizes);
  const spreads = componentSpreads(pairDeviations, pairs.length).map((spread, k) =>
    Math.max(spreadOr0(spread), sizes ? Math.hypot(spreadOr0(group[pairs[k][0]]), spreadOr0(group[pairs[k][1]])) : 0),
  );
  const differences = pairs.map(([g, h]) => Math.abs(values[g] - values[h]));
  const maxima = studentizedMaxima(pairDeviations, spreads, 0);
  return {
    value: Math.max(...Array.from(values)) - Math.min(...Array.from(values)),
    bounds: (alpha) => {
      const z = normalQuantile(1 - alpha);
      const c = maxima.quantile(alpha);
      return {
        lower: Math.max(0, ...differences.map((d, k) => d - c * spreads[k])),
        upper: Math.max(0, ...differences.map((d, k) => d + z * spreads[k])),
      };
    },
    pAbove: (limit) => maxima.p(largestStandardized(differences, spreads, limit, false)),
    pBelow: (limit) => normalCdf(largestStandardized(differences, spreads, limit, false)),
  };
}
