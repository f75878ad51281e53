import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ComputeOptions, ScenarioName, ScopeEntries } from '../metrics/compute.js';
import { orderedRows } from '../metrics/ordering.js';
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

/** A records file this large starts the thread before it is read (MetricsThread.ahead): about 30,000 compact records. */
export const AHEAD_MIN_BYTES = 5_000_000;

/** What the thread computes: the scopes of `table` that RunMetrics.report(named) computes under `options`. */
export interface ScopesJob {
  table: MetricsTable;
  options: ComputeOptions;
  named: ScenarioName[];
}

/** The thread's answer: the scopes, or why it could not compute them. */
export type ScopesAnswer = { entries: ScopeEntries } | { error: string };

/**
 * What of a table the thread needs, picked field by field (the table's instance keys are made only when
 * read), with its rows ordered here: this thread's comparisons read the orderings too, and the thread
 * reads them in shared memory instead of sorting the rows again.
 */
function metricsTableOf(table: RecordTable): ScopesJob['table'] {
  const fields = Object.fromEntries(METRICS_TABLE_FIELDS.map((field) => [field, table[field]])) as Omit<MetricsTable, 'orderings'>;
  return { ...fields, orderings: orderedRows(table) };
}

function threadFile(): URL | undefined {
  return typeof EVALGATE_METRICS_THREAD === 'string' ? new URL(`./${EVALGATE_METRICS_THREAD}`, import.meta.url) : undefined;
}

/** Scopes being computed in a thread: waiting for them gives them, or undefined when this thread is to compute them. */
export type PendingScopes = () => Promise<ScopeEntries | undefined>;

/** Settles the scopes of a job given to the thread with its answer, or with why none came. */
type Settle = (answer: ScopesAnswer | Error) => void;

/**
 * A second thread computing the scopes of the jobs it is given (`queue`), one after the other, as
 * they come (it may be started before its first: `ahead`). It does not keep the process alive while nobody waits
 * for its scopes: bad input read meanwhile ends evalgate at once. Scopes it could not compute are
 * undefined (this thread then computes them itself); under `always` that is an error.
 */
export class MetricsThread {
  /** The jobs given and not yet answered, in order. */
  private readonly jobs: Settle[] = [];
  private stopped: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly threads: MetricsThreads,
  ) {
    worker.on('message', (answer: ScopesAnswer) => {
      this.jobs.shift()?.(answer);
      if (this.jobs.length === 0) worker.unref();
    });
    worker.once('error', (error) => this.stop(error));
    worker.once('exit', (code) => this.stop(new Error(`the metrics thread ended (exit code ${code}) without its scopes`)));
    worker.unref(); // after the listeners, which would hold it again
  }

  /** A thread with no job yet; undefined when none can start here (an error instead under `always`). */
  private static spawn(threads: MetricsThreads): MetricsThread | undefined {
    const file = threadFile();
    if (!file) {
      if (threads !== 'always') return undefined;
      throw new Error('EVALGATE_THREADS=1, but no metrics thread program lies beside this one (run from source?)');
    }
    try {
      return new MetricsThread(new Worker(file), threads);
    } catch (error) {
      if (threads === 'always') throw error;
      return undefined;
    }
  }

  /**
   * A thread started before the run it is to compute is read, when `threads` may ask for one and the
   * records file (`fileBytes`) is large: its program loads while this thread reads. `start` gives it
   * its first job, or ends it.
   */
  static ahead(threads: MetricsThreads, fileBytes: number): MetricsThread | undefined {
    if (threads === 'off' || (threads === 'auto' && (fileBytes < AHEAD_MIN_BYTES || availableParallelism() < 2))) return undefined;
    try {
      return MetricsThread.spawn(threads);
    } catch {
      return undefined; // `start` tries again, and says why
    }
  }

  /**
   * Starts a thread on the scopes of `table` (or gives them to the thread started `ahead`), when
   * `threads` asks for one here; undefined when the scopes are better computed in this thread.
   */
  static start(
    table: RecordTable,
    job: Omit<ScopesJob, 'table'>,
    threads: MetricsThreads,
    ahead?: MetricsThread,
  ): { thread: MetricsThread; scopes: PendingScopes } | undefined {
    const wanted = threads === 'always' || (threads === 'auto' && table.size >= THREAD_MIN_RECORDS && availableParallelism() >= 2);
    if (ahead && (!wanted || ahead.stopped)) ahead.end();
    if (!wanted) return undefined;
    const thread = ahead && !ahead.stopped ? ahead : MetricsThread.spawn(threads);
    return thread && { thread, scopes: thread.queue(table, job) };
  }

  /** Gives the thread a further job, computed once the earlier ones are. */
  queue(table: RecordTable, job: Omit<ScopesJob, 'table'>): PendingScopes {
    const scopes = this.expect();
    if (!this.stopped) this.worker.postMessage({ ...job, table: metricsTableOf(table) } satisfies ScopesJob);
    return scopes;
  }

  /** The scopes of the job given next (the answers come in the order of the jobs). */
  private expect(): PendingScopes {
    let settle!: Settle;
    const scopes = new Promise<ScopeEntries | undefined>((resolve, reject) => {
      const failed = (error: Error) => (this.threads === 'always' ? reject(error) : resolve(undefined));
      settle = (answer) => {
        if (answer instanceof Error) failed(answer);
        else if ('entries' in answer) resolve(answer.entries);
        else failed(new Error(`the metrics thread failed: ${answer.error}`));
      };
    });
    scopes.catch(() => undefined); // rejected only under `always`, and then waited for
    if (this.stopped) settle(this.stopped);
    else this.jobs.push(settle);
    return () => {
      if (this.jobs.length > 0) this.worker.ref();
      return scopes;
    };
  }

  /** Ends a thread given no job (one started ahead for a run it will not compute). */
  end(): void {
    void this.worker.terminate();
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const settle of this.jobs.splice(0)) settle(error);
  }
}
