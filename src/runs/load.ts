import { open, readFile, stat } from 'node:fs/promises';
import { InputError } from '../errors.js';
import type { MetricsReport } from '../metrics/compute.js';
import type { RecordTable } from '../metrics/table.js';
import { withoutBom } from '../records/read.js';
import { looksLikeMetricsFile, parseMetricsFile } from './metrics-file.js';
import { loadRecordTable } from './records.js';

/**
 * A run to gate: per-example records (JSON Lines), or only its summary metrics (the JSON of
 * `evalgate metrics --json`), in which case comparisons use point estimates.
 */
export type RunInput = { kind: 'records'; file: string; table: RecordTable } | { kind: 'metrics'; file: string; report: MetricsReport };

const MAX_METRICS_FILE_BYTES = 64 * 1024 * 1024;

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
  if (looksLikeMetricsFile(report)) return { kind: 'metrics', file, report: parseMetricsFile(report, file) };
  return { kind: 'records', file, table: await loadRecordTable(file) };
}
