import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ComputeOptions, ScenarioName, ScopeEntries } from '../metrics/compute.js';
import { METRICS_TABLE_FIELDS, type MetricsTable, type RecordTable } from '../metrics/table.js';

/*
 * A run's scopes computed in a second thread while this one goes on (the gate reads the baseline and
 * makes the paired comparisons meanwhile). The thread is sent the
 * table's numbers, whose row columns lie in shared memory (read there, not copied), and hands back the
 * scopes it computed, which this thread's RunMetrics adopts. Each scope's bootstrap has its own seed, so
 * the numbers are the same to the last bit whichever thread computes a scope.
 */

/** The thread's program beside the bundle (scripts/bundle.mjs names it); none when running from source, which computes in one thread. */
declare const EVALGATE_METRICS_THREAD: string | undefined;

/** When a second thread computes: `off` never; `auto` for a large table with a CPU to spare; `always` for any table (tests). */
export type MetricsThreads = 'off' | 'auto' | 'always';

/** EVALGATE_THREADS: 0 off, 1 always, anything else (or unset) auto. */
export const threadsFromEnv = (value: string | undefined): MetricsThreads => (value === '0' ? 'off' : value === '1' ? 'always' : 'auto');

/** Below this many records the scopes are computed faster than a thread starts (about 0.1 s to load the engine). */
export const THREAD_MIN_RECORDS = 50_000;

/** What the thread computes: the scopes of `table` that RunMetrics.report(named) computes under `options`. */
export interface ScopesJob {
  table: Omit<MetricsTable, 'orderings'>;
  options: ComputeOptions;
  named: ScenarioName[];
}

/** The thread's answer: the scopes, or why it could not compute them. */
export type ScopesAnswer = { entries: ScopeEntries } | { error: string };

/** What of a table the thread needs, picked field by field (the table's instance keys are made only when read). */
function metricsTableOf(table: RecordTable): ScopesJob['table'] {
  return Object.fromEntries(METRICS_TABLE_FIELDS.map((field) => [field, table[field]])) as ScopesJob['table'];
}

function threadFile(): URL | undefined {
  return typeof EVALGATE_METRICS_THREAD === 'string' ? new URL(`./${EVALGATE_METRICS_THREAD}`, import.meta.url) : undefined;
}

/** Scopes being computed in a thread: waiting for them gives them, or undefined when this thread is to compute them. */
export type PendingScopes = () => Promise<ScopeEntries | undefined>;

/**
 * Starts a thread on the scopes of `table`, when `threads` asks for one here; undefined when the
 * scopes are better computed in this thread. Waiting gives the scopes, or undefined when the thread
 * could not compute them (this thread then computes them itself); under `always` that is an error. The
 * thread does not keep the process alive until its scopes are waited for: bad input read meanwhile
 * ends evalgate at once.
 */
export function scopesInThread(table: RecordTable, job: Omit<ScopesJob, 'table'>, threads: MetricsThreads): PendingScopes | undefined {
  const file = threadFile();
  if (threads === 'off') return undefined;
  if (!file) {
    if (threads === 'always') throw new Error('EVALGATE_THREADS=1, but no metrics thread program lies beside this one (run from source?)');
    return undefined;
  }
  if (threads === 'auto' && (table.size < THREAD_MIN_RECORDS || availableParallelism() < 2)) return undefined;
  let worker: Worker | undefined;
  const scopes = new Promise<ScopeEntries | undefined>((resolve, reject) => {
    const failed = (error: Error) => (threads === 'always' ? reject(error) : resolve(undefined));
    try {
      worker = new Worker(file, { workerData: { ...job, table: metricsTableOf(table) } satisfies ScopesJob });
    } catch (error) {
      return failed(error as Error);
    }
    worker.once('message', (answer: ScopesAnswer) => {
      if ('entries' in answer) resolve(answer.entries);
      else failed(new Error(`the metrics thread failed: ${answer.error}`));
    });
    worker.once('error', failed);
    // After a message this settles nothing: a promise settles once.
    worker.once('exit', (code) => failed(new Error(`the metrics thread ended (exit code ${code}) without its scopes`)));
    worker.unref(); // after the listeners, which would hold it again
  });
  scopes.catch(() => undefined); // rejected only under `always`, and then waited for
  return () => {
    worker?.ref();
    return scopes;
  };
}
