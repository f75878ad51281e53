// Issue 21 point 5: few resamples and the bag of little bootstraps. Above 500 shared instances the paired
// bootstrap draws 10 subsets (src/stats/bootstrap.ts) and shifts each subset's resamples by (the full
// data's value - their own mean): with r resamples a subset, that centring removes one degree of freedom
// and the spread shrinks by sqrt((r - 1) / r). Measured here on the paired accuracy difference of A/A
// pairs (one check, budget 0), the engine's subset size and multinomial drawer, four centrings:
//   today      each subset's resamples shifted by (v - their mean);
//   corrected  the same, their deviations from v then scaled by sqrt(r / (r - 1));
//   subset     each subset's resamples shifted by (v - the subset's own value): v* - v_j + v;
//   raised     today's, with at least 50 resamples per subset (B raised to 500);
// beside the engine itself (compareMetric, the code path of `evalgate gate`) with today's rule.
import { subsetSizeFor } from '../src/metrics/compute.js';
import { compareMetric } from '../src/metrics/paired.js';
import { buildTable } from '../src/metrics/table.js';
import { multinomialDrawer, standardDeviation } from '../src/stats/bootstrap.js';
import { Random } from '../src/stats/random.js';
import { EQUAL_GROUPS, Generator } from './population21.js';
import { meanOf, rate } from './sim21-common.js';

const SUBSETS = 10;
const CENTRINGS = ['today', 'corrected', 'subset', 'raised'] as const;
type Centring = (typeof CENTRINGS)[number];

/** The paired bootstrap of a mean of per-instance differences, little-bootstrap style, under each centring. */
function littleBootstrap(differences: Float64Array, resamples: number, random: Random): Record<Centring, Float64Array> {
  const n = differences.length;
  const b = subsetSizeFor(n, [n]);
  const full = differences.reduce((sum, d) => sum + d, 0) / n;
  const draw = multinomialDrawer(b, n);
  const counts = new Float64Array(b);
  const indices = Int32Array.from({ length: n }, (_, i) => i);
  const out = { today: [] as number[], corrected: [] as number[], subset: [] as number[], raised: [] as number[] };
  const raisedTotal = Math.max(resamples, 50 * SUBSETS);
  for (let subset = 0; subset < SUBSETS; subset++) {
    for (let k = 0; k < b; k++) {
      const other = k + random.nextBelow(n - k);
      [indices[k], indices[other]] = [indices[other], indices[k]];
    }
    let own = 0;
    for (let k = 0; k < b; k++) own += differences[indices[k]];
    own /= b;
    const values: number[] = [];
    for (let r = 0; r < Math.floor(raisedTotal / SUBSETS); r++) {
      draw(random, counts);
      let sum = 0;
      for (let k = 0; k < b; k++) sum += counts[k] * differences[indices[k]];
      values.push(sum / n);
    }
    const take = Math.floor(resamples / SUBSETS);
    const mine = values.slice(0, take);
    const mean = mine.reduce((sum, x) => sum + x, 0) / mine.length;
    const inflate = mine.length > 1 ? Math.sqrt(mine.length / (mine.length - 1)) : 1;
    for (const v of mine) {
      out.today.push(v - mean + full);
      out.corrected.push((v - mean) * inflate + full);
      out.subset.push(v - own + full);
    }
    const raisedMean = values.reduce((sum, x) => sum + x, 0) / values.length;
    for (const v of values) out.raised.push(v - raisedMean + full);
  }
  return {
    today: Float64Array.from(out.today),
    corrected: Float64Array.from(out.corrected),
    subset: Float64Array.from(out.subset),
    raised: Float64Array.from(out.raised),
  };
}

/** p(w > 0) for accuracy (worsening = -difference): (#{w* <= 0} + 1) / (B + 1). */
function pWorse(differences: Float64Array): number {
  let notWorse = 0;
  for (const d of differences) if (-d <= 0) notWorse++;
  return (notWorse + 1) / (differences.length + 1);
}

export function resamplesStudy(trials: number, n = 600, counts = [20, 50, 100, 200, 2000]) {
  const random = new Random(81);
  const tally = counts.map(() => ({
    ...Object.fromEntries(CENTRINGS.map((c) => [c, { sd: [] as number[], blocks: 0 }])),
    engine: { sd: [] as number[], blocks: 0 },
  })) as Array<Record<Centring | 'engine', { sd: number[]; blocks: number }>>;
  const reference: number[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const generator = new Generator(new Random(82000 + trial), EQUAL_GROUPS);
    const instances = generator.instances(n);
    const baseline = generator.records(instances, { variants: 1 });
    const candidate = generator.records(instances, { variants: 1 });
    const differences = Float64Array.from(candidate, (record, i) => record.correct! - baseline[i].correct!);
    // The plain bootstrap's spread of the same mean, for reference: sd / sqrt(n).
    reference.push(standardDeviation(differences) / Math.sqrt(n));
    counts.forEach((resamples, k) => {
      const booted = littleBootstrap(differences, resamples, random);
      for (const centring of CENTRINGS) {
        tally[k][centring].sd.push(standardDeviation(booted[centring]));
        if (pWorse(booted[centring]) < 0.05) tally[k][centring].blocks++;
      }
      const engine = compareMetric(buildTable(candidate), buildTable(baseline), 'accuracy', undefined, {
        resamples,
        seed: 1,
        minGroupSize: 10,
      })!;
      tally[k].engine.sd.push(engine.sd);
      if (engine.pBelow < 0.05) tally[k].engine.blocks++;
    });
  }
  const plain = meanOf(reference).mean;
  return {
    instances: n,
    subsetSize: subsetSizeFor(n, [n]),
    plainSd: plain,
    rows: counts.map((resamples, k) => ({
      resamples,
      perSubset: Math.floor(resamples / SUBSETS),
      ...Object.fromEntries(
        (['engine', ...CENTRINGS] as const).map((c) => [
          c,
          { sdRatio: meanOf(tally[k][c].sd).mean / plain, blocks: rate(tally[k][c].blocks, trials) },
        ]),
      ),
    })),
  };
}
