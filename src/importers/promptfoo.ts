import { InputError } from '../errors.js';
import { dictionary, own } from '../records/dictionary.js';
import type { EvalRecord } from '../records/types.js';
import { provenanceOf } from '../records/provenance.js';
import { importedJudge, shortHash } from './judge-identity.js';
import { readJsonFile } from './read-json.js';
import { recordsImporter, type ImportOptions } from './types.js';

/*
 * promptfoo's `promptfoo eval -o results.json` -> records: one per test case and prompt (and per
 * repeat, as its samples), `correct` from its score (else success), latency, token usage and cost as
 * promptfoo measured them, the prompt and the output kept; test variables become `groups` when named. One provider per import
 * (the model being gated): with several in the file, say which. Only a failed call is an `error`
 * record: a failed assertion is a wrong answer, though promptfoo puts its reason in `error` too.
 */

interface PromptfooResult {
  testIdx?: number;
  promptIdx?: number;
  prompt?: { raw?: string; label?: string };
  provider?: { id?: string; label?: string } | string;
  response?: { output?: unknown; error?: string };
  error?: string | null;
  /** promptfoo's ResultFailureReason: 0 none, 1 an assertion failed, 2 an error. */
  failureReason?: number;
  success?: boolean;
  score?: number;
  latencyMs?: number;
  cost?: number;
  tokenUsage?: { prompt?: number; completion?: number };
  testCase?: { vars?: Record<string, unknown>; description?: string; assert?: Assertion[]; options?: GradingOptions };
  vars?: Record<string, unknown>;
}

/** An assertion of a test as promptfoo's output repeats it; a model-graded one may name its grader (`provider`). */
interface Assertion {
  type?: string;
  provider?: unknown;
}

/** A test's (or defaultTest's) grading options: the grader and its prompt. */
interface GradingOptions {
  provider?: unknown;
  rubricPrompt?: unknown;
}

/** promptfoo's model-graded assertions (a `not-` in front inverts one): a model grades the output. */
const MODEL_GRADED = new Set([
  'llm-rubric',
  'model-graded-closedqa',
  'factuality',
  'model-graded-factuality',
  'g-eval',
  'answer-relevance',
  'context-faithfulness',
  'context-recall',
  'context-relevance',
]);

/** A grader as promptfoo's options give it: a provider id, an object with its id, or (a map by modality, a custom one) its hash. */
const graderOf = (provider: unknown): string | undefined =>
  provider === undefined || provider === null
    ? undefined
    : typeof provider === 'string'
      ? provider
      : typeof (provider as { id?: unknown }).id === 'string'
        ? (provider as { id: string }).id
        : `custom:${shortHash(provider)}`;

/**
 * The judge's identity of a result (a records' `provenance.scorer`) when a model graded it: its model-graded
 * assertions, their grader (the assertion's `provider`, else the test's, else defaultTest's, else
 * promptfoo's default, which depends on the environment's keys: "default") and the grading prompt's
 * hash (`rubricPrompt`, else promptfoo's own). Undefined when no assertion is model-graded.
 */
function judgeOfResult(result: PromptfooResult, defaults: GradingOptions): string | undefined {
  const graded = (result.testCase?.assert ?? []).filter((assertion) => MODEL_GRADED.has(String(assertion.type).replace(/^not-/, '')));
  if (graded.length === 0) return undefined;
  const options = result.testCase?.options ?? {};
  const graders = graded.map((assertion) => graderOf(assertion.provider) ?? graderOf(options.provider) ?? graderOf(defaults.provider));
  const rubricPrompt = options.rubricPrompt ?? defaults.rubricPrompt;
  return importedJudge('promptfoo', [
    ['assertions', [...new Set(graded.map((assertion) => String(assertion.type)))].sort().join(',')],
    ['model', [...new Set(graders.map((grader) => grader ?? 'default'))].sort().join(',')],
    ['rubric_prompt', rubricPrompt === undefined ? 'default' : shortHash(rubricPrompt)],
  ]);
}

const providerOf = (result: PromptfooResult) =>
  typeof result.provider === 'string' ? result.provider : (result.provider?.id ?? 'unknown');

const FAILURE_REASON_ERROR = 2;

/** Where a result belongs: its instance id and, for a repeated test, which repeat it is. */
type Placement = (result: PromptfooResult, index: number) => { id: string; sample?: number };

/**
 * promptfoo gives every (test, repeat, variable combination) its own testIdx: the N repeats of a test
 * (`--repeat N`, or the test's options.repeat) are N testIdx with the same test case, and the output
 * has no repeat number. Without repeats a record's id is its testIdx, as it always was. With them, the
 * results of one test case (its variables, assertions and options: identical tests are read as
 * repeats of one) are the samples of one instance: its id is the test case's position among the
 * distinct test cases in testIdx order (the testIdx it has in a run without repeats, so that runs
 * with and without repeats pair), its sample the repeat, 0..N-1 in testIdx order.
 */
function placement(results: PromptfooResult[]): Placement {
  const plain: Placement = (result, index) => ({ id: String(result.testIdx ?? index) });
  // Older outputs without testIdx or testCase cannot tell repeats apart: their ids are as they were.
  if (results.some((result) => typeof result.testIdx !== 'number' || result.testCase === undefined)) return plain;
  const testCaseOf = (result: PromptfooResult) => JSON.stringify(result.testCase);
  const repeatsOf = new Map<string, number[]>(); // test case -> its testIdx, ascending
  for (const result of [...results].sort((a, b) => a.testIdx! - b.testIdx!)) {
    const testIdx = repeatsOf.get(testCaseOf(result)) ?? [];
    if (testIdx.at(-1) !== result.testIdx) testIdx.push(result.testIdx!);
    repeatsOf.set(testCaseOf(result), testIdx);
  }
  if ([...repeatsOf.values()].every((testIdx) => testIdx.length === 1)) return plain;
  const position = new Map([...repeatsOf.keys()].map((testCase, index) => [testCase, index]));
  return (result) => {
    const testCase = testCaseOf(result);
    const repeats = repeatsOf.get(testCase)!;
    return { id: String(position.get(testCase)), ...(repeats.length > 1 ? { sample: repeats.indexOf(result.testIdx!) } : {}) };
  };
}

/** The error of a result whose call failed (no answer to score), else undefined. */
function callErrorOf(result: PromptfooResult): string | undefined {
  const error = result.error ?? result.response?.error;
  if (result.failureReason !== undefined) return result.failureReason === FAILURE_REASON_ERROR ? String(error || 'error') : undefined;
  // Outputs without failureReason: an error with no output is a failed call.
  const output = result.response?.output;
  return error && (output === undefined || output === null) ? String(error) : undefined;
}

export async function importPromptfoo(file: string, options: ImportOptions = {}): Promise<EvalRecord[]> {
  const output = await readJsonFile<{
    results?: { results?: PromptfooResult[] } | PromptfooResult[];
    config?: { defaultTest?: { options?: GradingOptions } | string };
  }>(file);
  const defaultTest = output.config?.defaultTest;
  const defaults = (typeof defaultTest === 'object' && defaultTest?.options) || {};
  const results = Array.isArray(output.results) ? output.results : output.results?.results;
  if (!Array.isArray(results)) throw new InputError(file, undefined, 'no "results.results" list (expected the JSON of promptfoo eval -o)');
  const providers = [...new Set(results.map(providerOf))];
  const provider = options.provider ?? (providers.length === 1 ? providers[0] : undefined);
  if (!provider || !providers.includes(provider)) {
    throw new InputError(
      file,
      undefined,
      `${options.provider ? `no results of provider "${options.provider}"` : 'several providers'}; choose one with --provider: ${providers.join(', ')}`,
    );
  }
  const varsOf = (result: PromptfooResult) => result.testCase?.vars ?? result.vars ?? {};
  const known = new Set(results.flatMap((result) => Object.keys(varsOf(result))));
  const unknown = (options.groupVars ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new InputError(
      file,
      undefined,
      `--group-vars ${unknown.join(', ')}: no test has ${unknown.length > 1 ? 'these variables' : 'this variable'}; the tests' variables: ${[...known].join(', ') || 'none'}`,
    );
  }
  const prompts = new Set(results.map((result) => result.prompt?.label ?? ''));
  const place = placement(results);
  return results
    .filter((result) => providerOf(result) === provider)
    .map((result, index) => {
      const vars = varsOf(result);
      const label = result.prompt?.label ?? '';
      const record: EvalRecord = {
        scenario: prompts.size > 1 ? `promptfoo/${label}` : 'promptfoo',
        ...place(result, index),
        input: result.prompt?.raw,
      };
      // The test's variables are its own fields before the prompt's template; promptfoo has no references.
      const provenance = Object.keys(vars).length > 0 ? provenanceOf({ input: vars }) : undefined;
      if (provenance) record.provenance = provenance;
      const error = callErrorOf(result);
      const judge = error ? undefined : judgeOfResult(result, defaults);
      if (judge) record.provenance = { ...record.provenance, scorer: judge };
      if (error) record.error = error;
      else record.correct = typeof result.score === 'number' ? Math.min(1, Math.max(0, result.score)) : result.success ? 1 : 0;
      const prediction = result.response?.output;
      if (prediction !== undefined && prediction !== null) {
        record.prediction = typeof prediction === 'string' ? prediction : JSON.stringify(prediction);
      }
      if (typeof result.latencyMs === 'number') record.latency_ms = result.latencyMs;
      if (typeof result.tokenUsage?.prompt === 'number') record.input_tokens = result.tokenUsage.prompt;
      if (typeof result.tokenUsage?.completion === 'number') record.output_tokens = result.tokenUsage.completion;
      if (typeof result.cost === 'number') record.cost_usd = result.cost;
      const groups = dictionary(
        (options.groupVars ?? []).filter((name) => own(vars, name) !== undefined).map((name) => [name, String(vars[name])]),
      );
      if (Object.keys(groups).length > 0) record.groups = groups;
      return record;
    });
}

/** The JSON of `promptfoo eval -o` (-> records). */
export const promptfooImporter = recordsImporter('promptfoo', importPromptfoo);
