import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeMetrics, type MetricsReport } from '../../src/metrics/compute.js';
import { buildTable } from '../../src/metrics/table.js';
import type { EvalRecord } from '../../src/records/types.js';

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
