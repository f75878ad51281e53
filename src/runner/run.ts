import { own } from '../records/dictionary.js';
import type { BaselineAnswers } from './baseline-answers.js';
import { FailureTally } from '../records/failures.js';
import type { EvalRecord } from '../records/types.js';
import type { CompletionCache } from './cache.js';
import { ModelCalls, type Answer } from './calls.js';
import { redactor } from './models/redact.js';
import { AdapterError, EndpointError, type ModelAdapter } from './models/types.js';
import { closeJudges, describeJudging, judgesOf, newJudgeStats, type Judge, type JudgeStats } from './judge.js';
import { scorerFor, type Scorer } from './scoring/scorers.js';
import type { ToxicityScorer } from './scoring/toxicity.js';
import type { LoadedSuite } from './suite.js';
import { workItems, type Shard, type WorkItem } from './work-items.js';

/*
 * Runs a suite: every instance of every scenario, and each perturbed variant that differs from it,
 * becomes exactly one record, in a fixed order, whatever fails: after the last retry a failed call is
 * a record with `error`. Two things stop a run instead: a model that cannot answer (its first calls,
 * asked one at a time, fail: an EndpointError), and an exception that is not a failed call (a bug in an
 * adapter, thrown as it is, with its stack).
 */

export interface RunOptions {
  concurrency: number;
  /** At most this many requests started per minute. */
  requestsPerMinute?: number;
  timeoutMs: number;
  retries: number;
  /** First backoff; doubles each retry, with jitter; a Retry-After from the server wins. */
  backoffMs: number;
  /** The longest wait before a retry, whatever the backoff or the server's Retry-After (default 60 s). */
  maxRetryWaitMs?: number;
  cache?: CompletionCache;
  /** Scores the toxicity of every completion. */
  toxicity?: ToxicityScorer;
  /** Run only shard `index` (1-based) of `count`; an instance and its variants stay together. */
  shard?: Shard;
  /** Ask every example this many times (default 1); the records carry `sample` 0..K-1 when K > 1. */
  samples?: number;
  /** The baseline's completions, for the scenarios judged pairwise against them (`judge_pairwise: baseline`). */
  baselineAnswers?: BaselineAnswers;
  onProgress?: (done: number, total: number) => void;
  /** Trouble that costs no record (the cache cannot be written, ...): each kind is reported once. */
  onWarning?: (message: string) => void;
}

/** The CLI's and the action's defaults. */
export const DEFAULT_RUN_OPTIONS = { concurrency: 8, timeoutMs: 60_000, retries: 4, backoffMs: 500 } as const;

/** The largest share of a run's calls that may fail (after their retries) for the run to succeed (--max-failed). */
export const DEFAULT_MAX_FAILED = 0.1;

/** How many of the run's first calls may fail (after their retries) before the run stops. */
export const PROBE_CALLS = 3;

/** "1040 records (0 failed calls, 3 retries, 12 from the cache) in 4.20 s", and what the judge's calls were, apart. */
export function describeRun(stats: RunStats): string {
  const judged = stats.judge ? `; ${describeJudging(stats.judge)}` : '';
  return `${stats.records} records (${stats.errors} failed calls, ${stats.retries} retries, ${stats.cacheHits} from the cache) in ${stats.seconds.toFixed(2)} s${judged}`;
}

export interface RunStats {
  records: number;
  errors: number;
  retries: number;
  cacheHits: number;
  /** Wall time of the run, from the first request to the last record. */
  seconds: number;
  /** The errors (redacted) the failed calls ended with. */
  failures: FailureTally;
  /** The judge's calls, when the suite has a judged scenario: never counted with the model's. */
  judge?: JudgeStats;
}

const percent = (share: number) => `${+(share * 100).toFixed(1)}%`;

/**
 * Why a run failed: more than `maxFailed` (a share) of its calls failed; undefined when it did not.
 * "40 of 139 calls failed (28.8%), more than 10% may: the most common error (35 calls): HTTP 500: ..."
 */
export function tooManyFailures(stats: RunStats, maxFailed: number): string | undefined {
  if (stats.errors === 0 || stats.errors <= maxFailed * stats.records) return undefined;
  const { error, count } = stats.failures.mostCommon()!;
  return (
    `${stats.errors} of ${stats.records} calls failed (${percent(stats.errors / stats.records)}), more than ${percent(maxFailed)} may ` +
    `(--max-failed): the most common error (${count} call${count === 1 ? '' : 's'}): ${error}`
  );
}

/** Why the run stops after its first calls failed: the endpoint's own error. */
function endpointFailed(adapter: ModelAdapter, failures: AdapterError[], redact: (text: string) => string): EndpointError {
  const calls = failures.length === 1 ? 'its first call' : `its first ${failures.length} calls`;
  const last = failures.at(-1)!;
  return new EndpointError(
    redact(
      `the model "${adapter.id}" cannot answer: ${calls} failed (${failures.length > 1 ? 'the last: ' : ''}${last.message}); nothing was written`,
    ),
  );
}

type Price = LoadedSuite['suite']['prices'][string];

/** The record of a completed call, with its score (`correct`, or a judge's fields); its toxicity, if scored, is given (scoring it is apart from the call). */
function completedRecord(
  item: WorkItem,
  { completion, latencyMs }: Answer,
  scored: Partial<EvalRecord>,
  price: Price | undefined,
  toxicity: number | undefined,
): EvalRecord {
  const record: EvalRecord = { ...item.base, prediction: completion.text, ...scored };
  if (completion.confidence !== undefined) record.confidence = completion.confidence;
  if (toxicity !== undefined) record.toxicity = toxicity;
  if (!Number.isNaN(latencyMs)) record.latency_ms = latencyMs;
  if (completion.inputTokens !== undefined) record.input_tokens = completion.inputTokens;
  if (completion.outputTokens !== undefined) record.output_tokens = completion.outputTokens;
  if (completion.costUsd !== undefined) record.cost_usd = completion.costUsd;
  else if (price && completion.inputTokens !== undefined && completion.outputTokens !== undefined) {
    record.cost_usd = (completion.inputTokens * price.input + completion.outputTokens * price.output) / 1e6;
  }
  return record;
}

export async function runSuite(
  loaded: LoadedSuite,
  adapter: ModelAdapter,
  options: RunOptions,
): Promise<{ records: EvalRecord[]; stats: RunStats }> {
  const items = workItems(loaded, options.shard, options.samples);
  const records: EvalRecord[] = new Array(items.length);
  const stats: RunStats = { records: items.length, errors: 0, retries: 0, cacheHits: 0, seconds: 0, failures: new FailureTally() };
  const runStarted = performance.now();
  const price = own(loaded.suite.prices, adapter.model);
  const scorers = loaded.suite.scenarios.map(({ scorer, scorer_options }) =>
    scorer === 'judge' ? undefined : scorerFor(scorer, scorer_options),
  );
  // Every error text from the model, the toxicity scorer or the cache goes through it before a record or a warning shows it.
  const redact = redactor(adapter.secrets);
  const warned = new Set<string>();
  const warnOnce = (kind: string, message: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    options.onWarning?.(redact(message));
  };
  const calls = new ModelCalls(adapter, options, stats, warnOnce);
  if (loaded.suite.scenarios.some(({ scorer }) => scorer === 'judge')) stats.judge = newJudgeStats();
  const judges = stats.judge ? await judgesOf(loaded, adapter, stats.judge, options, warnOnce) : [];
  try {
    await runItems(items, records, { adapter, options, stats, calls, redact, warnOnce, price, scorers, judges });
  } finally {
    await closeJudges(judges);
  }
  stats.seconds = (performance.now() - runStarted) / 1000;
  return { records, stats };
}

interface RunParts {
  adapter: ModelAdapter;
  options: RunOptions;
  stats: RunStats;
  calls: ModelCalls;
  redact: (text: string) => string;
  warnOnce: (kind: string, message: string) => void;
  price: Price | undefined;
  scorers: Array<Scorer | undefined>;
  judges: Array<Judge | undefined>;
}

/** Asks for every item, in order of the probe then by `concurrency` workers, and makes its record. */
async function runItems(items: WorkItem[], records: EvalRecord[], parts: RunParts): Promise<void> {
  const { adapter, options, stats, calls, redact, warnOnce, price, scorers, judges } = parts;
  let toxicityFailed = false;
  /** A completion's toxicity; its trouble never costs the completion (the record goes without). */
  const scoreToxicity = async (text: string): Promise<number | undefined> => {
    try {
      return await options.toxicity?.score(text);
    } catch (error) {
      toxicityFailed = true;
      warnOnce(
        'toxicity',
        `toxicity could not be scored (${(error as Error).message}): no record gets "toxicity", so a check on it errors`,
      );
      return undefined;
    }
  };

  let done = 0;
  /** Asks for item `index` and makes its record; returns the failed call, if it failed. Any other exception goes on up. */
  const work = async (index: number, probe: boolean): Promise<AdapterError | undefined> => {
    const item = items[index];
    const answer = await calls.call(item.request, probe).catch((error: unknown) => {
      if (error instanceof AdapterError) return error;
      throw error; // a bug in the adapter: the run stops with it, it is no record
    });
    if (answer instanceof AdapterError) {
      const error = redact(answer.message);
      stats.errors++;
      stats.failures.add(error);
      records[index] = { ...item.base, error };
    } else {
      if (answer.cached) stats.cacheHits++;
      const toxicity = await scoreToxicity(answer.completion.text);
      const text = answer.completion.text;
      const scorer = scorers[item.scenarioIndex];
      const scored = scorer
        ? { correct: scorer(text, item.references, item.choices) }
        : await judges[item.scenarioIndex]!.grade(item.base, text);
      records[index] = completedRecord(item, answer, scored, price, toxicity);
    }
    options.onProgress?.(++done, items.length);
    return answer instanceof AdapterError ? answer : undefined;
  };

  let next = 0;
  // The probe: the first calls one at a time, until one is answered (stored answers need none).
  for (const failures: AdapterError[] = []; !adapter.stored && next < items.length;) {
    const failure = await work(next++, true);
    if (!failure) break;
    failures.push(failure);
    if (failure.endpoint || failures.length === PROBE_CALLS) throw endpointFailed(adapter, failures, redact);
  }
  let stopped = false;
  const worker = async () => {
    try {
      while (!stopped && next < items.length) await work(next++, false);
    } catch (error) {
      stopped = true; // the other workers start nothing more
      throw error;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length - next)) }, worker));
  // Toxicity of only the records scored before the scorer broke would gate on a part as if the whole.
  if (toxicityFailed) for (const record of records) delete record.toxicity;
}
