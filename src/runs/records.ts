import { forEachRecord } from '../records/read.js';
import { RecordTableBuilder, type RecordTable } from '../metrics/table.js';

/** Streams a records file straight into a column store, validating every line. */
export async function loadRecordTable(path: string): Promise<RecordTable> {
  const builder = new RecordTableBuilder();
  await forEachRecord(path, (record) => builder.add(record));
  return builder.build();
}
