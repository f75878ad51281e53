/*
 * An Inspect score value as a number, the way Inspect's own `value_to_float` reads it for its accuracy
 * and mean metrics: numbers and booleans as they are; "C" 1, "P" 0.5, "I" and "N" 0; "yes"/"true" 1 and
 * "no"/"false" 0 in any case; a string that Python's float() reads as a finite number, that number;
 * anything else 0 (Inspect logs a warning; so does the import). NaN (read as null) is Inspect's mark of
 * an unscored sample, which its metrics leave out.
 */

export type ScoreReading = { kind: 'number'; value: number } | { kind: 'unscored' } | { kind: 'unreadable'; value: number };

const LETTERS = new Map([
  ['C', 1],
  ['P', 0.5],
  ['I', 0],
  ['N', 0],
]);
const WORDS = new Map([
  ['yes', 1],
  ['true', 1],
  ['no', 0],
  ['false', 0],
]);

/** Python's float() syntax: digits with single underscores between them, a point, an exponent. */
const PYTHON_FLOAT = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;

export function readScore(value: unknown): ScoreReading {
  if (value === null || value === undefined) return { kind: 'unscored' };
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'boolean') return { kind: 'number', value: value ? 1 : 0 };
  if (typeof value === 'string') {
    const known = LETTERS.get(value) ?? WORDS.get(value.toLowerCase());
    if (known !== undefined) return { kind: 'number', value: known };
    const text = value.trim();
    if (PYTHON_FLOAT.test(text)) {
      const number = Number(text.replaceAll('_', ''));
      if (Number.isFinite(number)) return { kind: 'number', value: number };
    }
  }
  return { kind: 'unreadable', value: 0 };
}

/**
 * A sample's scores by name: a scorer's value, or for a scorer whose value is a dictionary (several
 * values, which Inspect's metrics take one key at a time) one score per key, named "<scorer>/<key>".
 */
export function scoresOf(scores: Record<string, { value?: unknown } | null> | null | undefined): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [scorer, score] of Object.entries(scores ?? {})) {
    const value = score?.value;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value)) flat.set(`${scorer}/${key}`, item);
    } else {
      flat.set(scorer, value);
    }
  }
  return flat;
}
