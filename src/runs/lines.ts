import { createReadStream } from 'node:fs';
import { InputError } from '../errors.js';
import { describeBytes, MAX_LINE_BYTES } from '../limits.js';
import { withoutBom } from '../records/read.js';
import type { EvalRecord } from '../records/types.js';
import { recordProblem } from '../records/validate.js';

/*
 * The records at a few lines of a records file, read again after the column store was built from it:
 * the store keeps no texts (inputs, predictions, references), so that a file of a million records fits
 * in memory, and a report that shows some examples' texts reads just those lines. The pass looks for
 * line ends in the raw bytes and decodes and parses only the lines asked for, so its memory is the
 * texts shown, and it stops after the last of them.
 */

const NEWLINE = 10;

function parseLine(bytes: Buffer, line: number, file: string): EvalRecord {
  let text = bytes.toString('utf8');
  if (line === 1) text = withoutBom(text);
  if (text.endsWith('\r')) text = text.slice(0, -1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const problem = value === undefined ? 'not valid JSON' : recordProblem(value);
  if (problem !== undefined) throw new InputError(file, line, `changed while evalgate read it (${problem}): run evalgate again`);
  return value as EvalRecord;
}

/** The records at `lines` (1-based) of a records file that was read before. */
export async function recordsAtLines(file: string, lines: Iterable<number>): Promise<Map<number, EvalRecord>> {
  const wanted = new Set(lines);
  const found = new Map<number, EvalRecord>();
  if (wanted.size === 0) return found;
  let last = 0; // not Math.max(...wanted): 100,000s of lines would overflow the stack
  for (const wantedLine of wanted) last = Math.max(last, wantedLine);
  let line = 1;
  let pieces: Buffer[] = []; // of a wanted line that runs over the end of a chunk
  let piecesBytes = 0;
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      for (let start = 0; start < chunk.length;) {
        const end = chunk.indexOf(NEWLINE, start);
        if (wanted.has(line)) {
          pieces.push(chunk.subarray(start, end < 0 ? chunk.length : end));
          piecesBytes += pieces.at(-1)!.length;
          // The first read held every line to the bound; a longer one now means the file changed.
          if (piecesBytes > MAX_LINE_BYTES) {
            throw new InputError(
              file,
              line,
              `changed while evalgate read it (a line longer than ${describeBytes(MAX_LINE_BYTES)}): run evalgate again`,
            );
          }
        }
        if (end < 0) break;
        if (pieces.length > 0) found.set(line, parseLine(Buffer.concat(pieces), line, file));
        pieces = [];
        piecesBytes = 0;
        if (++line > last) return found;
        start = end + 1;
      }
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(file, undefined, `cannot be read again: ${(error as Error).message}`);
  }
  if (pieces.length > 0) found.set(line, parseLine(Buffer.concat(pieces), line, file));
  if (found.size < wanted.size) {
    throw new InputError(file, undefined, 'changed while evalgate read it (it has fewer lines now): run evalgate again');
  }
  return found;
}
