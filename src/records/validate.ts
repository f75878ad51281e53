import { MAX_JUDGE_SAMPLES, MAX_NAME_LENGTH } from '../limits.js';
import type { Provenance } from './provenance.js';
import {
  JUDGE_VERDICTS,
  PAIRWISE_OUTCOMES,
  PAIRWISE_VERDICTS,
  PERTURBATION_KINDS,
  type JudgePairwise,
  type JudgeVerdict,
  type PairwiseOrderVerdict,
  type PerturbationKind,
} from './types.js';

/*
 * Checks one parsed line against the record contract. Hand-written rather than a zod schema because
 * it runs once per record on files of millions of lines, and its messages name the exact field.
 * Returns the problem as text ("\"confidence\" must be ...") or undefined when the record is valid.
 * JSON `null` in an optional field means the field is absent.
 */

function show(value: unknown): string {
  // JSON writes a number too large for a double (1e999, read as Infinity) as null.
  const text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

type Fields = Record<string, unknown>;

/** Absent, or JSON null (which means absent). */
const absent = (value: unknown) => value === undefined || value === null;

/** The problem of a name or id longer than reports show (src/limits.ts). */
function tooLong(field: string, text: string): string {
  return `${field} must be at most ${MAX_NAME_LENGTH} characters, got ${text.length}`;
}

function identityProblem(record: Fields): string | undefined {
  for (const field of ['scenario', 'id'] as const) {
    const text = record[field];
    if (typeof text !== 'string' || text.length === 0) {
      return `"${field}" is required and must be a non-empty string, got ${show(text)}`;
    }
    if (text.length > MAX_NAME_LENGTH) return tooLong(`"${field}"`, text);
  }
  const sample = record.sample;
  if (!absent(sample) && !(Number.isSafeInteger(sample) && (sample as number) >= 0)) {
    return `"sample" must be an integer >= 0 (which repeated generation of the example, 0-based), got ${show(sample)}`;
  }
  const perturbation = record.perturbation;
  if (absent(perturbation)) return undefined;
  if (typeof perturbation !== 'object' || Array.isArray(perturbation)) {
    return `"perturbation" must be an object {"name", "kind"}, got ${show(perturbation)}`;
  }
  const { name, kind } = perturbation as Fields;
  if (typeof name !== 'string' || name.length === 0) {
    return `"perturbation.name" must be a non-empty string, got ${show(name)}`;
  }
  if (name.length > MAX_NAME_LENGTH) return tooLong('"perturbation.name"', name);
  if (!PERTURBATION_KINDS.includes(kind as PerturbationKind)) {
    return `"perturbation.kind" must be "robustness" or "fairness", got ${show(kind)}`;
  }
  return undefined;
}

/** A record is scored (`correct`), a failed call (`error`), or a completion its judge could not grade (`judge_error`, an unknown verdict). */
function outcomeProblem(record: Fields): string | undefined {
  const { error, correct, judge, judge_error: judgeError } = record;
  const failed = !absent(error);
  if (failed && typeof error !== 'string') return `"error" must be a string, got ${show(error)}`;
  if (failed) {
    if (!absent(judge) || !absent(judgeError)) {
      return `"judge" and "judge_error" must be absent when "error" is set (a failed call has nothing to judge)`;
    }
    if (!absent(record.judge_pairwise)) return `"judge_pairwise" must be absent when "error" is set (a failed call has nothing to compare)`;
    return absent(correct) ? undefined : `"correct" must be absent when "error" is set (a failed call has no score), got ${show(correct)}`;
  }
  const problem = judgeProblem(judge, judgeError);
  if (problem !== undefined) return problem;
  const ungraded = !absent(judgeError) || (judge as Fields | undefined | null)?.verdict === 'unknown';
  if (ungraded) {
    return absent(correct)
      ? undefined
      : `"correct" must be absent when the judge gave no verdict ("judge_error", or "judge.verdict" "unknown"), got ${show(correct)}`;
  }
  if (absent(correct)) return `"correct" is required (a number in [0, 1]) unless "error" is set`;
  if (!isNumber(correct) || correct < 0 || correct > 1) return `"correct" must be a number in [0, 1], got ${show(correct)}`;
  return undefined;
}

/** What is wrong with a record's `judge` and `judge_error` (both absent is fine), or undefined. */
function judgeProblem(judge: unknown, judgeError: unknown): string | undefined {
  if (!absent(judgeError)) {
    if (typeof judgeError !== 'string') return `"judge_error" must be a string, got ${show(judgeError)}`;
    return absent(judge) ? undefined : `"judge" must be absent when "judge_error" is set (the judge's call failed)`;
  }
  if (absent(judge)) return undefined;
  if (typeof judge !== 'object' || Array.isArray(judge)) {
    return `"judge" must be an object {"verdict", "score", "reason"}, got ${show(judge)}`;
  }
  const fields = judge as Fields;
  return verdictProblem('judge', fields) ?? usageProblem('judge', fields) ?? samplesProblem(fields.samples);
}

/** A verdict's problem: `verdict` one of JUDGE_VERDICTS, `score` in [0, 1], the texts strings (`at` names the field). */
function verdictProblem(at: string, fields: Fields): string | undefined {
  const { verdict, score } = fields;
  if (!JUDGE_VERDICTS.includes(verdict as JudgeVerdict['verdict'])) {
    return `"${at}.verdict" must be "pass", "fail" or "unknown", got ${show(verdict)}`;
  }
  return textsOfVerdictProblem(at, fields) ?? numberProblem(`${at}.score`, score, true);
}

/** The problem of a verdict's texts (reason, raw, problem, error): strings where present. */
function textsOfVerdictProblem(at: string, { reason, raw, problem, error }: Fields): string | undefined {
  for (const [field, text] of [
    ['reason', reason],
    ['raw', raw],
    ['problem', problem],
    ['error', error],
  ] as const) {
    if (!absent(text) && typeof text !== 'string') return `"${at}.${field}" must be a string, got ${show(text)}`;
  }
  return undefined;
}

/** A judge's tokens and cost: non-negative numbers where present. */
function usageProblem(at: string, fields: Fields): string | undefined {
  return (
    numberProblem(`${at}.input_tokens`, fields.input_tokens, false) ??
    numberProblem(`${at}.output_tokens`, fields.output_tokens, false) ??
    numberProblem(`${at}.cost_usd`, fields.cost_usd, false)
  );
}

/** `judge.samples`: absent, or a list of up to MAX_JUDGE_SAMPLES verdicts (judge_samples K > 1). */
function samplesProblem(samples: unknown): string | undefined {
  if (absent(samples)) return undefined;
  if (!Array.isArray(samples) || samples.length === 0 || samples.length > MAX_JUDGE_SAMPLES) {
    return `"judge.samples" must be a list of 1 to ${MAX_JUDGE_SAMPLES} verdicts, got ${show(samples)}`;
  }
  for (let index = 0; index < samples.length; index++) {
    const sample: unknown = samples[index];
    const at = `judge.samples[${index}]`;
    if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) {
      return `"${at}" must be an object {"verdict", ...}, got ${show(sample)}`;
    }
    const problem = verdictProblem(at, sample as Fields);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** What is wrong with a record's `judge_pairwise` (absent is fine), or undefined. */
function pairwiseProblem(pairwise: unknown): string | undefined {
  if (absent(pairwise)) return undefined;
  if (typeof pairwise !== 'object' || Array.isArray(pairwise)) {
    return `"judge_pairwise" must be an object {"outcome", "candidate_first", "baseline_first", ...}, got ${show(pairwise)}`;
  }
  const fields = pairwise as Fields;
  const { outcome, flipped, longer, fingerprint } = fields;
  if (!PAIRWISE_OUTCOMES.includes(outcome as JudgePairwise['outcome'])) {
    return `"judge_pairwise.outcome" must be "win", "loss", "tie" or "unknown", got ${show(outcome)}`;
  }
  if (!absent(flipped) && typeof flipped !== 'boolean') return `"judge_pairwise.flipped" must be true or false, got ${show(flipped)}`;
  // A verdict that moved with the order is a tie, and an unknown comparison has no flip to count.
  if (flipped === true && outcome !== 'tie') return `"judge_pairwise.outcome" must be "tie" when "flipped" is true, got ${show(outcome)}`;
  if (!absent(flipped) && outcome === 'unknown') return `"judge_pairwise.flipped" must be absent when "outcome" is "unknown"`;
  if (!absent(longer) && longer !== 'candidate' && longer !== 'baseline' && longer !== 'same') {
    return `"judge_pairwise.longer" must be "candidate", "baseline" or "same", got ${show(longer)}`;
  }
  if (!absent(fingerprint) && (typeof fingerprint !== 'string' || fingerprint.length > MAX_FINGERPRINT_LENGTH)) {
    return `"judge_pairwise.fingerprint" must be a string of at most ${MAX_FINGERPRINT_LENGTH} characters, got ${show(fingerprint)}`;
  }
  return (
    orderProblem('candidate_first', fields.candidate_first) ??
    orderProblem('baseline_first', fields.baseline_first) ??
    usageProblem('judge_pairwise', fields)
  );
}

/** One order's pairwise verdict: required, `verdict` "A", "B", "tie" or "unknown", its texts strings. */
function orderProblem(order: string, value: unknown): string | undefined {
  const at = `judge_pairwise.${order}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `"${at}" must be an object {"verdict", ...}, got ${show(value)}`;
  }
  const verdict = (value as Fields).verdict;
  if (!PAIRWISE_VERDICTS.includes(verdict as PairwiseOrderVerdict['verdict'])) {
    return `"${at}.verdict" must be "A", "B", "tie" or "unknown", got ${show(verdict)}`;
  }
  return textsOfVerdictProblem(at, value as Fields);
}

/**
 * A number field's problem: `unit` ones must lie in [0, 1], the others be non-negative. Called once per
 * field by name: reading fields by a variable name in a loop is several times slower on millions of records.
 */
function numberProblem(field: string, number: unknown, unit: boolean): string | undefined {
  if (absent(number)) return undefined;
  if (unit) {
    return isNumber(number) && number >= 0 && number <= 1 ? undefined : `"${field}" must be a number in [0, 1], got ${show(number)}`;
  }
  return isNumber(number) && number >= 0 ? undefined : `"${field}" must be a non-negative number, got ${show(number)}`;
}

function numbersProblem(record: Fields): string | undefined {
  return (
    numberProblem('confidence', record.confidence, true) ??
    numberProblem('toxicity', record.toxicity, true) ??
    numberProblem('latency_ms', record.latency_ms, false) ??
    numberProblem('input_tokens', record.input_tokens, false) ??
    numberProblem('output_tokens', record.output_tokens, false) ??
    numberProblem('cost_usd', record.cost_usd, false) ??
    numberProblem('human', record.human, true)
  );
}

function groupsProblem(groups: unknown): string | undefined {
  if (absent(groups)) return undefined;
  if (typeof groups !== 'object' || Array.isArray(groups)) {
    return `"groups" must be an object of attribute -> value, got ${show(groups)}`;
  }
  for (const attribute in groups as Fields) {
    if (attribute.length > MAX_NAME_LENGTH) return tooLong('a "groups" attribute', attribute);
    const groupValue = (groups as Fields)[attribute];
    if (typeof groupValue !== 'string' && !isNumber(groupValue) && typeof groupValue !== 'boolean') {
      return `"groups.${attribute}" must be a string, number or boolean, got ${show(groupValue)}`;
    }
    // A number's or a boolean's text is short.
    if (typeof groupValue === 'string' && groupValue.length > MAX_NAME_LENGTH) return tooLong(`"groups.${attribute}"`, groupValue);
  }
  return undefined;
}

function textsProblem({ prediction, references }: Fields): string | undefined {
  if (!absent(prediction) && typeof prediction !== 'string') return `"prediction" must be a string, got ${show(prediction)}`;
  const listOfStrings = Array.isArray(references) && references.every((reference) => typeof reference === 'string');
  if (!absent(references) && typeof references !== 'string' && !listOfStrings) {
    return `"references" must be a string or an array of strings, got ${show(references)}`;
  }
  return undefined;
}

/** The longest `provenance.scorer`: a judge's fingerprint names its model, served model, template, decoding and parser. */
export const MAX_FINGERPRINT_LENGTH = 1000;

/** A SHA-256 in hex, as records/provenance.ts writes it. */
const HASH = /^[0-9a-f]{64}$/;

function hashProblem(field: string, hash: unknown): string | undefined {
  if (hash === undefined || hash === null || (typeof hash === 'string' && HASH.test(hash))) return undefined;
  return `"provenance.${field}" must be a SHA-256 in 64 lowercase hex digits (docs/record-format.md#provenance), got ${show(hash)}`;
}

/** What is wrong with a record's `provenance` (absent or null is fine), or undefined. */
export function provenanceProblem(provenance: unknown): string | undefined {
  if (provenance === undefined || provenance === null) return undefined;
  if (typeof provenance !== 'object' || Array.isArray(provenance)) {
    return `"provenance" must be an object {"input_hash", "references_hash", "scorer", "suite_hash"}, got ${show(provenance)}`;
  }
  // Each field by name: reading fields by a variable name in a loop is several times slower on millions of records.
  const fields = provenance as Provenance;
  const problem =
    hashProblem('input_hash', fields.input_hash) ??
    hashProblem('references_hash', fields.references_hash) ??
    hashProblem('suite_hash', fields.suite_hash);
  if (problem !== undefined) return problem;
  const scorer: unknown = fields.scorer;
  if (
    scorer !== undefined &&
    scorer !== null &&
    (typeof scorer !== 'string' || scorer.length === 0 || scorer.length > MAX_FINGERPRINT_LENGTH)
  ) {
    return `"provenance.scorer" must be a non-empty string of at most ${MAX_FINGERPRINT_LENGTH} characters, got ${show(scorer)}`;
  }
  return undefined;
}

export function recordProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `a record must be a JSON object, got ${show(value)}`;
  }
  const record = value as Fields;
  return (
    identityProblem(record) ??
    outcomeProblem(record) ??
    numbersProblem(record) ??
    groupsProblem(record.groups) ??
    textsProblem(record) ??
    pairwiseProblem(record.judge_pairwise) ??
    provenanceProblem(record.provenance)
  );
}
