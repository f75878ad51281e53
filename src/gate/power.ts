import { lookupMetric } from '../metrics/registry.js';
import type { SamplesSplit } from '../metrics/samples-split.js';
import type { Budget } from '../policy/schema.js';
import { normalQuantile } from '../stats/normal.js';
import { SAMPLES_CANNOT_REACH } from './types.js';

/*
 * The smallest worsening a regression check sees at 80% power. With sigma the standard error of the
 * paired difference (the standard deviation of its bootstrap), b the budget and alpha' the level of
 * one test (alpha / m: Holm's own level depends on the data, so plan with Bonferroni's), the budget
 * test (H0: worsening <= b) blocks about when the observed worsening exceeds b + z(1 - alpha') sigma; a
 * true worsening d is then caught with probability Phi((d - b) / sigma - z(1 - alpha')), which is 0.8 at
 *   MDE80 = b + (z(1 - alpha') + z(0.8)) sigma.
 * `evalgate plan` and the gate's reports use this one formula.
 */

export const POWER = 0.8;

/**
 * `plan` sizes a suite for a spread this share of the one at which MDE80 = detect (MDE80 <= 0.85 detect
 * at budget 0): MDE80 moves with the bootstrap's spread from run to run, and a suite sized exactly would
 * be inconclusive about half the time (docs/statistics-design-21.md, section 2).
 */
export const PLAN_MARGIN = 0.85;

export function minimumDetectableWorsening(sd: number, budget: number, alphaPerTest: number): number {
  return budget + (normalQuantile(1 - alphaPerTest) + normalQuantile(POWER)) * sd;
}

/** Whether a metric's values lie in [0, 1] (a share, a rate): its budgets are in absolute points. */
export function isUnitMetric(metric: string): boolean {
  const range = lookupMetric(metric)?.range;
  return range !== undefined && range[0] === 0 && range[1] === 1;
}

/**
 * What a regression check must detect when it does not say (docs/statistics.md, "The default detect"):
 * max(3 b, 0.05) for a metric in [0, 1] with a budget in its units; 3 x a relative budget ("5%" ->
 * "15%"); 3 b for a positive budget on another metric; 10% of the baseline for a budget of 0 (or 0%)
 * on a metric outside [0, 1], where there is no scale to multiply.
 */
export function defaultDetect(metric: string, budget: Budget): Budget {
  const stated = typeof budget === 'number' ? budget : Number.parseFloat(budget);
  if (isUnitMetric(metric) && typeof budget === 'number') return Math.max(3 * budget, 0.05);
  if (stated > 0) return typeof budget === 'number' ? 3 * budget : `${3 * stated}%`;
  return isUnitMetric(metric) ? 0.05 : '10%';
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
 * The standard error `plan` sizes for: PLAN_MARGIN of the one at which MDE80 = detect,
 * PLAN_MARGIN (detect - b) / (z(1 - alpha') + z(0.8)). Undefined when detect is not above the budget.
 */
export function standardErrorToDetect(detect: number, budget: number, alphaPerTest: number): number | undefined {
  if (!(detect > budget)) return undefined;
  return (PLAN_MARGIN * (detect - budget)) / (normalQuantile(1 - alphaPerTest) + normalQuantile(POWER));
}

/**
 * The instances at which a spread of `spread` on `instances` instances shrinks (as 1 / sqrt(n)) to
 * `needed`: n' = n (spread / needed)^2, never fewer than a paired comparison needs at all.
 */
export function instancesToDetect(spread: number, instances: number, needed: number, minInstances: number): number {
  return Math.max(minInstances, Math.ceil(instances * (spread / needed) ** 2));
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

/** What a check's samples say: `evalgate plan`'s samples columns, and the gate's power (samplesNeeded, samplesNote). */
export interface SamplesColumns {
  /** Samples per example now: the scope's records per example, in both runs. */
  samples: number;
  /** The share of the spread's variance that is sampling noise within examples (null: not split, see samplesNote). */
  withinShare: number | null;
  /** Samples per example needed, at today's instances, to see what the check must detect (null: see samplesNote). */
  samplesNeeded: number | null;
  /** Why withinShare or samplesNeeded is null; null when both are given. */
  samplesNote: string | null;
}

/**
 * The samples columns of a check: its split (metrics/samples-split.ts) applied to the spread, and the
 * samples per example at which it reaches `needSpread` (undefined when detect is not above the budget)
 * on `instances` instances.
 */
export function samplesColumns(
  found: SamplesSplit,
  spread: number,
  needSpread: number | undefined,
  context: { instances: number; minInstances: number; unitMetric: boolean; detect: number },
): SamplesColumns {
  const { samples, split } = found;
  if (!split) return { samples, withinShare: null, samplesNeeded: null, samplesNote: found.note ?? null };
  const columns = { samples, withinShare: split.share };
  if (needSpread === undefined) return { ...columns, samplesNeeded: null, samplesNote: 'detect is not above the budget' };
  const { instances, minInstances, unitMetric, detect } = context;
  // A paired comparison needs its instances, and a unit metric a worsening's own spread (plannedSpread), whatever the samples.
  const needed =
    instances < minInstances || plannedSpread(0, unitMetric, detect, instances) > needSpread
      ? undefined
      : samplesToDetect(spread, split.share, split.samples, needSpread);
  return needed === undefined
    ? { ...columns, samplesNeeded: null, samplesNote: SAMPLES_CANNOT_REACH }
    : { ...columns, samplesNeeded: needed, samplesNote: null };
}

/** What a check's comparison can detect: the one computation the gate (regression.ts powerOf) and `plan` share. */
export interface Detection {
  /** The spread planned with: the comparison's, floored for a metric in [0, 1] (plannedSpread). */
  spread: number;
  /** MDE80; null when the spread is 0 (runs that agree everywhere on a metric with no floor): nothing shows what it sees. */
  mde: number | null;
  /** The standard error at which it would see detect with plan's margin (standardErrorToDetect). */
  needSpread: number | undefined;
  /** The instances at which it would (null when that is unknown, or when detect is not above the budget). */
  instancesNeeded: number | null;
}

/**
 * What a comparison of spread `sd` can detect under a check's budget and family level. `basis` is the
 * count the spread's floor rests on (the shared instances, or fewer: the records of the metric on them,
 * compare.ts pairedBasis); `shared` the instances the spread shrinks with.
 */
export function detectionOf(
  sd: number,
  check: { metric: string; detect: number | null; budget: number; alphaPerTest: number },
  counts: { basis: number; shared: number; minInstances: number },
): Detection {
  const spread = plannedSpread(sd, isUnitMetric(check.metric), check.detect, counts.basis);
  const mde = spread === 0 ? null : minimumDetectableWorsening(spread, check.budget, check.alphaPerTest);
  const needSpread = check.detect === null ? undefined : standardErrorToDetect(check.detect, check.budget, check.alphaPerTest);
  const instancesNeeded =
    mde === null || needSpread === undefined ? null : instancesToDetect(spread, counts.shared, needSpread, counts.minInstances);
  return { spread, mde, needSpread, instancesNeeded };
}
