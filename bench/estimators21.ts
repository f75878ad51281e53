// Issue 21: which estimate and which interval should a bound on ece, ece_10_bin, worst_group_accuracy
// or group_accuracy_gap be judged on? Measured in-process on one run at a time (run alone:
//   node bench/run.mjs --only simulation21 --part estimators [--trials N]).
//
// Each trial draws one run of n original records from a population of bench/population21.ts and
// bootstraps it (B resamples with the engine's multinomial drawer; above 500 instances also the bag of
// little bootstraps with the engine's subset size). Every resample yields the metrics' components:
// each group's accuracy, each calibration bin's signed gap (the engine's own equal-mass binning,
// src/metrics/calibration.ts, for ece_10_bin). From them, for each metric, the candidates:
//   P      the percentile interval of the metric's resamples (today's rule);
//   BC     the same shifted by -2 x the bootstrap bias (mean of resamples - estimate);
//   BASIC  the basic interval [2 v - q_{1-a}, 2 v - q_a];
//   BCa    Efron's bias-corrected and accelerated percentile interval (acceleration by the jackknife);
//   KLM    (calibration) Kumar, Liang and Ma's debiased estimate with its basic bootstrap interval;
//   DEV    bounds from the components' deviations (src/stats/bound-estimators.ts).
// and the point estimates: plug-in, bootstrap bias-corrected (2 v - mean v*), KLM, and KLM corrected
// again by the bootstrap. Each method's one-sided 95% bounds are the bounds a lenient (or strict) check
// would be judged with: the share of trials whose lower bound lies above the population value is the
// block rate of a lenient max set at the population value (and the upper bound below it, of a min).
import { EceBins, equalMassEce, ECE_BINS } from '../src/metrics/calibration.js';
import { subsetSizeFor } from '../src/metrics/compute.js';
import type { SortedRecords } from '../src/metrics/ordering.js';
import { multinomialDrawer } from '../src/stats/bootstrap.js';
import {
  absoluteSumTests,
  biasCorrected,
  debiasedCalibrationError,
  minimumTests,
  rangeTests,
  type BoundTests,
  type ConfidenceBounds,
} from '../src/stats/bound-estimators.js';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';
import { quantileSorted } from '../src/stats/quantile.js';
import { Random } from '../src/stats/random.js';
import type { EvalRecord } from '../src/records/types.js';
import {
  EQUAL_GROUPS,
  Generator,
  populationValues,
  UNEQUAL_GROUPS,
  type Instance,
  type Population,
  type PopulationValues,
} from './population21.js';
import { meanOf, rate, type Rate } from './sim21-common.js';

const MIN_GROUP_SIZE = 10;
const SUBSETS = 10;
const JACKKNIFE = 400;
export const METRICS = ['ece', 'ece_10_bin', 'worst_group_accuracy', 'group_accuracy_gap'] as const;
type Metric = (typeof METRICS)[number];
const CALIBRATION: readonly Metric[] = ['ece', 'ece_10_bin'];

/** One run's original records, with what the metrics need precomputed. */
interface Sample {
  n: number;
  group: Int32Array;
  correct: Float64Array;
  confidence: Float64Array;
  widthBin: Int32Array;
  sorted: SortedRecords;
  groupCount: number;
  /** Groups with at least MIN_GROUP_SIZE records in the run: the ones worst and gap range over. */
  eligible: number[];
}

function sampleOf(generator: Generator, n: number): Sample {
  const instances = generator.instances(n);
  return sampleFrom(instances, generator.records(instances, { variants: 1 }), generator.population.groups.length);
}

/** A sample from instances and their original records (one each, in the instances' order). */
function sampleFrom(instances: Instance[], records: EvalRecord[], groupCount: number): Sample {
  const n = instances.length;
  const group = Int32Array.from(instances, ({ group }) => group);
  const correct = Float64Array.from(records, (r) => r.correct!);
  const confidence = Float64Array.from(records, (r) => r.confidence!);
  const widthBin = Int32Array.from(confidence, (c) => Math.min(Math.floor(c * ECE_BINS), ECE_BINS - 1));
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => confidence[a] - confidence[b] || a - b);
  const sorted = {
    instance: Int32Array.from(order),
    value: Float64Array.from(order, (i) => confidence[i]),
    payload: Float64Array.from(order, (i) => correct[i]),
  };
  const counts = new Array<number>(groupCount).fill(0);
  for (const g of group) counts[g]++;
  const eligible = counts.flatMap((count, g) => (count >= MIN_GROUP_SIZE ? [g] : []));
  return { n, group, correct, confidence, widthBin, sorted, groupCount, eligible };
}

/** Sums per calibration bin: weight, correct, confidence. */
interface BinSums {
  weight: Float64Array;
  correct: Float64Array;
  confidence: Float64Array;
}

/** The components of every metric under instance weights. */
interface Components {
  groupAccuracy: Float64Array;
  ece: BinSums;
  ece10: BinSums;
  total: number;
}

function componentsOf(sample: Sample, weights: Float64Array, bins: EceBins): Components {
  const groupWeight = new Float64Array(sample.groupCount);
  const groupCorrect = new Float64Array(sample.groupCount);
  const ece = { weight: new Float64Array(ECE_BINS), correct: new Float64Array(ECE_BINS), confidence: new Float64Array(ECE_BINS) };
  let total = 0;
  for (let i = 0; i < sample.n; i++) {
    const w = weights[i];
    if (w === 0) continue;
    total += w;
    groupWeight[sample.group[i]] += w;
    groupCorrect[sample.group[i]] += w * sample.correct[i];
    const bin = sample.widthBin[i];
    ece.weight[bin] += w;
    ece.correct[bin] += w * sample.correct[i];
    ece.confidence[bin] += w * sample.confidence[i];
  }
  equalMassEce(sample.sorted, weights, total, bins);
  const ece10 = {
    weight: Float64Array.from(bins.weight),
    correct: Float64Array.from(bins.correct),
    confidence: Float64Array.from(bins.confidence),
  };
  const groupAccuracy = groupWeight.map((weight, g) => (weight > 0 ? groupCorrect[g] / weight : NaN));
  return { groupAccuracy, ece, ece10, total };
}

const partsOf = (sums: BinSums, total: number) => sums.correct.map((correct, b) => (correct - sums.confidence[b]) / total);
const absoluteSum = (parts: Float64Array) => parts.reduce((sum, part) => sum + Math.abs(part), 0);

/** The components a metric's DEV bounds read: the bins' signed gaps, or the eligible groups' accuracies. */
function metricComponents(metric: Metric, sample: Sample, c: Components): Float64Array {
  if (metric === 'ece') return partsOf(c.ece, c.total);
  if (metric === 'ece_10_bin') return partsOf(c.ece10, c.total);
  return Float64Array.from(sample.eligible, (g) => c.groupAccuracy[g]);
}

function metricValue(metric: Metric, components: Float64Array): number {
  if (CALIBRATION.includes(metric)) return absoluteSum(components);
  const defined = Array.from(components).filter((x) => !Number.isNaN(x));
  if (defined.length === 0) return NaN;
  return metric === 'worst_group_accuracy' ? Math.min(...defined) : Math.max(...defined) - Math.min(...defined);
}

function klmOf(metric: Metric, c: Components): number {
  const sums = metric === 'ece' ? c.ece : c.ece10;
  return debiasedCalibrationError(sums.weight, sums.correct, sums.confidence);
}

/** What one bootstrap of one sample gives each metric. */
interface Bootstrapped {
  value: number;
  /** The metric on each resample, centred as the method wants (see bootstrapOf). */
  samples: number[];
  /** The metric on each resample under today's little-bootstrap centring (the subset's mean). */
  todaySamples: number[];
  deviations: Float64Array[];
  components: Float64Array;
  /** The eligible groups' sizes (group metrics). */
  sizes?: Float64Array;
  klm?: { value: number; samples: number[] };
  jackknife: number[];
}

/**
 * B resamples of the sample: the plain bootstrap, or (little) the bag of little bootstraps with the
 * engine's subset size, each subset's resamples centred on the subset's own plug-in values (for the
 * metric: v* - v_subset + v; for the components: deviations from the subset's components).
 */
function bootstrapOf(sample: Sample, resamples: number, random: Random, little: boolean): Record<Metric, Bootstrapped> {
  const bins = new EceBins();
  const ones = new Float64Array(sample.n).fill(1);
  const full = componentsOf(sample, ones, bins);
  const result = {} as Record<Metric, Bootstrapped>;
  for (const metric of METRICS) {
    const components = metricComponents(metric, sample, full);
    result[metric] = {
      value: metricValue(metric, components),
      samples: [],
      todaySamples: [],
      deviations: [],
      components,
      ...(CALIBRATION.includes(metric)
        ? {}
        : { sizes: Float64Array.from(sample.eligible, (g) => sample.group.filter((x) => x === g).length) }),
      jackknife: [],
      ...(CALIBRATION.includes(metric) ? { klm: { value: klmOf(metric, full), samples: [] } } : {}),
    };
  }
  const smallestGroup = Math.min(...sample.eligible.map((g) => sample.group.filter((x) => x === g).length));
  const subsetSize = little ? subsetSizeFor(sample.n, [smallestGroup, sample.n]) : sample.n;
  const subsets = subsetSize < sample.n ? SUBSETS : 1;
  const weights = new Float64Array(sample.n);
  const shuffled = Int32Array.from({ length: sample.n }, (_, i) => i);
  for (let subset = 0; subset < subsets; subset++) {
    weights.fill(0);
    for (let index = 0; index < subsetSize; index++) {
      const other = index + random.nextBelow(sample.n - index);
      [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
      weights[shuffled[index]] = 1;
    }
    const chosen = subsets === 1 ? Int32Array.from({ length: sample.n }, (_, i) => i) : shuffled.slice(0, subsetSize);
    const centre = componentsOf(sample, subsets === 1 ? ones : weights, bins);
    const draw = multinomialDrawer(subsetSize, sample.n);
    const counts = new Float64Array(subsetSize);
    const count = Math.floor(resamples / subsets);
    const start = Object.fromEntries(METRICS.map((metric) => [metric, result[metric].samples.length]));
    for (let r = 0; r < count; r++) {
      draw(random, counts);
      weights.fill(0);
      for (let k = 0; k < subsetSize; k++) weights[chosen[k]] = counts[k];
      const resampled = componentsOf(sample, weights, bins);
      for (const metric of METRICS) {
        const own = result[metric];
        const centreComponents = metricComponents(metric, sample, centre);
        const values = metricComponents(metric, sample, resampled);
        const value = metricValue(metric, values);
        own.deviations.push(values.map((x, k) => x - centreComponents[k]));
        // Subset-centred: v* - v_subset + v (the plain bootstrap: the subset is the sample, v* as drawn).
        own.samples.push(value - metricValue(metric, centreComponents) + own.value);
        own.todaySamples.push(value);
        if (own.klm) own.klm.samples.push(klmOf(metric, resampled) - klmOf(metric, centre) + own.klm.value);
      }
    }
    // Today's little bootstrap shifts each subset's resamples by (v - their mean).
    for (const metric of METRICS) {
      const mine = result[metric].todaySamples.slice(start[metric]);
      const mean = mine.reduce((sum, x) => sum + x, 0) / mine.length;
      const shift = subsets === 1 ? 0 : result[metric].value - mean;
      for (let r = start[metric]; r < result[metric].todaySamples.length; r++) result[metric].todaySamples[r] += shift;
    }
  }
  // Leave-one-out values for BCa's acceleration (at most JACKKNIFE of them, a random subset: the
  // acceleration is a skewness, estimated well enough from a few hundred influence values).
  const leftOut =
    sample.n <= JACKKNIFE
      ? Array.from({ length: sample.n }, (_, i) => i)
      : Array.from({ length: JACKKNIFE }, () => random.nextBelow(sample.n));
  for (const i of leftOut) {
    ones[i] = 0;
    const left = componentsOf(sample, ones, bins);
    for (const metric of METRICS) result[metric].jackknife.push(metricValue(metric, metricComponents(metric, sample, left)));
    ones[i] = 1;
  }
  return result;
}

type Method = 'P' | 'BC' | 'BASIC' | 'BCa' | 'KLM' | 'DEV' | 'DEV-raw' | 'P-today';
const sortedFinite = (values: number[]) => Float64Array.from(values.filter(Number.isFinite)).sort();

/** One-sided bounds at level 1 - alpha by each method. */
function boundsOf(metric: Metric, b: Bootstrapped, alpha: number, little: boolean): Partial<Record<Method, ConfidenceBounds>> {
  const sorted = sortedFinite(b.samples);
  const q = (p: number) => quantileSorted(sorted, p);
  const v = b.value;
  const bias = -(biasCorrected(v, sorted) - v);
  const z0 = normalQuantile(
    Math.min(
      1 - 0.5 / sorted.length,
      Math.max(0.5 / sorted.length, (sorted.filter((x) => x < v).length + 0.5 * sorted.filter((x) => x === v).length) / sorted.length),
    ),
  );
  const jack = b.jackknife.filter(Number.isFinite);
  const jackMean = jack.reduce((sum, x) => sum + x, 0) / jack.length;
  const cubes = jack.reduce((sum, x) => sum + (jackMean - x) ** 3, 0);
  const squares = jack.reduce((sum, x) => sum + (jackMean - x) ** 2, 0);
  const a = squares > 0 ? cubes / (6 * squares ** 1.5) : 0;
  const bca = (level: number) => {
    const z = normalQuantile(level);
    return q(normalCdf(z0 + (z0 + z) / (1 - a * (z0 + z))));
  };
  const bounds: Partial<Record<Method, ConfidenceBounds>> = {
    P: { lower: q(alpha), upper: q(1 - alpha) },
    BC: { lower: q(alpha) - 2 * bias, upper: q(1 - alpha) - 2 * bias },
    BASIC: { lower: 2 * v - q(1 - alpha), upper: 2 * v - q(alpha) },
    BCa: { lower: bca(alpha), upper: bca(1 - alpha) },
  };
  if (little) {
    const today = sortedFinite(b.todaySamples);
    bounds['P-today'] = { lower: quantileSorted(today, alpha), upper: quantileSorted(today, 1 - alpha) };
  }
  if (b.klm) {
    const k = sortedFinite(b.klm.samples);
    bounds.KLM = { lower: 2 * b.klm.value - quantileSorted(k, 1 - alpha), upper: 2 * b.klm.value - quantileSorted(k, alpha) };
  }
  bounds.DEV = deviationTests(metric, b, true).bounds(alpha);
  if (!CALIBRATION.includes(metric)) bounds['DEV-raw'] = deviationTests(metric, b, false).bounds(alpha);
  return bounds;
}

/** The proposed tests (src/stats/bound-estimators.ts); floored: group spreads floored by the pooled variance. */
function deviationTests(metric: Metric, b: Bootstrapped, floored: boolean): BoundTests {
  if (CALIBRATION.includes(metric)) return absoluteSumTests(b.components, b.deviations);
  const tests = metric === 'worst_group_accuracy' ? minimumTests : rangeTests;
  return tests(b.components, b.deviations, floored ? b.sizes : undefined);
}

/** Point estimates: plug-in, bootstrap bias-corrected, and for calibration KLM and KLM corrected again. */
function pointsOf(b: Bootstrapped): Record<string, number> {
  const points: Record<string, number> = { plugin: b.value, bc: biasCorrected(b.value, b.samples) };
  if (b.klm) {
    points.klm = b.klm.value;
    points.klmbc = biasCorrected(b.klm.value, b.klm.samples);
  }
  return points;
}

export interface Configuration {
  name: string;
  population: Population;
  n: number;
  little: boolean;
  /** Bounds of a lenient check whose block rate to measure besides the population value: [metric, bound]. */
  lenient: Array<[Metric, number]>;
}

export interface MethodResult {
  method: string;
  /** Two-sided 95% interval (each side at 2.5%) covers the population value. */
  cover95: Rate;
  /** One-sided 95% lower bound above the population value: a lenient max at it blocks. */
  lowerAbove: Rate;
  /** One-sided 95% upper bound below it: a lenient min at it blocks. */
  upperBelow: Rate;
  width95: number;
  /** Lenient block rates at the configuration's other bounds (bound-based; DEV also by its p-value). */
  lenient: Array<{ bound: number; blocks: Rate; pBlocks?: Rate }>;
  /** DEV: the lenient test at the population value by its p-value, (#{...} + 1) / (B + 1) < 0.05, as the gate would run it. */
  pBlocksAtTruth?: Rate;
}

export interface MetricResult {
  metric: Metric;
  truth: number;
  points: Record<string, { bias: number; se: number; rmse: number }>;
  methods: MethodResult[];
}

/** Population values, computed once per population (the quadrature takes seconds). */
const truths = new Map<Population, PopulationValues>();
function truthOf(population: Population): PopulationValues {
  if (!truths.has(population)) truths.set(population, populationValues(population));
  return truths.get(population)!;
}

export function runConfiguration(configuration: Configuration, trials: number, resamples: number, seed: number): MetricResult[] {
  const random = new Random(seed);
  const generator = new Generator(random, configuration.population);
  const truth = truthOf(configuration.population);
  const tally = new Map<
    string,
    { cover: number; lowerAbove: number; upperBelow: number; width: number[]; lenient: number[]; pBlocks: number; pLenient: number[] }
  >();
  const points = new Map<string, number[]>();
  for (let trial = 0; trial < trials; trial++) {
    const sample = sampleOf(generator, configuration.n);
    const booted = bootstrapOf(sample, resamples, random, configuration.little);
    for (const metric of METRICS) {
      const t = truth[metric];
      const one = boundsOf(metric, booted[metric], 0.05, configuration.little);
      const two = boundsOf(metric, booted[metric], 0.025, configuration.little);
      for (const method of Object.keys(one) as Method[]) {
        const key = `${metric}/${method}`;
        const entry = tally.get(key) ?? {
          cover: 0,
          lowerAbove: 0,
          upperBelow: 0,
          width: [],
          lenient: configuration.lenient.map(() => 0),
          pBlocks: 0,
          pLenient: configuration.lenient.map(() => 0),
        };
        tally.set(key, entry);
        const { lower, upper } = one[method]!;
        const interval = two[method]!;
        if (interval.lower <= t && t <= interval.upper) entry.cover++;
        if (lower > t) entry.lowerAbove++;
        if (upper < t) entry.upperBelow++;
        entry.width.push(interval.upper - interval.lower);
        configuration.lenient.forEach(([which, bound], k) => {
          if (which !== metric) return;
          const isMax = which !== 'worst_group_accuracy';
          if (isMax ? lower > bound : upper < bound) entry.lenient[k]++;
        });
        if (method === 'DEV') {
          // The lenient test as the gate would run it: its p-value below alpha (at the population value, and at the other bounds).
          const tests = deviationTests(metric, booted[metric], true);
          const p = (bound: number) => (metric === 'worst_group_accuracy' ? tests.pBelow(bound) : tests.pAbove(bound));
          if (p(t) < 0.05) entry.pBlocks++;
          configuration.lenient.forEach(([which, bound], k) => {
            if (which === metric && p(bound) < 0.05) entry.pLenient[k]++;
          });
        }
      }
      for (const [name, value] of Object.entries(pointsOf(booted[metric]))) {
        const key = `${metric}/${name}`;
        points.set(key, [...(points.get(key) ?? []), value - t]);
      }
    }
  }
  return METRICS.map((metric) => ({
    metric,
    truth: truth[metric],
    points: Object.fromEntries(
      [...points.entries()]
        .filter(([key]) => key.startsWith(`${metric}/`))
        .map(([key, errors]) => {
          const { mean, se } = meanOf(errors);
          return [key.split('/')[1], { bias: mean, se, rmse: Math.sqrt(errors.reduce((sum, e) => sum + e * e, 0) / errors.length) }];
        }),
    ),
    methods: [...tally.entries()]
      .filter(([key]) => key.startsWith(`${metric}/`))
      .map(([key, entry]) => ({
        method: key.split('/')[1],
        cover95: rate(entry.cover, trials),
        lowerAbove: rate(entry.lowerAbove, trials),
        upperBelow: rate(entry.upperBelow, trials),
        width95: meanOf(entry.width).mean,
        lenient: configuration.lenient
          .map(([which, bound], k) => ({ which, bound, blocks: rate(entry.lenient[k], trials), pBlocks: rate(entry.pLenient[k], trials) }))
          .filter(({ which }) => which === metric)
          .map(({ bound, blocks, pBlocks }) => ({ bound, blocks, ...(key.endsWith('/DEV') ? { pBlocks } : {}) })),
        ...(key.endsWith('/DEV') ? { pBlocksAtTruth: rate(entry.pBlocks, trials) } : {}),
      })),
  }));
}

/** An over-confident model: every confidence 0.06 higher (ece_10_bin 0.040: a max of 0.04 sits at it). */
export const OVERCONFIDENT: Population = { ...EQUAL_GROUPS, confidenceShift: 0.06 };
/** Clearly over-confident: 0.12 higher (ece_10_bin about 0.08), for the power of a lenient max of 0.04. */
export const VERY_OVERCONFIDENT: Population = { ...EQUAL_GROUPS, confidenceShift: 0.12 };

export const CONFIGURATIONS: Configuration[] = [
  ...[200, 300, 2000].map((n) => ({ name: `equal groups, calibrated, ${n}`, population: EQUAL_GROUPS, n, little: false, lenient: [] })),
  { name: 'equal groups, calibrated, 2000, little bootstrap', population: EQUAL_GROUPS, n: 2000, little: true, lenient: [] },
  ...[300, 2000].map((n) => ({
    name: `unequal groups, ${n}`,
    population: UNEQUAL_GROUPS,
    n,
    little: false,
    lenient: [
      ['worst_group_accuracy', 0.7],
      ['group_accuracy_gap', 0.08],
    ] as Array<[Metric, number]>,
  })),
  ...[300, 2000].map((n) => ({ name: `over-confident (+0.06), ${n}`, population: OVERCONFIDENT, n, little: false, lenient: [] })),
  ...[300, 2000].map((n) => ({
    name: `over-confident (+0.12), ${n}`,
    population: VERY_OVERCONFIDENT,
    n,
    little: false,
    lenient: [
      ['ece_10_bin', 0.04],
      ['ece', 0.04],
    ] as Array<[Metric, number]>,
  })),
];

/**
 * The proposed tests and point estimates of one run (its original records, one per instance, in the
 * instances' order), by the plain bootstrap: what a gate would judge its bounds on.
 */
export function proposedOf(
  instances: Instance[],
  originals: EvalRecord[],
  groupCount: number,
  resamples: number,
  random: Random,
): Record<Metric, { tests: BoundTests; point: number }> {
  const booted = bootstrapOf(sampleFrom(instances, originals, groupCount), resamples, random, false);
  return Object.fromEntries(
    METRICS.map((metric) => {
      const b = booted[metric];
      return [metric, { tests: deviationTests(metric, b, true), point: b.klm ? b.klm.value : biasCorrected(b.value, b.samples) }];
    }),
  ) as Record<Metric, { tests: BoundTests; point: number }>;
}
