import { z } from 'zod';
import { dictionary } from './dictionary.js';

// Apart from dictionary.ts, which the metric engine (and its thread) loads without zod.

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A zod schema of an object of name -> value that keeps every name (zod's own record drops
 * `__proto__`), read into a prototype-free object; `key` checks the names. Problems name the path as
 * z.record's do.
 */
export function dictionarySchema<T extends z.ZodType>(value: T, key: z.ZodType<string> = z.string()) {
  return z
    .preprocess(
      (input) => (isObject(input) ? new Map(Object.entries(input)) : input),
      z.map(key, value, { error: (issue) => (issue.code === 'invalid_type' ? 'expected an object of name -> value' : undefined) }),
    )
    .transform((map) => dictionary(map));
}
