import { describe, expect, it } from '@jest/globals';
import { EQUAL_GROUPS, Generator, populationValues, UNEQUAL_GROUPS } from '../bench/population21.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { Random } from '../src/stats/random.js';

/*
 * The population values of issue 21's simulations (bench/population21.ts, written down in
 * docs/statistics-design-21.md) are computed by quadrature; here they are checked against the metric
 * engine itself on a large draw, so that they are the values of the metrics as evalgate defines them.
 */

/** The engine's point estimates on `instances` instances of the population (three variants each). */
function drawn(population: typeof EQUAL_GROUPS, instances: number, drop = 0) {
  const generator = new Generator(new Random(21), population);
  const records = generator.records(generator.instances(instances), { drop });
  return computeMetrics(buildTable(records), { resamples: 0, seed: 1, minGroupSize: 10 }).overall;
}

describe("the simulations' population", () => {
  it('has the values the quadrature gives, as the engine computes them on 60,000 instances', () => {
    const truth = populationValues(EQUAL_GROUPS, 0, 2000); // 2,000 nodes a group: within 1e-7 of 20,000
    const metrics = drawn(EQUAL_GROUPS, 60_000);
    // Standard errors: accuracy 0.0018, the variants' worst cases 0.002, the smallest group's 0.0056.
    expect(metrics.accuracy.value).toBeCloseTo(truth.accuracy, 2);
    expect(Math.abs(metrics.accuracy_robust.value - truth.accuracy_robust)).toBeLessThan(0.005);
    expect(Math.abs(metrics.accuracy_fair.value - truth.accuracy_fair)).toBeLessThan(0.005);
    // A minimum of four equal groups lies a little below them (about one standard error of the groups').
    expect(Math.abs(metrics['worst_group_accuracy:region'].value - truth.worst_group_accuracy)).toBeLessThan(0.015);
    expect(metrics['group_accuracy_gap:region'].value).toBeLessThan(0.03);
    expect(Math.abs(metrics.latency_p95_ms.value - truth.latency_p95_ms)).toBeLessThan(6);
    // The plug-in calibration errors exceed the truth by their noise, here at most about 0.005.
    for (const metric of ['ece', 'ece_10_bin'] as const) {
      expect(metrics[metric].value - truth[metric]).toBeGreaterThan(-0.001);
      expect(metrics[metric].value - truth[metric]).toBeLessThan(0.006);
    }
    expect(truth.ece).toBeCloseTo(0.00888, 4);
    expect(truth.ece_10_bin).toBeCloseTo(0.01157, 4);
  });

  it('draws unequal groups and a true drop as stated', () => {
    const truth = populationValues(UNEQUAL_GROUPS, 0.05, 2000);
    const metrics = drawn(UNEQUAL_GROUPS, 30_000, 0.05);
    expect(truth.accuracy).toBeCloseTo(0.7, 12);
    expect(Math.abs(metrics.accuracy.value - truth.accuracy)).toBeLessThan(0.008);
    expect(Math.abs(metrics['worst_group_accuracy:region'].value - truth.worst_group_accuracy)).toBeLessThan(0.025);
    expect(Math.abs(metrics['group_accuracy_gap:region'].value - truth.group_accuracy_gap)).toBeLessThan(0.035);
  });
});
