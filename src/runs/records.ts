import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RecordTableBuilder, type RecordTable } from '../metrics/table.js';
import { forEachRecord } from '../records/read.js';

/**
 * Streams a records file straight into a column store, validating every line. A second record of one
 * sample of an example (scenario, id, perturbation, sample) is an error: the metrics would count it twice.
 */
export async function loadRecordTable(path: string): Promise<RecordTable> {
  const builder = new RecordTableBuilder(path);
  builder.expectRows(expectedRecords(path));
  await forEachRecord(path, (record, line) => builder.add(record, line));
  return builder.build();
}

/** The bytes read at each of three places to guess a file's length of line. */
const SAMPLE_BYTES = 1 << 16;
/** No record's line is shorter (`{"scenario":"a","id":"b","correct":1}` is 38 bytes). */
const SHORTEST_RECORD_BYTES = 24;

/**
 * About how many records a file holds (0 when it cannot tell), from its size and the length of its
 * lines at the start, the middle and the end, the longest of the three (a guess too low costs only the
 * doubling it was to avoid): the column store makes room for them once, instead of doubling and
 * copying its columns as it fills. A file it cannot read here is left to the reader's error.
 */
function expectedRecords(path: string): number {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const { size } = fstatSync(descriptor);
    if (size < 4 * SAMPLE_BYTES) return 0;
    const sample = Buffer.alloc(SAMPLE_BYTES);
    let bytesPerLine = SHORTEST_RECORD_BYTES;
    for (const offset of [0, Math.floor(size / 2), size - SAMPLE_BYTES]) {
      const read = readSync(descriptor, sample, 0, SAMPLE_BYTES, offset);
      let lines = 0;
      for (let at = sample.indexOf(0x0a); at >= 0 && at < read; at = sample.indexOf(0x0a, at + 1)) lines++;
      if (lines < 2) return 0;
      bytesPerLine = Math.max(bytesPerLine, read / lines);
    }
    return Math.ceil((size / bytesPerLine) * 1.05);
  } catch {
    return 0;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
