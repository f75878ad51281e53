import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adjustPValues } from '../src/gate/multiplicity.js';
import { minimumDetectableWorsening, standardErrorToDetect } from '../src/gate/power.js';
import { formatNumber } from '../src/report/format.js';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';
import { Random } from '../src/stats/random.js';
import { tempDir } from './helpers/records.js';
import { runProcess } from './helpers/run.js';

/*
 * The gate's statistics: by hand on small cases, then against the independent Python reference
 * (__tests__/reference/gate_statistics_reference.py) on random ones.
 */

async function reference(cases: object): Promise<{ holm: number[][]; bonferroni: number[][]; mde: number[]; quantiles: number[] }> {
  const file = join(tempDir(), 'cases.json');
  writeFileSync(file, JSON.stringify(cases));
  const result = await runProcess('python3', ['__tests__/reference/gate_statistics_reference.py', file]);
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

describe('multiplicity', () => {
  it('adjusts by hand-worked Holm and Bonferroni', () => {
    // Sorted: 0.005 x 4 = 0.02; 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04, raised to the running 0.06.
    const p = [0.01, 0.04, 0.03, 0.005];
    adjustPValues('holm', p).forEach((value, i) => expect(value).toBeCloseTo([0.03, 0.06, 0.06, 0.02][i], 12));
    adjustPValues('bonferroni', p).forEach((value, i) => expect(value).toBeCloseTo([0.04, 0.16, 0.12, 0.02][i], 12));
    expect(adjustPValues('none', p)).toEqual(p);
    expect(adjustPValues('holm', [0.5, 0.9])).toEqual([1, 1]);
    expect(adjustPValues('holm', [0.02])).toEqual([0.02]);
    expect(adjustPValues('holm', [])).toEqual([]);
  });

  it('agrees with the reference on random families, ties included', async () => {
    const random = new Random(11);
    const families = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: 1 + (i % 12) }, () => (random.nextFloat() < 0.2 ? 0.01 : random.nextFloat() * 0.2)),
    );
    const expected = await reference({ holm: families, bonferroni: families });
    families.forEach((family, i) => {
      adjustPValues('holm', family).forEach((value, j) => expect(Math.abs(value - expected.holm[i][j])).toBeLessThan(1e-12));
      adjustPValues('bonferroni', family).forEach((value, j) => expect(Math.abs(value - expected.bonferroni[i][j])).toBeLessThan(1e-12));
    });
  });
});

describe('power', () => {
  it('gives the minimum detectable worsening by hand', () => {
    // The budget test blocks at w > b + z(0.95) sd: MDE80 = b + (z(0.95) + z(0.8)) sd.
    // sd 0.01, b 0.02: 0.02 + (1.6449 + 0.8416) 0.01 = 0.044865.
    expect(minimumDetectableWorsening(0.01, 0.02, 0.05)).toBeCloseTo(0.02 + (1.6448536269514715 + 0.8416212335729144) * 0.01, 12);
    // Budget 0: (1.6449 + 0.8416) 0.02 = 0.04973, as before the budget was tested as a budget.
    expect(minimumDetectableWorsening(0.02, 0, 0.05)).toBeCloseTo((1.6448536269514715 + 0.8416212335729144) * 0.02, 12);
    // plan sizes for the standard error at which MDE80 = b + 0.85 (detect - b).
    const se = standardErrorToDetect(0.03, 0.02, 0.01)!;
    expect(minimumDetectableWorsening(se, 0.02, 0.01)).toBeCloseTo(0.02 + 0.85 * 0.01, 12);
    expect(standardErrorToDetect(0.02, 0.02, 0.05)).toBeUndefined();
  });

  it('agrees with the reference, and the normal quantiles with Python statistics.NormalDist', async () => {
    const random = new Random(5);
    const cases = Array.from({ length: 50 }, () => [
      random.nextFloat() * 0.05,
      random.nextFloat() * 0.05,
      0.001 + random.nextFloat() * 0.1,
    ]);
    const quantiles = [1e-12, 1e-6, 0.001, 0.025, 0.2, 0.5, 0.8, 0.95, 0.975, 0.995, 0.999999];
    const expected = await reference({ mde: cases, quantiles });
    cases.forEach(([sd, budget, alpha], i) =>
      expect(Math.abs(minimumDetectableWorsening(sd, budget, alpha) - expected.mde[i])).toBeLessThan(1e-12),
    );
    quantiles.forEach((p, i) =>
      expect(Math.abs(normalQuantile(p) - expected.quantiles[i])).toBeLessThan(1e-9 * Math.max(1, Math.abs(expected.quantiles[i]))),
    );
    // The CDF inverts the quantile to its stated accuracy (1.2e-7).
    for (const p of [0.001, 0.05, 0.3, 0.5, 0.9, 0.999]) expect(Math.abs(normalCdf(normalQuantile(p)) - p)).toBeLessThan(2e-7);
  });
});

describe('display', () => {
  it('shows floating-point residue as 0', () => {
    expect(formatNumber(6.66e-16)).toBe('0');
    expect(formatNumber(-2e-17)).toBe('0');
    expect(formatNumber(0.000123)).toBe('0.000123');
  });
});
