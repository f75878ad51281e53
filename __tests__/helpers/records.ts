import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeMetrics, type MetricsReport } from '../../src/metrics/compute.js';
import { buildTable } from '../../src/metrics/table.js';
import type { EvalRecord } from '../../src/records/types.js';
import { Random } from '../../src/stats/random.js';

/** A record with the required fields filled in. */
export function record(fields: Partial<EvalRecord> & { id: string }): EvalRecord {
  return { scenario: 's', correct: 1, ...fields } as EvalRecord;
}

/** Metric values only (no bootstrap), for hand-worked cases. */
export function metricsOf(records: EvalRecord[], minGroupSize = 10): MetricsReport {
  return computeMetrics(buildTable(records), { resamples: 0, seed: 1, minGroupSize });
}

/** Just the value of each overall metric. */
export function overallValues(records: EvalRecord[], minGroupSize = 10): Record<string, number> {
  return Object.fromEntries(Object.entries(metricsOf(records, minGroupSize).overall).map(([name, metric]) => [name, metric.value]));
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'evalgate-test-'));
}

/** Writes lines (objects are JSON-encoded, strings written as they are) to a new temporary file. */
export function writeLines(name: string, lines: Array<object | string>): string {
  const path = join(tempDir(), name);
  writeFileSync(path, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return path;
}

/**
 * A model noisy within examples, over `instances` instances: the baseline answers instance i right with
 * probability p_i ~ U(0.3, 0.7) each time it is asked, the candidate with q_i = p_i +- 0.25 (no
 * worsening on average). `run` writes K samples of each instance, drawn with its own seed.
 */
export function noisyWithinExamples(instances: number, seed: number) {
  const random = new Random(seed);
  const p = Array.from({ length: instances }, () => 0.3 + 0.4 * random.nextFloat());
  const q = p.map((value) => value + (random.nextFloat() < 0.5 ? -0.25 : 0.25));
  const run = (name: string, probabilities: number[], samples: number, drawSeed: number) => {
    const draws = new Random(drawSeed);
    return writeLines(
      name,
      probabilities.flatMap((probability, id) =>
        Array.from({ length: samples }, (_, sample) =>
          record({ id: String(id), sample, correct: draws.nextFloat() < probability ? 1 : 0 }),
        ),
      ),
    );
  };
  return { p, q, run };
}
