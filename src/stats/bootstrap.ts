import { quantileSorted } from './quantile.js';
import { PoissonSampler, Random, rejectionThreshold } from './random.js';

/*
 * Nonparametric bootstrap over instances. A resample draws `instanceCount` instances with replacement
 * (multinomial counts); a statistic sees those counts as weights, so an instance and all its records
 * (its perturbations) are resampled together.
 *
 * Large scopes use the bag of little bootstraps (Kleiner, Talwalkar, Sarkar and Jordan, 2014): each of
 * a few random subsets of b instances is resampled up to the full size n (multinomial(n, 1/b) counts
 * on its b instances), which costs O(b) instead of O(n) per resample. A subset's resamples estimate the
 * spread of the statistic around the subset's own value; shifted from it onto the full data's value and
 * pooled, they give the interval and the p-values as the plain bootstrap does.
 */

export interface BootstrapOptions {
  resamples: number;
  seed: number;
  /** Two-sided coverage of the interval, 0.95 by default. */
  level?: number;
  /** Instances per little-bootstrap subset; absent or >= the instance count: the plain bootstrap. */
  subsetSize?: number;
  /**
   * Outputs that grow with the number of instances (a total), by estimator and output: a subset's own
   * value is then scaled from its b instances to the n its resamples draw.
   */
  extensive?: (estimator: number, output: number) => boolean;
}

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 1;
/** Subsets of the bag of little bootstraps; the resamples are shared out among them. */
export const LITTLE_BOOTSTRAP_SUBSETS = 10;

/** Numbers computable from instance weights (all ones = the observed data); NaN = undefined. */
export interface Estimator {
  evaluate(weights: Float64Array): ArrayLike<number>;
}

/**
 * Builds the estimators over some instances: all of them (subset undefined), or the given subset,
 * renumbered 0..subset.length-1 in the order given.
 */
export type EstimatorFactory = (subset?: Int32Array) => Estimator[];

/**
 * Draws Multinomial(total, uniform over `cells` cells) into a counts array of that length, in
 * O(cells + sqrt(total)): Poisson counts with a mean a little below total/cells (redrawn in the 0.6% of
 * cases where they exceed total), topped up with uniform draws. Given their sum t, Poisson counts are
 * multinomial(t), and adding an independent multinomial(total - t) makes the result exactly
 * multinomial(total). The Poisson table is built once per drawer.
 */
export function multinomialDrawer(cells: number, total: number): (random: Random, counts: Float64Array) => void {
  const sampler = total > cells ? new PoissonSampler(Math.max(0, total - 2.5 * Math.sqrt(total)) / cells) : undefined;
  const threshold = rejectionThreshold(cells);
  return (random, counts) => {
    let drawn = 0;
    if (sampler) {
      do drawn = random.addPoisson(sampler, counts, cells);
      while (drawn > total);
    } else {
      counts.fill(0);
    }
    random.addUniform(counts, total - drawn, cells, threshold);
  };
}

/**
 * Visits every resample's values of each estimator: visit(e, values, own), `own` the estimator's values
 * on the little-bootstrap subset the resample comes from (each of its instances once), undefined for
 * the plain bootstrap. The drawing depends on the seed and the sizes only, never on the estimators.
 */
function eachResample(
  factory: EstimatorFactory,
  instanceCount: number,
  options: BootstrapOptions,
  visit: (estimator: number, values: ArrayLike<number>, own: ArrayLike<number> | undefined) => void,
): void {
  const random = new Random(options.seed);
  const collect = (estimators: Estimator[], resamples: number, cells: number, total: number, own?: ArrayLike<number>[]) => {
    const counts = new Float64Array(cells);
    const drawMultinomial = multinomialDrawer(cells, total);
    for (let resample = 0; resample < resamples; resample++) {
      drawMultinomial(random, counts);
      estimators.forEach((estimator, e) => visit(e, estimator.evaluate(counts), own?.[e]));
    }
  };
  const subsetSize = options.subsetSize ?? instanceCount;
  if (instanceCount > 0 && subsetSize >= instanceCount) {
    collect(factory(), options.resamples, instanceCount, instanceCount);
  } else if (instanceCount > 0) {
    const subsets = Math.min(LITTLE_BOOTSTRAP_SUBSETS, options.resamples);
    const shuffled = new Int32Array(instanceCount);
    for (let index = 0; index < instanceCount; index++) shuffled[index] = index;
    const ones = new Float64Array(subsetSize).fill(1);
    for (let subset = 0; subset < subsets; subset++) {
      // A partial Fisher-Yates shuffle picks subsetSize instances without replacement.
      for (let index = 0; index < subsetSize; index++) {
        const other = index + random.nextBelow(instanceCount - index);
        [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
      }
      const chosen = shuffled.slice(0, subsetSize).sort();
      const resamples = Math.floor(options.resamples / subsets) + (subset < options.resamples % subsets ? 1 : 0);
      const estimators = factory(chosen);
      // The subset's own values, copied: an estimator may hand back the same array on every call.
      const scale = instanceCount / subsetSize;
      const own = estimators.map((estimator, e) =>
        Float64Array.from(estimator.evaluate(ones), (value, k) => (options.extensive?.(e, k) ? value * scale : value)),
      );
      collect(estimators, resamples, subsetSize, instanceCount, own);
    }
  }
}

/**
 * The bootstrap distribution of each estimator output: `samples[e][k]` holds output k of estimator e
 * on each resample, leaving out resamples on which it is undefined (NaN). With little bootstraps, a
 * subset's resample v* becomes v* - v_subset + v, v_subset its value on the subset itself and v the
 * full data's (`centre`): the subset's resamples spread around v_subset as the full data's would
 * around v, and centring them on their own mean instead would shrink the spread by sqrt((r - 1) / r)
 * with r resamples a subset (docs/statistics.md).
 */
export function bootstrapSamples(
  factory: EstimatorFactory,
  centre: ArrayLike<number>[],
  instanceCount: number,
  options: BootstrapOptions,
): Float64Array[][] {
  const samples = centre.map((values) => Array.from(values, () => new Float64Array(options.resamples)));
  const filled = centre.map((values) => new Int32Array(values.length));
  eachResample(factory, instanceCount, options, (e, values, own) => {
    for (let k = 0; k < centre[e].length; k++) {
      const value = own ? values[k] - own[k] + centre[e][k] : values[k];
      if (!Number.isNaN(value)) samples[e][k][filled[e][k]++] = value;
    }
  });
  return samples.map((perOutput, e) => perOutput.map((sample, k) => sample.subarray(0, filled[e][k])));
}

/**
 * Each resample's deviations of one estimator's outputs (its components) from their centre: the full
 * data's values for the plain bootstrap, the subset's own for a little-bootstrap subset's resamples.
 * Undefined outputs stay NaN, so that deviations[r] lines up output by output.
 */
export function bootstrapDeviations(
  factory: (subset?: Int32Array) => Estimator,
  instanceCount: number,
  options: BootstrapOptions,
): Float64Array[] {
  const full = factory();
  const centre = Float64Array.from(full.evaluate(new Float64Array(instanceCount).fill(1)));
  const deviations: Float64Array[] = [];
  const estimators: EstimatorFactory = (subset) => [subset ? factory(subset) : full];
  eachResample(estimators, instanceCount, options, (_, values, own) => {
    const from = own ?? centre;
    deviations.push(Float64Array.from(centre, (_value, k) => values[k] - from[k]));
  });
  return deviations;
}

/** The percentile interval of a bootstrap distribution; undefined without a single valid resample. */
export function percentileInterval(samples: Float64Array, level = 0.95): [number, number] | undefined {
  if (samples.length === 0) return undefined;
  const sorted = Float64Array.from(samples).sort();
  const tail = (1 - level) / 2;
  return [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)];
}

export interface PairedDifference {
  /** candidate - baseline on the shared instances. */
  difference: number;
  ci: [number, number] | undefined;
  /** One-sided p-value for "the difference is really above 0" (H0: difference <= 0). */
  pAbove: number;
  /** One-sided p-value for "the difference is really below 0" (H0: difference >= 0). */
  pBelow: number;
  resamples: number;
  /** The standard deviation of the resampled differences: the comparison's standard error. */
  sd: number;
  /** The resampled differences, and the baseline's value on each of the same resamples. */
  differences: Float64Array;
  baselines: Float64Array;
}

/**
 * Paired bootstrap of a difference between two runs on the same instances: both estimators see the
 * same resampled counts. p-values count resamples on the wrong side of 0, with the usual +1
 * correction ((r + 1) / (B + 1)) so that a finite bootstrap never claims p = 0.
 */
export function pairedBootstrap(
  factory: (subset?: Int32Array) => { candidate: (weights: Float64Array) => number; baseline: (weights: Float64Array) => number },
  instanceCount: number,
  options: BootstrapOptions,
): PairedDifference {
  const ones = new Float64Array(instanceCount).fill(1);
  const full = factory();
  const baselineValue = full.baseline(ones);
  const difference = full.candidate(ones) - baselineValue;
  // The baseline's value rides along with each difference (a budget relative to the baseline is
  // applied to each resample's own); both are undefined together, so the two stay aligned.
  const differenceOf = (subset?: Int32Array): Estimator[] => {
    const { candidate, baseline } = subset ? factory(subset) : full;
    return [
      {
        evaluate: (weights) => {
          const base = baseline(weights);
          const change = candidate(weights) - base;
          return Number.isNaN(change) ? [NaN, NaN] : [change, base];
        },
      },
    ];
  };
  const [[samples, baselines]] = bootstrapSamples(differenceOf, [[difference, baselineValue]], instanceCount, options);
  let notAbove = 0;
  let notBelow = 0;
  for (const value of samples) {
    if (value <= 0) notAbove++;
    if (value >= 0) notBelow++;
  }
  const valid = samples.length;
  return {
    difference,
    ci: percentileInterval(samples, options.level),
    pAbove: (notAbove + 1) / (valid + 1),
    pBelow: (notBelow + 1) / (valid + 1),
    resamples: valid,
    sd: standardDeviation(samples),
    differences: samples,
    baselines,
  };
}

/** The sample standard deviation (n - 1); NaN for fewer than two values. */
export function standardDeviation(values: Float64Array): number {
  if (values.length < 2) return NaN;
  let mean = 0;
  for (const value of values) mean += value;
  mean /= values.length;
  let squares = 0;
  for (const value of values) squares += (value - mean) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}
