import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { InputError, UsageError } from '../errors.js';
import { forEachJsonLine } from '../records/read.js';
import { duplicateExample, exampleKey, exampleOf } from '../records/key.js';
import { fillProvenance } from '../records/provenance.js';
import type { EvalRecord } from '../records/types.js';
import { parsePythonJson } from './read-json.js';
import { columnsFor, rowRecord } from './table-map.js';
import { recordsImporter, type ImportOptions } from './types.js';

/*
 * A per-example table of the team's own -> records: a CSV file (a header row, then one row per
 * example; RFC 4180 quoting, as pandas' to_csv writes it, a byte order mark allowed) or a JSON Lines
 * file (one object per line), its columns or fields mapped onto record fields by `--map`
 * (table-map.ts). Every problem names the file, the line (where the row starts, for a CSV row with
 * line breaks inside quotes) and the column.
 */

/** Collects the rows' records, refusing a second record of the same example and sample. */
class TableRecords {
  readonly records: EvalRecord[] = [];
  private readonly lines = new Map<string, number>();

  constructor(private readonly file: string) {}

  add(record: EvalRecord, line: number): void {
    const key = exampleKey(exampleOf(record));
    const earlier = this.lines.get(key);
    if (earlier !== undefined) throw duplicateExample(this.file, line, key, earlier);
    this.lines.set(key, line);
    this.records.push(record);
  }

  done(): EvalRecord[] {
    if (this.records.length === 0) throw new InputError(this.file, undefined, 'no rows: the table is empty');
    fillProvenance(this.records);
    return this.records;
  }
}

/** The field -> column map of the options, with --scenario in place of a scenario column. */
function mapOf(options: ImportOptions): Record<string, string> {
  if (options.scenario !== undefined && options.map?.scenario !== undefined) {
    throw new UsageError('--scenario and --map scenario=... both name the scenario: give one');
  }
  return options.map ?? {};
}

function columnsWithScenario(map: Record<string, string>, available: Iterable<string>, scenario: string | undefined): Map<string, string> {
  const columns = columnsFor(map, available);
  if (scenario !== undefined) columns.delete('scenario');
  return columns;
}

async function readBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`);
  }
}

/** Line numbers of byte offsets, asked in increasing order: 1 + the line breaks before the offset. */
function lineCounter(bytes: Buffer): (offset: number) => number {
  let position = 0;
  let line = 1;
  return (offset) => {
    for (; position < offset; position++) if (bytes[position] === 0x0a) line++;
    return line;
  };
}

/** The offset where the record after `offset` starts: past the blank lines before it. */
function recordStart(bytes: Buffer, offset: number): number {
  while (offset < bytes.length && (bytes[offset] === 0x0a || bytes[offset] === 0x0d)) offset++;
  return offset;
}

type CsvRow = { record: string[]; info: { bytes: number } };

function parseCsv(file: string, bytes: Buffer, lineAt: (offset: number) => number): CsvRow[] {
  let parsed = 0; // where the last good record ends: a bad one starts after it
  try {
    return parse(bytes, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      on_record: (record, { bytes: end }) => {
        parsed = end;
        return record;
      },
    }) as unknown as CsvRow[];
  } catch (error) {
    const message = (error as Error).message.replace(/\s+(?:at|on) line \d+/, '');
    throw new InputError(file, lineAt(recordStart(bytes, parsed)), `not valid CSV: ${message}`);
  }
}

/** Records from a CSV file with a header row. */
export async function importCsv(file: string, options: ImportOptions = {}): Promise<EvalRecord[]> {
  const map = mapOf(options);
  const bytes = await readBytes(file);
  const lineAt = lineCounter(bytes);
  const [header, ...rows] = parseCsv(file, bytes, lineAt);
  if (!header) throw new InputError(file, undefined, 'no rows: the file is empty (expected a header row of column names)');
  const index = new Map<string, number>();
  header.record.forEach((name, position) => index.set(name, index.get(name) ?? position));
  const unknown = Object.entries(map).filter(([, column]) => !index.has(column));
  if (unknown.length > 0) {
    const pairs = unknown.map(([field, column]) => `${field}=${column}`).join(', ');
    throw new InputError(file, 1, `--map ${pairs}: no such column; the columns: ${header.record.join(', ')}`);
  }
  const columns = columnsWithScenario(map, index.keys(), options.scenario);
  const table = new TableRecords(file);
  let start = header.info.bytes;
  for (const { record: cells, info } of rows) {
    const line = lineAt(recordStart(bytes, start));
    start = info.bytes;
    const row = rowRecord(columns, (column) => cells[index.get(column)!], options.scenario, 'column', options.factors);
    if (row.problem !== undefined) throw new InputError(file, line, row.problem);
    table.add(row.record, line);
  }
  return table.done();
}

/** A field of a JSON object: its own key, else a dotted path into nested objects ("scores.exact"). */
function fieldOf(object: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(object, name)) return object[name];
  let value: unknown = object;
  for (const part of name.split('.')) {
    if (!value || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Records from a JSON Lines file of objects. */
export async function importJsonl(file: string, options: ImportOptions = {}): Promise<EvalRecord[]> {
  const map = mapOf(options);
  const table = new TableRecords(file);
  const found = new Set<string>();
  await forEachJsonLine(
    file,
    (object, line) => {
      if (!object || typeof object !== 'object' || Array.isArray(object)) throw new InputError(file, line, 'expected a JSON object');
      const cell = (column: string) => fieldOf(object as Record<string, unknown>, column);
      for (const column of Object.values(map)) if (cell(column) !== undefined) found.add(column);
      const row = rowRecord(
        columnsWithScenario(map, Object.keys(object), options.scenario),
        cell,
        options.scenario,
        'field',
        options.factors,
      );
      if (row.problem !== undefined) throw new InputError(file, line, row.problem);
      table.add(row.record, line);
    },
    { kind: 'a JSON Lines table', parse: parsePythonJson },
  );
  const unknown = Object.entries(map).filter(([, column]) => !found.has(column));
  if (unknown.length > 0) {
    throw new InputError(
      file,
      undefined,
      `--map ${unknown.map(([field, column]) => `${field}=${column}`).join(', ')}: no line has this field`,
    );
  }
  return table.done();
}

/** A CSV table of per-example results (-> records). */
export const csvImporter = recordsImporter('csv', importCsv);

/** A JSON Lines file of per-example results (-> records). */
export const jsonlImporter = recordsImporter('jsonl', importJsonl);
