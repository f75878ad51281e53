import { quantileSorted } from './quantile.js';
import { Random } from './random.js';

/*
 * Nonparametric bootstrap over instances. A resample draws `instanceCount` instances with replacement
 * (multinomial counts); a statistic sees those counts as weights, so an instance and all its records
 * (its perturbations) are resampled together.
 */

export interface BootstrapOptions {
  resamples: number;
  seed: number;
  /** Two-sided coverage of the interval, 0.95 by default. */
  level?: number;
}

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 1;

/** Anything computable from instance weights (all ones = the observed data). */
export interface Estimator {
  evaluate(weights: ArrayLike<number>): number;
}

/** Draws the multinomial counts of one resample into `counts`. */
export function drawResample(random: Random, counts: Float64Array): void {
  counts.fill(0);
  const n = counts.length;
  for (let draw = 0; draw < n; draw++) counts[random.nextBelow(n)]++;
}

/**
 * The bootstrap distribution of each estimator: `samples[e]` holds its value on each resample, with
 * resamples on which it is undefined (NaN) left out.
 */
export function bootstrapSamples(estimators: Estimator[], instanceCount: number, options: BootstrapOptions): Float64Array[] {
  const random = new Random(options.seed);
  const counts = new Float64Array(instanceCount);
  const samples = estimators.map(() => new Float64Array(options.resamples));
  const filled = new Int32Array(estimators.length);
  if (instanceCount === 0) return samples.map((sample) => sample.subarray(0, 0));
  for (let resample = 0; resample < options.resamples; resample++) {
    drawResample(random, counts);
    for (let e = 0; e < estimators.length; e++) {
      const value = estimators[e].evaluate(counts);
      if (!Number.isNaN(value)) samples[e][filled[e]++] = value;
    }
  }
  return samples.map((sample, e) => sample.subarray(0, filled[e]));
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
}

/**
 * Paired bootstrap of a difference between two runs on the same instances: both estimators see the
 * same resampled counts. p-values count resamples on the wrong side of 0, with the usual +1
 * correction ((r + 1) / (B + 1)) so that a finite bootstrap never claims p = 0.
 */
export function pairedBootstrap(
  candidate: Estimator,
  baseline: Estimator,
  instanceCount: number,
  options: BootstrapOptions,
): PairedDifference {
  const ones = new Float64Array(instanceCount).fill(1);
  const difference = candidate.evaluate(ones) - baseline.evaluate(ones);
  const [samples] = bootstrapSamples(
    [{ evaluate: (weights) => candidate.evaluate(weights) - baseline.evaluate(weights) }],
    instanceCount,
    options,
  );
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
  };
}
