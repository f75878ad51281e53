import { standardDeviation } from './bootstrap.js';

/*
 * How much of the variance of a mean over units is sampling noise that repeated samples shrink: one-way
 * random-effects ANOVA by the method of moments (docs/statistics.md, "Samples per example"). A unit is
 * what the bootstrap resamples (an instance); it holds groups (its examples), and a group the values
 * y_gk of its K_g repeated samples (none empty). A unit's value is the mean of its groups' means.
 *
 * - s_w^2, the variance of one sample around its group's mean: the pooled within-group variance,
 *   sum (y_gk - mean_g)^2 / sum (K_g - 1) (MS_within); groups of one sample add nothing to it.
 * - Sampling adds s_w^2 c_u to the value of unit u, c_u = (1 / E_u^2) sum_g 1 / K_g (E_u its groups).
 * - The variance across units of their values, S^2, estimates sigma_b^2 + s_w^2 mean(c_u): so
 *   sigma_b^2 = max(0, S^2 - s_w^2 mean(c_u)). With one group of K samples per unit this is the textbook
 *   (MS_between - MS_within) / K.
 *
 * Two runs paired on their units (candidate, baseline): a unit's value is the difference, and each run
 * adds its own sampling part (their samples are independent).
 */

/** Per unit, its groups; per group, the values of its samples. */
export type SampledUnits = ReadonlyArray<ReadonlyArray<ArrayLike<number>>>;

export interface VarianceSplit {
  /** sigma_b^2: the variance of a unit's value that more samples cannot remove. */
  between: number;
  /** sigma_w^2: what sampling adds to a unit's variance at one sample per group; at K samples, sigma_w^2 / K. */
  within: number;
  /** K: the samples per group now (with unequal counts, the effective number: sampling adds within / K). */
  samples: number;
  /** f = (within / K) / (between + within / K): the share of a unit's variance that is sampling noise. */
  share: number;
  /** The units present in every run, which the split rests on. */
  units: number;
}

/** A run's pooled within-group variance and, averaged over the units, sum 1/E_u and sum c_u; its unit values are added to `values` with `sign`. */
function runMoments(run: SampledUnits, units: number[], sign: number, values: Float64Array) {
  let squares = 0;
  let degrees = 0;
  let perGroup = 0;
  let perSample = 0;
  units.forEach((unit, index) => {
    const groups = run[unit];
    let means = 0;
    let inverseSizes = 0;
    for (const group of groups) {
      let mean = 0;
      for (let k = 0; k < group.length; k++) mean += group[k] / group.length;
      for (let k = 0; k < group.length; k++) squares += (group[k] - mean) ** 2;
      degrees += group.length - 1;
      // Stryker disable next-line AssignmentOperator: -= sums the means negated, so every unit's value is negated, which leaves their variance (all that is read of them) unchanged
      means += mean;
      inverseSizes += 1 / group.length;
    }
    // Stryker disable next-line AssignmentOperator: -= negates every unit's value, which leaves their variance (all that is read of them) unchanged
    values[index] += (sign * means) / groups.length;
    perGroup += 1 / groups.length / units.length;
    perSample += inverseSizes / groups.length ** 2 / units.length;
  });
  return { variance: degrees > 0 ? squares / degrees : undefined, perGroup, perSample };
}

/**
 * The split of one run's units (`runs` = [run]) or of two runs' paired differences ([candidate, baseline],
 * units aligned by index). Undefined when fewer than two units are present in every run, or a run has
 * no group of two or more samples (with one sample per group the two parts cannot be told apart).
 */
export function varianceComponents(runs: readonly SampledUnits[]): VarianceSplit | undefined {
  const units = [...runs[0].keys()].filter((unit) => runs.every((run) => run[unit].length > 0));
  if (units.length < 2) return undefined;
  const values = new Float64Array(units.length);
  let within = 0;
  let sampling = 0;
  let effective = 0;
  for (const [index, run] of runs.entries()) {
    // Stryker disable next-line EqualityOperator: !== takes baseline - candidate, the differences negated: the same variance
    const { variance, perGroup, perSample } = runMoments(run, units, index === 0 ? 1 : -1, values);
    if (variance === undefined) return undefined;
    within += variance * perGroup;
    sampling += variance * perSample;
    effective += perGroup / perSample / runs.length;
  }
  const between = Math.max(0, standardDeviation(values) ** 2 - sampling);
  return {
    between,
    within,
    // Samples that all agree (no sampling noise) leave K as the runs' own effective count.
    samples: sampling > 0 ? within / sampling : effective,
    share: sampling > 0 ? sampling / (between + sampling) : 0,
    units: units.length,
  };
}
