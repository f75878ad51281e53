import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../errors.js';
import type { EvalRecord } from './types.js';
import { recordProblem } from './validate.js';

/**
 * Streams the lines of a file in batches, with their 1-based line numbers. Batches (one per chunk read)
 * keep the per-line cost low on files of millions of lines. Accepts "\n" and "\r\n", strips a BOM.
 */
/** The text without a leading byte order mark (editors on Windows write one). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function* readLineBatches(path: string): AsyncGenerator<{ firstLine: number; lines: string[] }> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let nextLine = 1;
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  for await (const chunk of stream) {
    const text = pending + decoder.write(chunk as Buffer);
    const lines = text.split('\n');
    pending = lines.pop() ?? '';
    if (nextLine === 1 && lines.length > 0) lines[0] = withoutBom(lines[0]);
    yield { firstLine: nextLine, lines };
    nextLine += lines.length;
  }
  const rest = pending + decoder.end();
  if (rest.length > 0) yield { firstLine: nextLine, lines: [nextLine === 1 ? withoutBom(rest) : rest] };
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
  try {
    for await (const { firstLine, lines } of readLineBatches(path)) {
      for (let index = 0; index < lines.length; index++) {
        let text = lines[index];
        if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1); // "\r\n" line ends
        if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim().length === 0)) continue; // blank lines
        const line = firstLine + index;
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          throw new InputError(displayName, line, `not valid JSON: ${(error as Error).message}`);
        }
        const problem = recordProblem(value);
        if (problem !== undefined) throw new InputError(displayName, line, problem);
        onRecord(value as EvalRecord, line);
        count++;
      }
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(displayName, undefined, 'no such file');
    if (code === 'EISDIR') throw new InputError(displayName, undefined, 'is a directory, expected a records file (JSON Lines)');
    throw new InputError(displayName, undefined, `cannot be read: ${(error as Error).message}`);
  }
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
