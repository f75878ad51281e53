import { writeFile } from 'node:fs/promises';
import type { EvalRecord } from './types.js';

/** Writes records as JSON Lines, one record per line. */
export async function writeRecords(path: string, records: EvalRecord[]): Promise<void> {
  await writeFile(path, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
}
