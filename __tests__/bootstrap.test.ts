import { describe, expect, it } from '@jest/globals';
import { subsetSizeFor } from '../src/metrics/compute.js';
import { compareMetric } from '../src/metrics/paired.js';
import { buildTable } from '../src/metrics/table.js';
import { multinomialDrawer } from '../src/stats/bootstrap.js';
import { PoissonSampler, Random } from '../src/stats/random.js';
import { record } from './helpers/records.js';

const options = { resamples: 1000, seed: 7, minGroupSize: 10 };

describe('random numbers', () => {
  it('are reproducible from the seed', () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const first = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(first);
  });

  it('fill a buffer with what one call at a time would give, and go on from there', () => {
    const one = new Random(9);
    const filled = new Random(9);
    const buffer = new Uint32Array(1000);
    filled.fill(buffer, 999);
    expect(Array.from(buffer.subarray(0, 999))).toEqual(Array.from({ length: 999 }, () => one.nextUint32()));
    expect(buffer[999]).toBe(0);
    expect(filled.nextUint32()).toBe(one.nextUint32());
  });

  it('draw Poisson counts and add uniform ones as drawing one at a time would, and go on from there', () => {
    const one = new Random(5);
    const fused = new Random(5);
    const sampler = new PoissonSampler(38.7);
    const expected = Array.from({ length: 500 }, () => sampler.draw(one));
    const counts = new Float64Array(500);
    expect(fused.addPoisson(sampler, counts, 500)).toBe(expected.reduce((sum, k) => sum + k, 0));
    expect(Array.from(counts)).toEqual(expected);
    const n = 77; // a rejection threshold above 0: some draws are rejected and drawn again
    for (let draw = 0; draw < 3000; draw++) expected[one.nextBelow(n)]++;
    fused.addUniform(counts, 3000, n, (4294967296 - n) % n);
    expect(Array.from(counts)).toEqual(expected);
    expect(fused.nextUint32()).toBe(one.nextUint32());
  });

  it('draw integers below n uniformly', () => {
    const random = new Random(1);
    const counts = new Array(7).fill(0);
    for (let i = 0; i < 70000; i++) counts[random.nextBelow(7)]++;
    // Each cell expects 10000, standard deviation about 93.
    for (const count of counts) expect(Math.abs(count - 10000)).toBeLessThan(500);
  });

  it('draw Poisson counts with the right mean and variance', () => {
    for (const mean of [0.5, 3, 20, 150]) {
      const sampler = new PoissonSampler(mean);
      const random = new Random(5);
      const draws = Array.from({ length: 50000 }, () => sampler.draw(random));
      const average = draws.reduce((s, x) => s + x, 0) / draws.length;
      const variance = draws.reduce((s, x) => s + (x - average) ** 2, 0) / draws.length;
      expect(Math.abs(average - mean)).toBeLessThan(5 * Math.sqrt(mean / draws.length));
      expect(Math.abs(variance / mean - 1)).toBeLessThan(0.05);
    }
  });

  it('draw multinomial counts that add up to the total', () => {
    const random = new Random(3);
    for (const [cells, total] of [
      [10, 10],
      [50, 5000],
      [2000, 40000],
    ]) {
      const counts = new Float64Array(cells);
      multinomialDrawer(cells, total)(random, counts);
      expect(counts.reduce((s, x) => s + x, 0)).toBe(total);
      expect(counts.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    }
    // Cell counts of multinomial(n, 1/b) have mean n/b and variance n(1/b)(1-1/b).
    const counts = new Float64Array(400);
    const cellValues: number[] = [];
    const drawMultinomial = multinomialDrawer(400, 20000);
    for (let i = 0; i < 200; i++) {
      drawMultinomial(random, counts);
      cellValues.push(...counts);
    }
    const mean = cellValues.reduce((s, x) => s + x, 0) / cellValues.length;
    const variance = cellValues.reduce((s, x) => s + (x - mean) ** 2, 0) / cellValues.length;
    expect(mean).toBe(50);
    expect(Math.abs(variance / (20000 * (1 / 400) * (1 - 1 / 400)) - 1)).toBeLessThan(0.05);
  });
});

describe('little-bootstrap subsets', () => {
  it('size little-bootstrap subsets by n^0.7 and by the metric with the fewest records', () => {
    expect(subsetSizeFor(500, [500])).toBe(500); // small scopes: the plain bootstrap
    expect(subsetSizeFor(40000, [40000])).toBe(Math.ceil(40000 ** 0.7)); // 1,661
    expect(subsetSizeFor(2000, [2000])).toBe(500);
    // A metric on 400 of 40,000 instances needs subsets of 5,000 to see 50 of its records in each.
    expect(subsetSizeFor(40000, [40000, 400])).toBe(5000);
    expect(subsetSizeFor(40000, [40000, 10])).toBe(40000);
  });
});

describe('paired bootstrap', () => {
  it('is undefined when a run lacks the metric', () => {
    const withConfidence = buildTable([record({ id: '1', confidence: 0.5 })]);
    const without = buildTable([record({ id: '1' })]);
    expect(compareMetric(withConfidence, without, 'ece', undefined, options)).toBeUndefined();
  });
});
