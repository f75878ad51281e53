import type { MetricsReport } from '../metrics/compute.js';
import type { EvalRecord } from '../records/types.js';
import { importHelm } from './helm.js';
import { importLmEval, importLmEvalResults, isLmEvalSummary } from './lm-eval.js';
import { importPromptfoo, type PromptfooImportOptions } from './promptfoo.js';

export type ImportFormat = 'helm' | 'lm-eval' | 'promptfoo';
export const IMPORT_FORMATS: readonly ImportFormat[] = ['helm', 'lm-eval', 'promptfoo'];

/** Another tool's output as records, or (lm-eval results files) as a metrics report. */
export type Imported = { kind: 'records'; records: EvalRecord[] } | { kind: 'metrics'; report: MetricsReport };

export async function importResults(format: ImportFormat, path: string, options: PromptfooImportOptions = {}): Promise<Imported> {
  if (format === 'helm') return { kind: 'records', records: await importHelm(path) };
  if (format === 'promptfoo') return { kind: 'records', records: await importPromptfoo(path, options) };
  const summary = await isLmEvalSummary(path);
  return summary ? { kind: 'metrics', report: await importLmEvalResults(summary) } : { kind: 'records', records: await importLmEval(path) };
}
