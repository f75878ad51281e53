import type { MetricsReport } from '../metrics/compute.js';
import type { EvalRecord } from '../records/types.js';

/** Another tool's output as records, or (its summary numbers) as a metrics report. */
export type Imported = { kind: 'records'; records: EvalRecord[] } | { kind: 'metrics'; report: MetricsReport };

export interface ImportOptions {
  /** promptfoo: the provider to import when the file has several. */
  provider?: string;
  /** promptfoo: test variables to keep as groups (e.g. dialect, segment). */
  groupVars?: string[];
  /** HELM: its own summary numbers (stats.json) rather than per-instance records. */
  summary?: boolean;
  /** Inspect: sample metadata keys to keep as groups. */
  groupKeys?: string[];
  /** Inspect: the model whose logs to import when a folder has several. */
  model?: string;
  /** csv, jsonl: record field -> the table's column (or JSON field), e.g. {correct: 'score', 'groups.dialect': 'dialect'}. */
  map?: Record<string, string>;
  /** csv, jsonl: a number field's factor (`--map latency_ms=latency_s*1000`): its cells are multiplied by it. */
  factors?: Record<string, number>;
  /** csv, jsonl: the scenario of every row, when the table has no scenario column. */
  scenario?: string;
  /** Something the user should know that does not stop the import (an unfinished run, unscored samples). */
  onWarning?: (message: string) => void;
}

/** One tool's output format: a pure reader of its files. */
export interface Importer {
  /** The name users give it (--from, the action's `import`). */
  format: string;
  importResults(path: string, options: ImportOptions): Promise<Imported>;
}

/** An importer of a format whose output is always records. */
export function recordsImporter<Format extends string>(
  format: Format,
  read: (path: string, options: ImportOptions) => Promise<EvalRecord[]>,
): Importer & { format: Format } {
  return { format, importResults: async (path, options) => ({ kind: 'records', records: await read(path, options) }) };
}
