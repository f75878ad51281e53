import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { nestingProblem } from '../records/read.js';

/**
 * JSON as Python tools write it (lm-eval, Inspect): Python's json module writes NaN, Infinity and
 * -Infinity, which JSON does not have; read them as null. Plain JSON is parsed as it is; otherwise
 * string literals are skipped, so text inside them stays as it is.
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!/NaN|Infinity/.test(text)) throw error;
  }
  const quoteOrNonFinite = /"|-?(?:NaN|Infinity)/g;
  const parts: string[] = [];
  let copied = 0;
  for (let match = quoteOrNonFinite.exec(text); match; match = quoteOrNonFinite.exec(text)) {
    if (match[0] === '"') {
      quoteOrNonFinite.lastIndex = endOfString(text, quoteOrNonFinite.lastIndex);
    } else {
      parts.push(text.slice(copied, match.index), 'null');
      copied = quoteOrNonFinite.lastIndex;
    }
  }
  parts.push(text.slice(copied));
  return JSON.parse(parts.join(''));
}

/** The index after the closing quote of a string literal whose text starts at `start`. */
function endOfString(text: string, start: number): number {
  for (let quote = text.indexOf('"', start); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    // A quote after an odd number of backslashes is escaped.
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}

/** Another tool's JSON output file, parsed; a missing or broken file is bad input naming the file. */
export async function readJsonFile<T>(
  file: string,
  whenMissing = 'no such file',
  parse: (text: string) => unknown = JSON.parse,
): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(file, undefined, code === 'ENOENT' ? whenMissing : `cannot be read: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new InputError(file, undefined, `not valid JSON: ${(error as Error).message}`);
  }
  // What is read is walked, and kept in records that are written with JSON.stringify: no deeper than records may be.
  const problem = nestingProblem(value);
  if (problem !== undefined) throw new InputError(file, undefined, problem);
  return value as T;
}
