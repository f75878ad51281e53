import { InputError } from '../errors.js';
import { RecordTableBuilder, type RecordTable } from '../metrics/table.js';
import { describeKey, exampleKey, exampleOf } from '../records/key.js';
import { forEachRecord } from '../records/read.js';

/**
 * Streams a records file straight into a column store, validating every line. A second record of one
 * example (scenario, id, perturbation) is an error: metrics would count it twice.
 */
export async function loadRecordTable(path: string): Promise<RecordTable> {
  const builder = new RecordTableBuilder();
  await forEachRecord(path, (record, line) => {
    const earlier = builder.add(record, line);
    if (earlier !== undefined) {
      throw new InputError(
        path,
        line,
        `${describeKey(exampleKey(exampleOf(record)))} appears twice (first on line ${earlier}): one record per example`,
      );
    }
  });
  return builder.build();
}
