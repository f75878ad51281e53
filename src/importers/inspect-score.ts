import type { InspectHeader } from './inspect-log.js';
import { importedJudge, shortHash } from './judge-identity.js';

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

/** Inspect's model-graded scorers: a model grades the answer (the model under test, unless a judge is named). */
const MODEL_GRADED = new Set(['model_graded_qa', 'model_graded_fact']);

const modelsOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(',') : undefined;

/**
 * The judge's identity of a score (a records' `provenance.scorer`), where the log says a model graded it:
 * a model-graded scorer (model_graded_qa, model_graded_fact) or a scorer whose options name a `model`.
 * The judge is that model, else the log's "grader" role, else (Inspect's default) the model under test;
 * the scorer's other options (its template, instructions, grade pattern) as a hash. Undefined for a
 * scorer that is a function of the text (match, choice, includes).
 */
export function judgeOfScore(header: InspectHeader, name: string): string | undefined {
  const scorerName = name.split('/')[0];
  const result = header.results?.scores?.find((score) => score.name === name || score.name === scorerName);
  const started = header.eval?.scorers?.find((scorer) => scorer.name === name || scorer.name === scorerName);
  const scorer = result?.scorer ?? started?.name ?? scorerName;
  const params = result?.params ?? started?.options ?? {};
  const named = modelsOf(params.model);
  if (!MODEL_GRADED.has(scorer.replace(/^.*\//, '')) && named === undefined) return undefined;
  const grader = header.eval?.model_roles?.grader?.model;
  const { model: _model, ...options } = params;
  return importedJudge('inspect', [
    ['scorer', scorer],
    ['model', named ?? grader ?? header.eval?.model],
    ['graded_by', named === undefined && grader === undefined ? 'the_model_under_test' : undefined],
    ['params', shortHash(options)],
  ]);
}
