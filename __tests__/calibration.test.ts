import { describe, expect, it } from '@jest/globals';
import { equalMassEce, EceBins } from '../src/metrics/calibration.js';
import { Random } from '../src/stats/random.js';
import { scopeNamed } from '../src/metrics/scope.js';
import { prepareStatistics } from '../src/metrics/statistics.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';

/*
 * ece_10_bin is computed in one walk over the weighted records (src/metrics/calibration.ts). Checked
 * here against HELM's recipe written out plainly on the expanded list (each record copied its
 * instance's weight times): numpy.array_split into min(10, N) chunks, midpoints between adjacent
 * chunks plus 1.0 as boundaries (duplicates dropped), each value in the first bin whose boundary is at
 * or above it (bisect_left). Ties, chunk starts inside one record's copies and midpoints that round to
 * an end are what the walk must get right.
 */
function helmEce(values: number[], correct: number[]): number {
  const n = values.length;
  const chunks = Math.min(10, n);
  const chunkValues: number[][] = [];
  let start = 0;
  for (let chunk = 0; chunk < chunks; chunk++) {
    const size = Math.floor(n / chunks) + (chunk < n % chunks ? 1 : 0);
    chunkValues.push(values.slice(start, start + size));
    start += size;
  }
  const boundaries: number[] = [];
  for (let chunk = 0; chunk + 1 < chunks; chunk++) boundaries.push((chunkValues[chunk].at(-1)! + chunkValues[chunk + 1][0]) / 2);
  boundaries.push(1.0);
  const bins = [...new Set(boundaries)].sort((a, b) => a - b);
  const members = bins.map(() => ({ count: 0, correct: 0, confidence: 0 }));
  values.forEach((value, index) => {
    const bin = bins.findIndex((boundary) => boundary >= value);
    members[bin].count++;
    members[bin].correct += correct[index];
    members[bin].confidence += value;
  });
  return members.reduce(
    (sum, { count, correct: right, confidence }) => (count > 0 ? sum + (count / n) * Math.abs(right / count - confidence / count) : sum),
    0,
  );
}

describe('ece_10_bin in one walk', () => {
  it('equals the plain recipe on the expanded records, ties and rounding included', () => {
    const random = new Random(11);
    // Few levels make ties and chunk edges inside runs; adjacent doubles make midpoints round to an end.
    const levelSets = [
      [0, 0.5, 1],
      [0.3, 0.30000000000000004, 0.6, 0.6000000000000001, 1],
      Array.from({ length: 7 }, (_, k) => k / 6),
      [0, 1e-16, 0.5],
    ];
    let compared = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const levels = levelSets[trial % levelSets.length];
      const records = 1 + random.nextBelow(30);
      const instances = 1 + random.nextBelow(records);
      const value = Float64Array.from({ length: records }, () => levels[random.nextBelow(levels.length)]).sort();
      const instance = Int32Array.from({ length: records }, () => random.nextBelow(instances));
      const payload = Float64Array.from({ length: records }, () => random.nextBelow(2));
      const weights = Float64Array.from({ length: instances }, () => (random.nextFloat() < 0.25 ? 0 : random.nextBelow(5)));
      const expandedValues: number[] = [];
      const expandedCorrect: number[] = [];
      value.forEach((confidence, index) => {
        for (let copy = 0; copy < weights[instance[index]]; copy++) {
          expandedValues.push(confidence);
          expandedCorrect.push(payload[index]);
        }
      });
      const walked = equalMassEce({ instance, value, payload }, weights, undefined, new EceBins());
      if (expandedValues.length === 0) {
        expect(walked).toBeNaN();
        continue;
      }
      expect(walked).toBeCloseTo(helmEce(expandedValues, expandedCorrect), 12);
      compared++;
    }
    expect(compared).toBeGreaterThan(2000);
  });
});

describe('the equal-mass statistic of a scope', () => {
  it('gives on every resample the plain recipe on the expanded calibrated records (the total from records per instance)', () => {
    const random = new Random(23);
    const levels = [0.2, 0.5, 0.5, 0.8, 0.95, 1];
    for (let trial = 0; trial < 40; trial++) {
      // Instances with an original and perturbations; some originals failed or without a confidence.
      const records: EvalRecord[] = [];
      const instances = 5 + random.nextBelow(40);
      for (let instance = 0; instance < instances; instance++) {
        for (let variant = 0; variant < 1 + random.nextBelow(3); variant++) {
          const record: EvalRecord = { scenario: 's', id: `q${instance}`, correct: random.nextBelow(2) };
          if (variant > 0) record.perturbation = { name: `p${variant}`, kind: 'robustness' };
          if (random.nextFloat() < 0.8) record.confidence = levels[random.nextBelow(levels.length)];
          if (random.nextFloat() < 0.1) records.push({ ...record, correct: undefined, error: 'timeout' });
          else records.push(record);
        }
      }
      const table = buildTable(records);
      const scope = scopeNamed(table, 's');
      const [statistic] = prepareStatistics(table, scope, { minGroupSize: 10 }, 'ece_10_bin');
      if (!statistic) continue;
      for (let resample = 0; resample < 20; resample++) {
        const weights = Float64Array.from({ length: scope.instanceCount }, () => random.nextBelow(4));
        const expandedValues: number[] = [];
        const expandedCorrect: number[] = [];
        const calibrated = records
          .map((record, row) => ({ record, row }))
          .filter(({ record }) => record.perturbation === undefined && record.error === undefined && record.confidence !== undefined)
          .sort((a, b) => a.record.confidence! - b.record.confidence! || a.row - b.row);
        for (const { record, row } of calibrated) {
          for (let copy = 0; copy < weights[scope.instanceOfRow[row]]; copy++) {
            expandedValues.push(record.confidence!);
            expandedCorrect.push(record.correct as number);
          }
        }
        const [ece] = Array.from(statistic.evaluate(weights));
        if (expandedValues.length === 0) expect(ece).toBeNaN();
        else expect(ece).toBeCloseTo(helmEce(expandedValues, expandedCorrect), 12);
      }
    }
  });
});
