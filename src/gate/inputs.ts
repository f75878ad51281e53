import { open, readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { MetricsReport, MetricSet } from '../metrics/compute.js';
import { loadRecordTable } from '../metrics/load.js';
import type { RecordTable } from '../metrics/table.js';
import { InputError } from '../records/errors.js';
import { withoutBom } from '../records/read.js';

/**
 * A run to gate: per-example records (JSON Lines), or only its summary metrics (the JSON of
 * `evalgate metrics --json`), in which case comparisons use point estimates.
 */
export type RunInput = { kind: 'records'; file: string; table: RecordTable } | { kind: 'metrics'; file: string; report: MetricsReport };

const MAX_METRICS_FILE_BYTES = 64 * 1024 * 1024;

export const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');
/** A metric's value as `evalgate metrics --json` writes it; n may be fractional (another tool's weighted samples). */
export const metricValueSchema = z.object({
  value: finiteNumber,
  ci: z.tuple([finiteNumber, finiteNumber]).nullable(),
  n: finiteNumber.refine((n) => n >= 0, 'expected a number >= 0'),
});
/** The JSON of `evalgate metrics --json`: every metric of every scope. */
export const metricsReportSchema = z.object({
  overall: z.record(z.string(), metricValueSchema),
  scenarios: z.record(z.string(), z.record(z.string(), metricValueSchema)),
});

/** The first line of a file, without reading the rest. */
async function firstLine(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(65536);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return withoutBom(buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0]);
  } finally {
    await handle.close();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a run, telling a metrics report from records by its content. */
export async function loadRun(file: string): Promise<RunInput> {
  let head: string;
  try {
    head = await firstLine(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`);
  }
  let report = parseJson(head);
  // A pretty-printed report starts with a lone "{": read it whole (metrics files are small).
  if (report === undefined && head.trim() === '{' && (await stat(file)).size <= MAX_METRICS_FILE_BYTES) {
    report = parseJson(await readFile(file, 'utf8'));
  }
  if (typeof report === 'object' && report !== null && 'overall' in report) {
    const parsed = metricsReportSchema.safeParse(report);
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      throw new InputError(file, undefined, `not a valid metrics report: "${issue.path.map(String).join('.')}": ${issue.message}`);
    }
    return { kind: 'metrics', file, report: parsed.data };
  }
  return { kind: 'records', file, table: await loadRecordTable(file) };
}

/** The metric set of a scope ("overall" or a scenario) of a report. */
export function scopeMetrics(report: MetricsReport, scenario: string | undefined): MetricSet | undefined {
  return scenario === undefined ? report.overall : report.scenarios[scenario];
}
