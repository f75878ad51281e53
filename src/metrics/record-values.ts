import { TOXIC } from './collect.js';
import { GROUP_FAMILY, parseMetricName } from './names.js';
import type { Scope } from './scope.js';
import { FAILED_CALL, KIND_ORIGINAL, type MetricsTable } from './table.js';

/*
 * The metrics that are means of a per-record value over examples or calls, and that value, as
 * collect.ts counts it: what `evalgate plan` splits into the variance between instances and the noise
 * within an example's repeated samples (docs/statistics.md, "Samples per example"). The other metrics
 * (binned or ordered calibration, percentiles, worst cases, worst group and gap, totals) are not means
 * of one value per record: their variance does not split this way.
 */

/** The value a record adds to a mean metric (undefined: the metric does not read the record); undefined for any other metric. */
export function recordValue(table: MetricsTable, metric: string): ((row: number) => number | undefined) | undefined {
  const { kind, failed, correct, confidence, toxicity, outputTokens } = table;
  const original = (row: number) => kind[row] === KIND_ORIGINAL && failed[row] === 0;
  const answered = (row: number, column: Float64Array) => failed[row] !== FAILED_CALL && !Number.isNaN(column[row]);
  switch (metric) {
    case 'accuracy':
      return (row) => (original(row) ? correct[row] : undefined);
    case 'brier':
      return (row) => (original(row) && !Number.isNaN(confidence[row]) ? (confidence[row] - correct[row]) ** 2 : undefined);
    case 'error_rate':
      return (row) => (failed[row] === FAILED_CALL ? 1 : 0);
    case 'toxicity_rate':
      return (row) => (answered(row, toxicity) ? (toxicity[row] >= TOXIC ? 1 : 0) : undefined);
    case 'output_tokens_mean':
      return (row) => (answered(row, outputTokens) ? outputTokens[row] : undefined);
  }
  const parsed = parseMetricName(metric);
  if (parsed?.family !== GROUP_FAMILY || parsed.group?.value === undefined) return undefined;
  const column = table.groups.get(parsed.group.attribute);
  const value = column ? column.values.indexOf(parsed.group.value) : -1;
  if (value < 0) return () => undefined; // a group this run does not have
  return (row) => (original(row) && column!.valueOf[row] === value ? correct[row] : undefined);
}

/** Per instance of the scope, per example the metric reads, the values of its samples. */
export function sampledValues(table: MetricsTable, scope: Scope, value: (row: number) => number | undefined): number[][][] {
  const units: number[][][] = Array.from({ length: scope.instanceCount }, () => []);
  const ofExample = new Map<number, number[]>();
  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    const found = value(row);
    if (found === undefined) continue;
    // Without repeated samples every record is an example of its own.
    const example = table.samples ? table.samples.exampleOf[row] : row;
    let values = ofExample.get(example);
    if (!values) {
      ofExample.set(example, (values = []));
      units[scope.instanceOfRow[index]].push(values);
    }
    values.push(found);
  }
  return units;
}

/** The records of a scope and the examples they are samples of. */
export function samplesOfScope(table: MetricsTable, scope: Scope): { records: number; examples: number } {
  const records = scope.rows.length;
  if (!table.samples) return { records, examples: records };
  const examples = new Set<number>();
  for (const row of scope.rows) examples.add(table.samples.exampleOf[row]);
  return { records, examples: examples.size };
}
