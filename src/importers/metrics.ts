import { InputError } from '../errors.js';
import { loadRun } from '../runs/load.js';
import type { Imported, Importer } from './types.js';

/** An evalgate metrics file (evalgate metrics --json), checked. */
export const metricsImporter = {
  format: 'metrics',
  async importResults(path: string): Promise<Imported> {
    const run = await loadRun(path);
    if (run.kind !== 'metrics') throw new InputError(path, undefined, 'not a metrics file (expected the JSON of evalgate metrics --json)');
    return { kind: 'metrics', report: run.report };
  },
} as const satisfies Importer;
