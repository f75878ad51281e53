import type { EvalRecord } from '../records/types.js';
import { AdapterError, type Completion, type CompletionRequest, type ModelAdapter } from './models/types.js';
import type { CompletionCache } from './cache.js';
import type { ToxicityScorer } from './scoring/toxicity.js';
import { score } from './scoring/scorers.js';
import type { LoadedSuite } from './suite.js';
import { workItems, type Shard, type WorkItem } from './work-items.js';

/*
 * Runs a suite: every instance of every scenario, and each perturbed variant that differs from it,
 * becomes exactly one record, in a fixed order, whatever fails: after the last retry a failed call is
 * a record with `error`.
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
  onProgress?: (done: number, total: number) => void;
  /** Trouble that costs no record (the cache cannot be written, ...): each kind is reported once. */
  onWarning?: (message: string) => void;
}

/** The CLI's and the action's defaults. */
export const DEFAULT_RUN_OPTIONS = { concurrency: 8, timeoutMs: 60_000, retries: 4, backoffMs: 500 } as const;

/** A server asking for an hour's pause (or a long backoff) must not stall the run that long. */
const MAX_RETRY_WAIT_MS = 60_000;

/** "1040 records (0 failed calls, 3 retries, 12 from the cache) in 4.20 s" */
export function describeRun(stats: RunStats): string {
  return `${stats.records} records (${stats.errors} failed calls, ${stats.retries} retries, ${stats.cacheHits} from the cache) in ${stats.seconds.toFixed(2)} s`;
}

export interface RunStats {
  records: number;
  errors: number;
  retries: number;
  cacheHits: number;
  /** Wall time of the run, from the first request to the last record. */
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call's completion, how long it took and whether it came from the cache. */
interface Answer {
  completion: Completion;
  latencyMs: number;
  cached: boolean;
}

export async function runSuite(loaded: LoadedSuite, adapter: ModelAdapter, options: RunOptions): Promise<{ records: EvalRecord[]; stats: RunStats }> {
  const items = workItems(loaded, options.shard);
  const records: EvalRecord[] = new Array(items.length);
  const stats: RunStats = { records: items.length, errors: 0, retries: 0, cacheHits: 0, seconds: 0 };
  const runStarted = performance.now();
  const price = loaded.suite.prices[adapter.model];
  const spacing = options.requestsPerMinute ? 60000 / options.requestsPerMinute : 0;
  // Starts take turns: each waits until `spacing` after the one before really started, so timers that
  // fire late (a busy process) can delay starts but never bunch them.
  let turn: Promise<void> = Promise.resolve();
  let lastStart = -Infinity;
  const pace = () =>
    (turn = turn.then(async () => {
      const wait = lastStart + spacing - performance.now();
      if (wait > 0) await sleep(wait);
      lastStart = performance.now();
    }));
  let done = 0;
  const cache = adapter.stored ? undefined : options.cache; // replayed answers are never cached

  let toxicityFailed = false;
  const warned = new Set<string>();
  const warnOnce = (kind: string, message: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    options.onWarning?.(message);
  };

  /** Asks the model, with retries; throws the last AdapterError. */
  const ask = async (request: CompletionRequest): Promise<{ completion: Completion; latencyMs: number }> => {
    for (let attempt = 0; ; attempt++) {
      if (spacing > 0) await pace();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      const started = performance.now();
      try {
        const completion = await adapter.complete(request, controller.signal);
        // A stored completion (replay) keeps the latency measured when it was made.
        return { completion, latencyMs: adapter.stored ? (completion.latencyMs ?? NaN) : Math.round((performance.now() - started) * 10) / 10 };
      } catch (error) {
        const failure = error instanceof AdapterError ? error : new AdapterError((error as Error).message, true);
        if (!failure.retryable || attempt >= options.retries) throw failure;
        stats.retries++;
        const backoff = failure.retryAfterMs ?? options.backoffMs * 2 ** attempt * (0.5 + Math.random());
        await sleep(Math.min(backoff, options.maxRetryWaitMs ?? MAX_RETRY_WAIT_MS));
      } finally {
        clearTimeout(timer);
      }
    }
  };

  const lookUpOrAsk = async (request: CompletionRequest): Promise<Answer> => {
    const cached = await cache?.get(adapter, request);
    // A cached completion keeps the latency measured when it was made, so reruns give the same records.
    if (cached) return { completion: cached, latencyMs: cached.latencyMs ?? NaN, cached: true };
    const { completion, latencyMs } = await ask(request);
    try {
      await cache?.set(adapter, request, { ...completion, latencyMs });
    } catch (error) {
      // The completion is paid for and good: only later runs lose it.
      warnOnce('cache', `the completion cache cannot be written (${(error as Error).message}): this run's completions will be asked again next time`);
    }
    return { completion, latencyMs, cached: false };
  };

  // With the cache on, requests with the same key get the same completion: within a run too, so one
  // is asked and the others share its answer (a rerun then gives the same records, every field).
  const answers = new Map<string, Promise<Answer>>();
  const call = (request: CompletionRequest): Promise<Answer> => {
    if (!cache) return lookUpOrAsk(request);
    const key = cache.keyOf(adapter, request);
    const earlier = answers.get(key);
    if (earlier) return earlier.then((answer) => ({ ...answer, cached: true }));
    const answer = lookUpOrAsk(request);
    answers.set(key, answer);
    return answer;
  };

  /** The record of a completed call. Scoring is not part of the call: its trouble never costs the completion. */
  const completedRecord = async (item: WorkItem, { completion, latencyMs, cached }: Answer): Promise<EvalRecord> => {
    if (cached) stats.cacheHits++;
    const scenario = loaded.suite.scenarios[item.scenarioIndex];
    const record: EvalRecord = {
      ...item.base,
      prediction: completion.text,
      correct: score(scenario.scorer, completion.text, item.references, item.choices, scenario.scorer_options),
    };
    if (completion.confidence !== undefined) record.confidence = completion.confidence;
    if (options.toxicity) {
      try {
        record.toxicity = await options.toxicity.score(completion.text);
      } catch (error) {
        toxicityFailed = true;
        warnOnce('toxicity', `toxicity could not be scored (${(error as Error).message}): no record gets "toxicity", so a check on it errors`);
      }
    }
    if (!Number.isNaN(latencyMs)) record.latency_ms = latencyMs;
    if (completion.inputTokens !== undefined) record.input_tokens = completion.inputTokens;
    if (completion.outputTokens !== undefined) record.output_tokens = completion.outputTokens;
    if (completion.costUsd !== undefined) record.cost_usd = completion.costUsd;
    else if (price && completion.inputTokens !== undefined && completion.outputTokens !== undefined) {
      record.cost_usd = (completion.inputTokens * price.input + completion.outputTokens * price.output) / 1e6;
    }
    return record;
  };

  const work = async (index: number) => {
    const item = items[index];
    const answer = await call(item.request).catch((error: Error) => error);
    if (answer instanceof Error) {
      stats.errors++;
      records[index] = { ...item.base, error: answer.message };
    } else {
      records[index] = await completedRecord(item, answer);
    }
    options.onProgress?.(++done, items.length);
  };

  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, worker));
  // Toxicity of only the records scored before the scorer broke would gate on a part as if the whole.
  if (toxicityFailed) for (const record of records) delete record.toxicity;
  stats.seconds = (performance.now() - runStarted) / 1000;
  return { records, stats };
}
