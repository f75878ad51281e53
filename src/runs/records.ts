import { RecordTableBuilder, type RecordTable } from '../metrics/table.js';
import { forEachRecord } from '../records/read.js';

/**
 * Streams a records file straight into a column store, validating every line. A second record of one
 * sample of an example (scenario, id, perturbation, sample) is an error: the metrics would count it twice.
 */
export async function loadRecordTable(path: string): Promise<RecordTable> {
  const builder = new RecordTableBuilder(path);
  await forEachRecord(path, (record, line) => builder.add(record, line));
  return builder.build();
}
