import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { LineSplitter, LineTooLongError, READ_CHUNK_BYTES } from '../lines.js';
import type { MetricsReport } from '../metrics/compute.js';
import type { RecordTable } from '../metrics/table.js';
import { looksLikeMetricsFile, parseMetricsFile } from './metrics-file.js';
import { loadRecordTable } from './records.js';

/**
 * A run to gate: per-example records (JSON Lines), or only its summary metrics (the JSON of
 * `evalgate metrics --json`), in which case comparisons use point estimates.
 */
export type RunInput = { kind: 'records'; file: string; table: RecordTable } | { kind: 'metrics'; file: string; report: MetricsReport };

/** The largest metrics file read: one of thousands of scenarios and groups is a few MiB. */
const MAX_METRICS_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The whole first line of a file, read without the rest; undefined when it is longer than a metrics
 * file may be (then it is none: the records reader refuses the line).
 */
async function firstLine(file: string): Promise<string | undefined> {
  const splitter = new LineSplitter({ maxLineBytes: MAX_METRICS_FILE_BYTES, wanted: (line) => line === 1 });
  let first: string | undefined;
  const keep = (text: string) => (first = text);
  const stream = createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      splitter.push(chunk, keep);
      if (first !== undefined) return first;
    }
    splitter.end(keep);
    return first ?? '';
  } catch (error) {
    if (error instanceof LineTooLongError) return undefined;
    throw error;
  } finally {
    stream.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads a run, telling a metrics report from records by the file's first JSON value: its first line
 * (`evalgate metrics --json` writes one line of any length), or the whole file when that line is a
 * lone "{" (a pretty-printed report).
 */
export async function loadRun(file: string): Promise<RunInput> {
  let head: string | undefined;
  try {
    head = await firstLine(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`);
  }
  let first = head === undefined ? undefined : parseJson(head);
  if (first === undefined && head?.trim() === '{' && (await stat(file)).size <= MAX_METRICS_FILE_BYTES) {
    first = parseJson(await readFile(file, 'utf8'));
  }
  if (looksLikeMetricsFile(first)) return { kind: 'metrics', file, report: parseMetricsFile(first, file) };
  return { kind: 'records', file, table: await loadRecordTable(file) };
}
