import { RE2JS } from 're2js';

/**
 * Scorers: how a completion is judged against the references. Each returns `correct` in [0, 1];
 * several references mean "any of them" (the best score). Text normalization follows HELM's
 * (lower case, no punctuation, no articles, single spaces).
 */

export type ScorerName = 'exact_match' | 'quasi_exact_match' | 'f1' | 'multiple_choice' | 'contains' | 'regex' | 'numeric' | 'judge';

export const SCORERS: readonly ScorerName[] = [
  'exact_match',
  'quasi_exact_match',
  'f1',
  'multiple_choice',
  'contains',
  'regex',
  'numeric',
  'judge',
];

/** The scorers that grade a completion with a model (runner/judge.ts), not with a function of its text. */
export const isModelGraded = (name: ScorerName): name is 'judge' => name === 'judge';

export interface ScorerOptions {
  /**
   * regex: the pattern applied to the completion; its first group (or the whole match) is compared. RE2
   * syntax (compileRegexScorer): a pattern comes from a suite, a completion from a model, and neither
   * may make the match take longer than linear time.
   */
  pattern?: string;
  /** numeric: the largest absolute difference that still counts as right. */
  tolerance?: number;
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Python's \b on str is Unicode-aware; JavaScript's is ASCII-only, so "año" would lose its "a".
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;

/** HELM's normalize_text. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(PUNCTUATION, '').replace(ARTICLES, ' ').split(/\s+/).filter(Boolean).join(' ');
}

/**
 * HELM's f1_score: nltk's f_measure on the SETS of normalized tokens (a repeated token counts once),
 * and 0 when either side has no token.
 */
export function tokenF1(prediction: string, reference: string): number {
  const predicted = new Set(normalizeText(prediction).split(' ').filter(Boolean));
  const expected = new Set(normalizeText(reference).split(' ').filter(Boolean));
  const same = [...predicted].filter((token) => expected.has(token)).length;
  // The harmonic mean of precision same/|predicted| and recall same/|expected|.
  return same === 0 ? 0 : (2 * same) / (predicted.size + expected.size);
}

/** The last number written in a text ("1,234.5" -> 1234.5), if any. */
export function lastNumber(text: string): number | undefined {
  const numbers = text.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/-?\d+(?:\.\d+)?/g);
  return numbers ? Number(numbers[numbers.length - 1]) : undefined;
}

/**
 * The index of the choice a text names: a choice's exact text, else its normalized text, else a letter
 * ("B", "(B)", "B.", "B) ...") within the choices. Texts come first so that a choice such as "A cat"
 * or "I am not sure" is not read as a letter; a letter needs punctuation or nothing after it.
 */
function choiceIndex(text: string, choices: string[]): number | undefined {
  const exact = choices.findIndex((choice) => choice.trim() === text.trim());
  if (exact >= 0) return exact;
  const normalized = normalizeText(text);
  const similar = normalized === '' ? -1 : choices.findIndex((choice) => normalizeText(choice) === normalized);
  if (similar >= 0) return similar;
  const letter = /^\(?([A-Z])(?:[).:]+(?:\s|$)|$)/.exec(text.trim())?.[1];
  if (letter === undefined) return undefined;
  const index = letter.charCodeAt(0) - 65;
  return index < choices.length ? index : undefined;
}

/** A scorer with its options applied: compiled once for a scenario, then called for each completion. */
export type Scorer = (prediction: string, references: string[], choices?: string[]) => number;

/**
 * A regex scorer's pattern, compiled by RE2JS (RE2's engine: matching in time linear in the completion,
 * whatever the pattern; JavaScript's backtracking RegExp takes minutes on `^(a+)+$` and a 33-character
 * completion, deaf to time-outs and signals). `.` matches newlines too. Throws on a pattern RE2 does not
 * support (lookaround, backreferences): the suite's validation reports it.
 */
export function compileRegexScorer(pattern: string): (prediction: string) => string | undefined {
  const compiled = RE2JS.compile(pattern, RE2JS.DOTALL);
  const hasGroup = compiled.groupCount() > 0;
  return (prediction) => {
    const matcher = compiled.matcher(prediction);
    if (!matcher.find()) return undefined;
    return (hasGroup ? matcher.group(1) : null) ?? matcher.group(0) ?? '';
  };
}

/** The scorer `name` with `options`; the judge scorer has none (it asks a model: runner/judge.ts). */
export function scorerFor(name: Exclude<ScorerName, 'judge'>, options: ScorerOptions = {}): Scorer {
  const best = (references: string[], judge: (reference: string) => number) =>
    references.reduce((max, reference) => Math.max(max, judge(reference)), 0);
  switch (name) {
    case 'exact_match':
      return (prediction, references) => best(references, (reference) => (prediction.trim() === reference.trim() ? 1 : 0));
    case 'quasi_exact_match':
      return (prediction, references) => best(references, (reference) => (normalizeText(prediction) === normalizeText(reference) ? 1 : 0));
    case 'f1':
      return (prediction, references) => best(references, (reference) => tokenF1(prediction, reference));
    case 'contains':
      return (prediction, references) =>
        best(references, (reference) => (` ${normalizeText(prediction)} `.includes(` ${normalizeText(reference)} `) ? 1 : 0));
    case 'multiple_choice':
      return (prediction, references, choices = []) => {
        const answer = choiceIndex(prediction, choices);
        return answer === undefined ? 0 : best(references, (reference) => (choiceIndex(reference, choices) === answer ? 1 : 0));
      };
    case 'regex': {
      const extract = compileRegexScorer(options.pattern ?? '.*');
      return (prediction, references) => {
        const extracted = extract(prediction);
        return extracted === undefined
          ? 0
          : best(references, (reference) => (normalizeText(extracted) === normalizeText(reference) ? 1 : 0));
      };
    }
    case 'numeric':
      return (prediction, references) => {
        const value = lastNumber(prediction);
        if (value === undefined) return 0;
        return best(references, (reference) => {
          const expected = lastNumber(reference);
          return expected !== undefined && Math.abs(value - expected) <= (options.tolerance ?? 0) ? 1 : 0;
        });
      };
  }
}

/** One completion scored (the scorer compiled for it alone: a run compiles each scenario's once, with scorerFor). */
export function score(
  name: Exclude<ScorerName, 'judge'>,
  prediction: string,
  references: string[],
  choices: string[] = [],
  options: ScorerOptions = {},
): number {
  return scorerFor(name, options)(prediction, references, choices);
}
