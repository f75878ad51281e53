import { normalQuantile } from '../stats/normal.js';

/*
 * The smallest worsening a regression check sees at 80% power. With sigma the standard error of the
 * paired difference (the standard deviation of its bootstrap), b the budget and alpha' the level of
 * one test (alpha / m: Holm's own level depends on the data, so plan with Bonferroni's), the check
 * blocks iff the observed worsening exceeds max(b, z(1 - alpha') sigma); a true worsening d is then
 * caught with probability Phi((d - max(b, z(1 - alpha') sigma)) / sigma), which is 0.8 at
 *   MDE80 = max(b, z(1 - alpha') sigma) + z(0.8) sigma.
 */

export const POWER = 0.8;

export function minimumDetectableWorsening(sd: number, budget: number, alphaPerTest: number): number {
  return Math.max(budget, normalQuantile(1 - alphaPerTest) * sd) + normalQuantile(POWER) * sd;
}

/**
 * The spread to plan with: the bootstrap's, but for a metric in [0, 1] at least sqrt(d (1 - d) / n),
 * the spread of a worsening d of 0/1 scores on n shared instances (at least a share d of them must
 * change). Two runs that agree on every instance (a deterministic model, cached answers) show no
 * spread at all, which says nothing about the regressions the comparison could see.
 */
export function plannedSpread(sd: number, unitMetric: boolean, detect: number | null, instances: number): number {
  const d = detect === null ? 0 : Math.min(Math.max(detect, 0), 1);
  return unitMetric && instances > 0 ? Math.max(sd, Math.sqrt((d * (1 - d)) / instances)) : sd;
}

/**
 * The standard error at which a check reaches MDE80 = detect: below both (detect - b) / z(0.8) and
 * detect / (z(1 - alpha') + z(0.8)). Undefined when detect is not above the budget.
 */
export function standardErrorToDetect(detect: number, budget: number, alphaPerTest: number): number | undefined {
  if (!(detect > budget)) return undefined;
  const zPower = normalQuantile(POWER);
  return Math.min((detect - budget) / zPower, detect / (normalQuantile(1 - alphaPerTest) + zPower));
}

/**
 * The fewest samples per example K' (at least 1) at which the spread reaches `needed`, when a share f of
 * its variance is noise within examples (which shrinks as 1/K) and the rest lies between instances:
 * se(K') = se sqrt((1 - f) + f K / K') <= needed at K' = ceil(f K / ((needed / se)^2 - (1 - f))).
 * Undefined when the part between instances alone, se^2 (1 - f), is not below needed^2: no number of
 * samples reaches it, only more instances.
 */
export function samplesToDetect(spread: number, share: number, samples: number, needed: number): number | undefined {
  const room = (needed / spread) ** 2 - (1 - share);
  if (!(room > 0)) return undefined;
  return Math.max(1, Math.ceil((share * samples) / room));
}
