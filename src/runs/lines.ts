import { createReadStream } from 'node:fs';
import { InputError } from '../errors.js';
import { describeBytes } from '../limits.js';
import { LineSplitter, LineTooLongError, READ_CHUNK_BYTES } from '../lines.js';
import type { EvalRecord } from '../records/types.js';
import { recordProblem } from '../records/validate.js';

/*
 * The records at a few lines of a records file, read again after the column store was built from it:
 * the store keeps no texts (inputs, predictions, references), so that a file of a million records fits
 * in memory, and a report that shows some examples' texts reads just those lines. The lines are read as
 * every JSON Lines input is (src/lines.ts), but only those asked for are decoded and parsed, so the
 * pass's memory is the texts shown, and it stops after the last of them.
 */

function parseRecord(text: string, line: number, file: string): EvalRecord {
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
  const splitter = new LineSplitter({ wanted: (line) => wanted.has(line) });
  const keep = (text: string, line: number) => found.set(line, parseRecord(text, line, file));
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }) as AsyncIterable<Buffer>) {
      splitter.push(chunk, keep);
      if (splitter.nextLine > last) return found;
    }
    splitter.end(keep);
  } catch (error) {
    if (error instanceof InputError) throw error;
    // The first read held every line to the bound; a longer one now means the file changed.
    if (error instanceof LineTooLongError) {
      throw new InputError(
        file,
        error.line,
        `changed while evalgate read it (a line longer than ${describeBytes(error.maxBytes)}): run evalgate again`,
      );
    }
    throw new InputError(file, undefined, `cannot be read again: ${(error as Error).message}`);
  }
  if (found.size < wanted.size) {
    throw new InputError(file, undefined, 'changed while evalgate read it (it has fewer lines now): run evalgate again');
  }
  return found;
}
