import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { nestingProblem } from '../records/read.js';

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
