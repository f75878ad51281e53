// The population of issue 21's simulations (bench/simulate21*.ts): what a model's records look like, and
// the metrics' values in the population limit, computed once by quadrature (docs/statistics-design-21.md
// writes them down).
//
// An instance belongs to one of four groups (region north, east, south, west), drawn with the group's
// share, and has its own chance q of being answered right, drawn from Beta(2 a_g, 2 (1 - a_g)), a_g
// being its group's accuracy (Beta(1.5, 0.5) for 0.75: most questions clearly easy or hard). Each
// instance has an original and two variants, a robustness one (chance 0.9 q) and a fairness one
// (0.95 q). Every record is its own draw (a model sampled at temperature > 0): right with its chance;
// confidence min(0.99, max(0.01, chance + shift + 0.06 e)), e standard normal (shift 0: no systematic
// over-confidence, but the noise makes the stated confidence overshoot the easy and undershoot the hard
// questions); latency 400 exp(0.3 e') ms. A candidate with a true drop d answers with chance q (A - d) / A,
// A the population accuracy, so that its accuracy is exactly d lower.
import type { EvalRecord } from '../src/records/types.js';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';
import type { Random } from '../src/stats/random.js';
import { betaSampler } from './beta.js';

export interface Group {
  name: string;
  /** The chance that an instance belongs to the group. */
  share: number;
  accuracy: number;
}

export interface Population {
  groups: Group[];
  /** Added to every confidence before clipping: > 0 is an over-confident model. */
  confidenceShift: number;
}

export const GROUP_ATTRIBUTE = 'region';
export const CONFIDENCE_NOISE = 0.06;
export const CONFIDENCE_FLOOR = 0.01;
export const CONFIDENCE_CEILING = 0.99;
export const LATENCY_MEDIAN_MS = 400;
export const LATENCY_LOG_SD = 0.3;
/** How much harder each variant is than the original (its chance: q times this). */
export const VARIANTS = [
  { perturbation: undefined, harder: 1 },
  { perturbation: { name: 'typos', kind: 'robustness' as const }, harder: 0.9 },
  { perturbation: { name: 'dialect', kind: 'fairness' as const }, harder: 0.95 },
];

const group = (name: string, share: number, accuracy: number): Group => ({ name, share, accuracy });

/** Four groups of 40, 30, 20 and 10% of the instances, all at accuracy 0.75: worst group 0.75, gap 0. */
export const EQUAL_GROUPS: Population = {
  groups: [group('north', 0.4, 0.75), group('east', 0.3, 0.75), group('south', 0.2, 0.75), group('west', 0.1, 0.75)],
  confidenceShift: 0,
};

/** The same sizes at 0.80, 0.75, 0.70, 0.65 (accuracy 0.75): the smallest group is the worst, gap 0.15. */
export const UNEQUAL_GROUPS: Population = {
  groups: [group('north', 0.4, 0.8), group('east', 0.3, 0.75), group('south', 0.2, 0.7), group('west', 0.1, 0.65)],
  confidenceShift: 0,
};

export interface Instance {
  group: number;
  chance: number;
}

export interface DrawOptions {
  /** The true drop of accuracy (0: the population's own model). */
  drop?: number;
  /** Samples per example (records carry `sample` when above 1). */
  samples?: number;
  /** Which variants to answer (default: all three). */
  variants?: number;
  /** Latencies times this (1: the population's). */
  latencyScale?: number;
}

/** The Beta parameters of a group's chances: mean a_g, a + b = 2. */
const betaOf = ({ accuracy }: Group): [number, number] => [2 * accuracy, 2 * (1 - accuracy)];

export function accuracyOf(population: Population): number {
  return population.groups.reduce((sum, { share, accuracy }) => sum + share * accuracy, 0);
}

/** A generator of instances and records; one Random drives everything, so a trial is reproducible. */
export class Generator {
  private readonly beta: (a: number, b: number) => number;
  private spare: number | undefined;

  constructor(
    private readonly random: Random,
    readonly population: Population,
  ) {
    this.beta = betaSampler(random);
  }

  normal(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - this.random.nextFloat()));
    const angle = 2 * Math.PI * this.random.nextFloat();
    this.spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  }

  instances(count: number): Instance[] {
    const { groups } = this.population;
    return Array.from({ length: count }, () => {
      let u = this.random.nextFloat();
      let index = 0;
      while (index < groups.length - 1 && u >= groups[index].share) u -= groups[index++].share;
      const [a, b] = betaOf(groups[index]);
      return { group: index, chance: this.beta(a, b) };
    });
  }

  /** One run's records over the instances (scenario "qa", ids "0".."n-1"). */
  records(instances: Instance[], { drop = 0, samples = 1, variants = VARIANTS.length, latencyScale = 1 }: DrawOptions = {}): EvalRecord[] {
    const scale = (accuracyOf(this.population) - drop) / accuracyOf(this.population);
    const records: EvalRecord[] = [];
    instances.forEach(({ group, chance }, i) => {
      for (const { perturbation, harder } of VARIANTS.slice(0, variants)) {
        const q = chance * harder * scale;
        for (let sample = 0; sample < samples; sample++) {
          const confidence = q + this.population.confidenceShift + CONFIDENCE_NOISE * this.normal();
          records.push({
            scenario: 'qa',
            id: String(i),
            ...(perturbation ? { perturbation } : {}),
            ...(samples > 1 ? { sample } : {}),
            correct: this.random.nextFloat() < q ? 1 : 0,
            confidence: Math.min(CONFIDENCE_CEILING, Math.max(CONFIDENCE_FLOOR, confidence)),
            groups: { [GROUP_ATTRIBUTE]: this.population.groups[group].name },
            latency_ms: latencyScale * LATENCY_MEDIAN_MS * Math.exp(LATENCY_LOG_SD * this.normal()),
          });
        }
      }
    });
    return records;
  }
}

/** The population values of the metrics the simulations gate (metric name as the engine names it). */
export interface PopulationValues {
  accuracy: number;
  ece: number;
  ece_10_bin: number;
  accuracy_robust: number;
  accuracy_fair: number;
  worst_group_accuracy: number;
  group_accuracy_gap: number;
  latency_p95_ms: number;
  /** The population deciles of the confidence (the boundaries ece_10_bin's bins tend to). */
  confidenceDeciles: number[];
}

/** Quadrature nodes of the chances (all groups together), each with its probability. */
function chanceNodes(population: Population, nodesPerGroup: number): { chance: Float64Array; weight: Float64Array } {
  const chance = new Float64Array(nodesPerGroup * population.groups.length);
  const weight = new Float64Array(chance.length);
  population.groups.forEach((group, g) => {
    // q = 1 - u^(1/b) turns Beta(a, b)'s density, singular at 1 for b < 1, into (1 - u^(1/b))^(a - 1) in u:
    // bounded, so that the midpoint rule converges.
    const [a, b] = betaOf(group);
    let total = 0;
    for (let k = 0; k < nodesPerGroup; k++) {
      const u = (k + 0.5) / nodesPerGroup;
      const q = 1 - u ** (1 / b);
      chance[g * nodesPerGroup + k] = q;
      total += weight[g * nodesPerGroup + k] = (1 - u ** (1 / b)) ** (a - 1);
    }
    for (let k = 0; k < nodesPerGroup; k++) weight[g * nodesPerGroup + k] *= group.share / total;
  });
  return { chance, weight };
}

const density = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

/**
 * E[(correct - confidence) 1{low < confidence <= high}] over original records: the signed calibration
 * gap a bin contributes, with confidence = clip(m + s e), m = chance + shift, and E[correct | chance] = chance.
 */
function binGap(nodes: { chance: Float64Array; weight: Float64Array }, shift: number, low: number, high: number): number {
  const s = CONFIDENCE_NOISE;
  let total = 0;
  for (let k = 0; k < nodes.chance.length; k++) {
    const q = nodes.chance[k];
    const m = q + shift;
    let part = 0;
    const from = Math.max(low, CONFIDENCE_FLOOR);
    const to = Math.min(high, CONFIDENCE_CEILING);
    if (to > from) {
      const alpha = (from - m) / s;
      const beta = (to - m) / s;
      // c = m + s e on (from, to): E[(q - m - s e) 1{alpha < e <= beta}]
      part += (q - m) * (normalCdf(beta) - normalCdf(alpha)) - s * (density(alpha) - density(beta));
    }
    if (low < CONFIDENCE_FLOOR && CONFIDENCE_FLOOR <= high) part += (q - CONFIDENCE_FLOOR) * normalCdf((CONFIDENCE_FLOOR - m) / s);
    if (low < CONFIDENCE_CEILING && CONFIDENCE_CEILING <= high) part += (q - CONFIDENCE_CEILING) * normalCdf((m - CONFIDENCE_CEILING) / s);
    total += nodes.weight[k] * part;
  }
  return total;
}

/** P(confidence <= x) for original records. */
function confidenceCdf(nodes: { chance: Float64Array; weight: Float64Array }, shift: number, x: number): number {
  if (x < CONFIDENCE_FLOOR) return 0;
  if (x >= CONFIDENCE_CEILING) return 1;
  let total = 0;
  for (let k = 0; k < nodes.chance.length; k++) total += nodes.weight[k] * normalCdf((x - nodes.chance[k] - shift) / CONFIDENCE_NOISE);
  return total;
}

/**
 * The metrics in the population limit, by quadrature over the chances (nodesPerGroup midpoints per
 * group) and closed forms over the confidence noise. ece: ten equal-width bins; ece_10_bin: the bins
 * tend to the population deciles t_1..t_9 of the confidence (with 1.0; a value equal to a boundary
 * in the lower bin), so it is sum over bins of |E[(correct - confidence) 1{bin}]|.
 */
export function populationValues(population: Population, drop = 0, nodesPerGroup = 20000): PopulationValues {
  const accuracy = accuracyOf(population);
  const scale = (accuracy - drop) / accuracy;
  const nodes = chanceNodes(population, nodesPerGroup);
  for (let k = 0; k < nodes.chance.length; k++) nodes.chance[k] *= scale;
  const shift = population.confidenceShift;
  let ece = 0;
  for (let bin = 0; bin < 10; bin++) {
    // Bin b holds [b/10, (b+1)/10): the confidence has no atom at those points, so (low, high] is the same.
    ece += Math.abs(binGap(nodes, shift, bin === 0 ? -Infinity : bin / 10, bin === 9 ? Infinity : (bin + 1) / 10));
  }
  const confidenceDeciles = Array.from({ length: 9 }, (_, k) => {
    let low = 0;
    let high = 1;
    for (let step = 0; step < 50; step++) {
      const middle = (low + high) / 2;
      if (confidenceCdf(nodes, shift, middle) >= (k + 1) / 10) high = middle;
      else low = middle;
    }
    // The ceiling is an atom: a decile inside it is exactly the ceiling.
    return Math.abs(high - CONFIDENCE_CEILING) < 1e-12 ? CONFIDENCE_CEILING : high;
  });
  const boundaries = [...new Set([...confidenceDeciles, 1])];
  let ece10 = 0;
  let previous = -Infinity;
  for (const boundary of boundaries) {
    ece10 += Math.abs(binGap(nodes, shift, previous, boundary === 1 ? Infinity : boundary));
    previous = boundary;
  }
  const squares = population.groups.reduce(
    (sum, g) => sum + (g.share * (g.accuracy * (1 - g.accuracy))) / 3 + g.share * g.accuracy ** 2,
    0,
  );
  const groupAccuracies = population.groups.map((g) => g.accuracy * scale);
  return {
    accuracy: accuracy - drop,
    ece,
    ece_10_bin: ece10,
    // Original and variant are independent draws given q: P(both right) = E[q * h q] = h E[q^2].
    accuracy_robust: VARIANTS[1].harder * scale * scale * squares,
    accuracy_fair: VARIANTS[2].harder * scale * scale * squares,
    worst_group_accuracy: Math.min(...groupAccuracies),
    group_accuracy_gap: Math.max(...groupAccuracies) - Math.min(...groupAccuracies),
    latency_p95_ms: LATENCY_MEDIAN_MS * Math.exp(LATENCY_LOG_SD * normalQuantile(0.95)),
    confidenceDeciles,
  };
}
