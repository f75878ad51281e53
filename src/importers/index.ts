import { writeFile } from 'node:fs/promises';
import { writeRecords } from '../records/write.js';
import { helmImporter } from './helm.js';
import { inspectImporter } from './inspect.js';
import { lmEvalImporter } from './lm-eval.js';
import { metricsImporter } from './metrics.js';
import { promptfooImporter } from './promptfoo.js';
import { csvImporter, jsonlImporter } from './table.js';
import type { Imported, Importer, ImportOptions } from './types.js';

export type { Imported, ImportOptions } from './types.js';
export { MAPPABLE_FIELDS, parseColumnMap } from './table-map.js';

/** Every importer, by the format name users give. */
const IMPORTERS = [
  helmImporter,
  lmEvalImporter,
  promptfooImporter,
  inspectImporter,
  csvImporter,
  jsonlImporter,
  metricsImporter,
] as const satisfies readonly Importer[];

export type ImportFormat = (typeof IMPORTERS)[number]['format'];
export const IMPORT_FORMATS: readonly ImportFormat[] = IMPORTERS.map((importer) => importer.format);

export function importResults(format: ImportFormat, path: string, options: ImportOptions = {}): Promise<Imported> {
  return IMPORTERS.find((importer) => importer.format === format)!.importResults(path, options);
}

/** Writes what was imported: records as JSON Lines, a metrics report as JSON. */
export async function writeImported(file: string, imported: Imported): Promise<void> {
  if (imported.kind === 'metrics') await writeFile(file, `${JSON.stringify(imported.report)}\n`);
  else await writeRecords(file, imported.records);
}
