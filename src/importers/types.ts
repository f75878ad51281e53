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
}

/** One tool's output format: a pure reader of its files. */
export interface Importer {
  /** The name users give it (--from, the action's `import`). */
  format: string;
  importResults(path: string, options: ImportOptions): Promise<Imported>;
}
