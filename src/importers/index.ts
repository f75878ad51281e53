import { loadRun } from '../gate/inputs.js';
import type { MetricsReport } from '../metrics/compute.js';
import { InputError } from '../records/errors.js';
import type { EvalRecord } from '../records/types.js';
import { importHelm, importHelmStats } from './helm.js';
import { importLmEval, importLmEvalResults, isLmEvalSummary } from './lm-eval.js';
import { importPromptfoo, type PromptfooImportOptions } from './promptfoo.js';

export type ImportFormat = 'helm' | 'lm-eval' | 'promptfoo' | 'metrics';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['helm', 'lm-eval', 'promptfoo', 'metrics'];

/** Another tool's output as records, or (lm-eval results files) as a metrics report. */
export type Imported = { kind: 'records'; records: EvalRecord[] } | { kind: 'metrics'; report: MetricsReport };

export interface ImportOptions extends PromptfooImportOptions {
  /** HELM: its own summary numbers (stats.json) rather than per-instance records. */
  summary?: boolean;
}

export async function importResults(format: ImportFormat, path: string, options: ImportOptions = {}): Promise<Imported> {
  if (format === 'helm') return options.summary ? { kind: 'metrics', report: await importHelmStats(path) } : { kind: 'records', records: await importHelm(path) };
  if (format === 'promptfoo') return { kind: 'records', records: await importPromptfoo(path, options) };
  if (format === 'metrics') {
    // An evalgate metrics file (evalgate metrics --json), checked.
    const run = await loadRun(path);
    if (run.kind !== 'metrics') throw new InputError(path, undefined, 'not a metrics file (expected the JSON of evalgate metrics --json)');
    return { kind: 'metrics', report: run.report };
  }
  const summary = await isLmEvalSummary(path);
  return summary ? { kind: 'metrics', report: await importLmEvalResults(summary) } : { kind: 'records', records: await importLmEval(path) };
}
