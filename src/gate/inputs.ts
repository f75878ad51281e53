import { open, readFile, stat } from 'node:fs/promises';
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the shape of a metrics report; the problem names the key path. */
function metricsReportProblem(value: unknown): string | undefined {
  if (!isObject(value) || !isObject(value.overall) || !isObject(value.scenarios)) return 'expected {"overall": {...}, "scenarios": {...}}';
  const sets: Array<[string, unknown]> = [['overall', value.overall], ...Object.entries(value.scenarios).map(([name, set]): [string, unknown] => [`scenarios.${name}`, set])];
  for (const [path, set] of sets) {
    if (!isObject(set)) return `"${path}" must be an object of metric -> {"value", "ci", "n"}`;
    for (const [metric, entry] of Object.entries(set)) {
      const where = `"${path}.${metric}"`;
      if (!isObject(entry) || typeof entry.value !== 'number') return `${where}.value must be a number`;
      if (!(entry.ci === null || (Array.isArray(entry.ci) && entry.ci.length === 2 && entry.ci.every((bound) => typeof bound === 'number')))) {
        return `${where}.ci must be [low, high] or null`;
      }
      if (typeof entry.n !== 'number' || !(entry.n >= 0)) return `${where}.n must be a number >= 0`;
    }
  }
  return undefined;
}

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
  if (isObject(report) && 'overall' in report) {
    const problem = metricsReportProblem(report);
    if (problem) throw new InputError(file, undefined, `not a valid metrics report: ${problem}`);
    return { kind: 'metrics', file, report: report as unknown as MetricsReport };
  }
  return { kind: 'records', file, table: await loadRecordTable(file) };
}

/** The metric set of a scope ("overall" or a scenario) of a report. */
export function scopeMetrics(report: MetricsReport, scenario: string | undefined): MetricSet | undefined {
  return scenario === undefined ? report.overall : report.scenarios[scenario];
}
