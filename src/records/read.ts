import { createReadStream } from 'node:fs';
import { InputError } from '../errors.js';
import { MAX_NESTING_DEPTH } from '../limits.js';
import { LineSplitter, LineTooLongError, READ_CHUNK_BYTES } from '../lines.js';
import type { EvalRecord } from './types.js';
import { recordProblem } from './validate.js';

/** Whether arrays and objects in `value` nest more than `levels` deep (the value itself counts as one). */
function nestedDeeperThan(value: unknown, levels: number): boolean {
  return typeof value === 'object' && value !== null && containerDeeperThan(value, levels);
}

/** nestedDeeperThan for an array or object; children that are not are skipped without a call (it runs on every record). */
function containerDeeperThan(container: object, levels: number): boolean {
  if (levels === 0) return true;
  if (Array.isArray(container)) {
    for (let index = 0; index < container.length; index++) {
      const child: unknown = container[index];
      if (typeof child === 'object' && child !== null && containerDeeperThan(child, levels - 1)) return true;
    }
    return false;
  }
  for (const key in container) {
    const child: unknown = (container as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && containerDeeperThan(child, levels - 1)) return true;
  }
  return false;
}

/** What is wrong with a parsed JSON value that nests too deep, or undefined. */
export function nestingProblem(value: unknown): string | undefined {
  return nestedDeeperThan(value, MAX_NESTING_DEPTH) ? `arrays and objects nest more than ${MAX_NESTING_DEPTH} levels deep` : undefined;
}

/** The JSON value of one line, or an InputError at the line. */
function parseLine(text: string, file: string, line: number, parse: (text: string) => unknown): unknown {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const tooDeep = error instanceof RangeError; // a parser that recursed too deep: the stack overflowed
    throw new InputError(file, line, tooDeep ? `nested too deeply to be read` : `not valid JSON: ${(error as Error).message}`);
  }
  // Each level takes two characters at least: a short line cannot nest too deep (and skips the walk).
  const problem = text.length > 2 * MAX_NESTING_DEPTH ? nestingProblem(value) : undefined;
  if (problem !== undefined) throw new InputError(file, line, problem);
  return value;
}

export interface JsonLinesOptions {
  /** The file's name in messages (default: the path). */
  displayName?: string;
  /** What the file should be, for messages: "a records file". */
  kind?: string;
  /** The message for a file that does not exist (default "no such file"). */
  whenMissing?: string;
  /** The JSON parser (default JSON.parse). */
  parse?: (text: string) => unknown;
}

/**
 * Calls `onValue` with the parsed value of every line of a JSON Lines file, in order, skipping blank
 * lines (lines as src/lines.ts reads them: "\n" or "\r\n", a byte order mark dropped). A line that is
 * not JSON, too long or nested too deeply, and a file that cannot be read, throw an InputError naming
 * the file (and the line); so does any InputError `onValue` throws.
 */
export async function forEachJsonLine(
  path: string,
  onValue: (value: unknown, line: number) => void,
  { displayName = path, kind = 'a JSON Lines file', whenMissing = 'no such file', parse = JSON.parse }: JsonLinesOptions = {},
): Promise<void> {
  const onLine = (text: string, line: number) => {
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim().length === 0)) return; // blank lines
    onValue(parseLine(text, displayName, line, parse), line);
  };
  const splitter = new LineSplitter();
  try {
    const chunks = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES }) as AsyncIterable<Buffer>;
    for await (const chunk of chunks) splitter.push(chunk, onLine);
    splitter.end(onLine);
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof LineTooLongError) throw new InputError(displayName, error.line, error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(displayName, undefined, whenMissing);
    if (code === 'EISDIR') throw new InputError(displayName, undefined, `is a directory, expected ${kind} (JSON Lines)`);
    throw new InputError(displayName, undefined, `cannot be read: ${(error as Error).message}`);
  }
}

/**
 * Reads a records file (JSON Lines), validating every line. Calls `onRecord` for each record in file
 * order. Any bad line throws an InputError naming the file, line and field: never a partial result.
 * Blank lines are skipped; a file without a single record is an error, unless `allowEmpty`.
 */
export async function forEachRecord(
  path: string,
  onRecord: (record: EvalRecord, line: number) => void,
  displayName: string = path,
  { allowEmpty = false }: { allowEmpty?: boolean } = {},
): Promise<number> {
  let count = 0;
  const onValue = (value: unknown, line: number) => {
    const problem = recordProblem(value);
    if (problem !== undefined) throw new InputError(displayName, line, problem);
    onRecord(value as EvalRecord, line);
    count++;
  };
  await forEachJsonLine(path, onValue, { displayName, kind: 'a records file' });
  if (count === 0 && !allowEmpty) {
    throw new InputError(displayName, undefined, 'no records: the file is empty (expected one JSON record per line)');
  }
  return count;
}

/** Reads a whole records file into memory (for tests and small files). */
export async function readRecords(path: string): Promise<EvalRecord[]> {
  const records: EvalRecord[] = [];
  await forEachRecord(path, (record) => records.push(record));
  return records;
}
