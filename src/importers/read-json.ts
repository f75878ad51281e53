import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';

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
  try {
    return parse(text) as T;
  } catch (error) {
    throw new InputError(file, undefined, `not valid JSON: ${(error as Error).message}`);
  }
}
