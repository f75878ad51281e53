import type { CompletionCache } from './cache.js';
import { AdapterError, type Completion, type CompletionRequest, type ModelAdapter } from './models/types.js';
import type { RunOptions, RunStats } from './run.js';

/*
 * Asking the model during a run: at the pace the options allow, with a time-out and retries per call,
 * through the completion cache, and once for identical requests.
 */

/** A call's completion, how long it took and whether it came from the cache. */
export interface Answer {
  completion: Completion;
  latencyMs: number;
  cached: boolean;
}

/** A server asking for an hour's pause (or a long backoff) must not stall the run that long. */
const MAX_RETRY_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * At most `requestsPerMinute` starts a minute. Starts take turns: each waits until the spacing after
 * the one before really started, so timers that fire late (a busy process) can delay starts but never
 * bunch them.
 */
function pacer(requestsPerMinute: number): () => Promise<void> {
  const spacing = 60000 / requestsPerMinute;
  let turn: Promise<void> = Promise.resolve();
  let lastStart = -Infinity;
  return () =>
    (turn = turn.then(async () => {
      const wait = lastStart + spacing - performance.now();
      if (wait > 0) await sleep(wait);
      lastStart = performance.now();
    }));
}

/** A model as a warning names it. */
const named = (model: string | undefined, unnamed: string) => (model === undefined ? unnamed : `"${model}"`);

export class ModelCalls {
  /** With the cache on, the answer of each request key asked in this run. */
  private readonly answers = new Map<string, Promise<Answer>>();
  private readonly pace: (() => Promise<void>) | undefined;
  private readonly cache: CompletionCache | undefined;
  /** The model the endpoint serves now, as the answer to the probe call named it. */
  private served: string | undefined;

  constructor(
    private readonly adapter: ModelAdapter,
    private readonly options: RunOptions,
    private readonly stats: RunStats,
    private readonly warnOnce: (kind: string, message: string) => void,
  ) {
    this.pace = options.requestsPerMinute ? pacer(options.requestsPerMinute) : undefined;
    this.cache = adapter.stored ? undefined : options.cache; // replayed answers are never cached
  }

  /**
   * The answer to a request. With the cache on, requests with the same key get the same completion:
   * within a run too, so one is asked and the others share its answer (a rerun then gives the same
   * records, every field). A `probe` is asked whatever the cache holds, to learn what the endpoint
   * serves now (its answer is the record's unless the cache holds one of that model), and is not
   * retried when the endpoint cannot answer.
   */
  call(request: CompletionRequest, probe = false): Promise<Answer> {
    if (!this.cache) return this.lookUpOrAsk(request, probe);
    const key = this.cache.keyOf(this.adapter, request);
    const earlier = this.answers.get(key);
    if (earlier) return earlier.then((answer) => ({ ...answer, cached: true }));
    const answer = this.lookUpOrAsk(request, probe);
    this.answers.set(key, answer);
    return answer;
  }

  private async lookUpOrAsk(request: CompletionRequest, probe: boolean): Promise<Answer> {
    const probed = probe ? await this.ask(request, true) : undefined;
    if (probed) this.served = probed.completion.servedModel;
    const cached = await this.lookUp(request);
    if (cached) return cached;
    const { completion, latencyMs } = probed ?? (await this.ask(request, false));
    try {
      await this.cache?.set(this.adapter, request, { ...completion, latencyMs });
    } catch (error) {
      // The completion is paid for and good: only later runs lose it.
      this.warnOnce(
        'cache',
        `the completion cache cannot be written (${(error as Error).message}): this run's completions will be asked again next time`,
      );
    }
    return { completion, latencyMs, cached: false };
  }

  /** The cached completion of a request, if the model that gave it is the one the endpoint serves now. */
  private async lookUp(request: CompletionRequest): Promise<Answer | undefined> {
    const cached = await this.cache?.get(this.adapter, request);
    if (!cached) return undefined;
    if (cached.servedModel !== this.served) {
      this.warnOnce(
        'stale',
        `the endpoint serves ${named(this.served, 'a model it does not name')} as "${this.adapter.model}" now, and the completion cache ` +
          `holds answers of ${named(cached.servedModel, 'a model it did not record')}: those are not used, their examples are asked again`,
      );
      return undefined;
    }
    // A cached completion keeps the latency measured when it was made, so reruns give the same records.
    return { completion: cached, latencyMs: cached.latencyMs ?? NaN, cached: true };
  }

  /** Asks the model, with retries of failed calls; throws the last AdapterError, and any other exception (a bug) at once. */
  private async ask(request: CompletionRequest, probe: boolean): Promise<{ completion: Completion; latencyMs: number }> {
    const { adapter, options } = this;
    for (let attempt = 0; ; attempt++) {
      await this.pace?.();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), options.timeoutMs);
      const started = performance.now();
      try {
        const completion = await adapter.complete(request, controller.signal);
        // A stored completion (replay) keeps the latency measured when it was made.
        const latencyMs = adapter.stored ? (completion.latencyMs ?? NaN) : Math.round((performance.now() - started) * 10) / 10;
        return { completion, latencyMs };
      } catch (failure) {
        if (!(failure instanceof AdapterError) || !failure.retryable || attempt >= options.retries || (probe && failure.endpoint)) {
          throw failure;
        }
        this.stats.retries++;
        const backoff = failure.retryAfterMs ?? options.backoffMs * 2 ** attempt * (0.5 + Math.random());
        await sleep(Math.min(backoff, options.maxRetryWaitMs ?? MAX_RETRY_WAIT_MS));
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
