import { describe, expect, it } from '@jest/globals';
import { scopesOf } from '../src/metrics/scope.js';
import { prepareStatistics } from '../src/metrics/statistics.js';
import { buildTable } from '../src/metrics/table.js';
import type { EvalRecord } from '../src/records/types.js';
import { Random } from '../src/stats/random.js';

/*
 * The bootstrap evaluates every metric with instance weights (resample counts, up to about n/b in the
 * bag of little bootstraps). Weight w must give exactly what the data would give with the instance's
 * records copied w times: checked here for every metric against the plain computation on such copies.
 */

function dataset(random: Random): EvalRecord[] {
  const records: EvalRecord[] = [];
  const pick = <T>(items: T[]) => items[random.nextBelow(items.length)];
  for (let i = 0; i < 60; i++) {
    const id = `q${i}`;
    const scenario = pick(['a', 'b']);
    const base = {
      scenario,
      id,
      groups: { dialect: pick(['sae', 'aae', 'ind']) },
      latency_ms: 50 + random.nextBelow(1000),
      output_tokens: random.nextBelow(90),
      cost_usd: random.nextBelow(100) / 1000,
      toxicity: random.nextBelow(11) / 10,
    };
    // Few distinct confidences, so that ties and bin boundaries matter.
    const confidence = () => pick([0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1]);
    // A third of the examples have two or three samples (repeated generations), some failed, some without a confidence.
    const samples = () => (random.nextFloat() < 0.33 ? 2 + random.nextBelow(2) : 1);
    const sampled = (k: number, count: number) => (count > 1 ? { sample: k } : {});
    for (let k = 0, count = samples(); k < count; k++) {
      if (random.nextFloat() < 0.05) records.push({ scenario, id, error: 'timeout', ...sampled(k, count) });
      else {
        const confident = random.nextFloat() < 0.9 ? { confidence: confidence() } : {};
        records.push({ ...base, correct: pick([0, 1, 1, 0.5]), ...confident, ...sampled(k, count) });
      }
    }
    for (const perturbation of [
      { name: 'typos', kind: 'robustness' as const },
      { name: 'dialect', kind: 'fairness' as const },
    ]) {
      if (random.nextFloat() >= 0.6) continue;
      for (let k = 0, count = samples(); k < count; k++) {
        records.push({ ...base, perturbation, correct: pick([0, 1]), confidence: confidence(), ...sampled(k, count) });
      }
    }
  }
  return records;
}

describe('weighted evaluation', () => {
  it.each([1, 2, 3])('equals the plain metrics on copied instances (seed %i)', (seed) => {
    const random = new Random(seed);
    const records = dataset(random);
    const table = buildTable(records);
    const [overall] = scopesOf(table);
    const weights = Float64Array.from({ length: overall.instanceCount }, () => (random.nextFloat() < 0.2 ? 0 : random.nextBelow(40)));
    // Copies of each record in place, as separate instances: what a resample with these counts means.
    const copied: EvalRecord[] = [];
    for (const record of records) {
      const instance = table.instanceKeys.indexOf(`${record.scenario}\u0000${record.id}`);
      for (let copy = 0; copy < weights[instance]; copy++) copied.push({ ...record, id: `${record.id}#${copy}` });
    }
    const copiedTable = buildTable(copied);
    const [copiedScope] = scopesOf(copiedTable);
    const ones = new Float64Array(copiedScope.instanceCount).fill(1);
    const expected = new Map<string, number>();
    for (const statistic of prepareStatistics(copiedTable, copiedScope, { minGroupSize: 1 })) {
      const values = statistic.evaluate(ones);
      statistic.metrics.forEach(({ metric }, k) => expected.set(metric, values[k]));
    }
    const compared: string[] = [];
    for (const statistic of prepareStatistics(table, overall, { minGroupSize: 1 })) {
      const values = statistic.evaluate(weights);
      statistic.metrics.forEach(({ metric }, k) => {
        // A group whose instances all got weight 0 has no copies: nothing to compare.
        if (!expected.has(metric)) return;
        const want = expected.get(metric)!;
        expect([metric, Math.abs(values[k] - want) <= 1e-9 * Math.max(1, Math.abs(want))]).toEqual([metric, true]);
        compared.push(metric);
      });
    }
    for (const metric of [
      'accuracy',
      'ece',
      'ece_10_bin',
      'brier',
      'selective_cov_acc_area',
      'selective_acc@10',
      'accuracy_robust',
      'accuracy_fair',
      'worst_group_accuracy:dialect',
      'group_accuracy_gap:dialect',
      'error_rate',
      'latency_p50_ms',
      'latency_p95_ms',
      'toxicity_rate',
      'output_tokens_mean',
      'cost_usd_total',
    ]) {
      expect(compared).toContain(metric);
    }
  });
});
