import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { computeOptionsOf } from '../gate/compare.js';
import { RunMetrics, type ComputeOptions, type MetricsReport, type ScopeEntries, type ScopesPart } from '../metrics/compute.js';
import type { Policy } from '../policy/schema.js';
import { dictionary } from '../records/dictionary.js';
import { loadRun } from '../runs/load.js';
import { loadRecordTable } from '../runs/records.js';

/*
 * A second thread for the bootstrap of a large records file: it reads the same file and computes some
 * of its scopes while this thread reads and compares, and the main thread adopts them (RunMetrics.adopt).
 * Each scope's bootstrap has its own seed, so the numbers are the same to the last bit whichever thread
 * computes a scope. The worker is the running bundle itself (import.meta.url), started in a thread with
 * the job in its workerData: only the bundled CLI asks for it (CliIo.threads); tests of the source, and
 * every caller that does not ask, compute in one thread.
 */

/** What a worker computes: the scopes `part` of the records in `file` under `options`, as report(named) would. */
export interface ScopesJob {
  file: string;
  options: ComputeOptions;
  named: Array<string | null>;
  part: ScopesPart;
}

/** The workerData key that marks a thread started for a job (a module loaded in any other thread does nothing). */
const JOB = 'evalgateScopesJob';

/** Below this size a file is read and computed faster than a thread starts (about 0.1 s to load the bundle). */
export const PARALLEL_MIN_BYTES = 4 * 1024 * 1024;

/**
 * When a second thread computes: `off` never; `auto` with more than one CPU for a file large enough,
 * falling back to this thread if it fails; `always` for any file, and a thread that fails is an error
 * (what the bundle's tests use to hold the two paths to the same output).
 */
export type Threads = 'off' | 'auto' | 'always';

/** EVALGATE_THREADS: 0 off, 1 always, anything else (or unset) auto. */
export const threadsFromEnv = (value: string | undefined): Threads => (value === '0' ? 'off' : value === '1' ? 'always' : 'auto');

function worthAThread(file: string, threads: Threads | undefined): boolean {
  if (threads === 'always') return true;
  if (threads !== 'auto' || availableParallelism() < 2) return false;
  try {
    return statSync(file).size >= PARALLEL_MIN_BYTES;
  } catch {
    return false; // the main thread's reading says what is wrong with it
  }
}

/** Scopes being computed elsewhere: `scopes()` waits for them (undefined: compute them here). */
export interface PendingScopes {
  scopes(): Promise<ScopeEntries | undefined>;
}

/**
 * Starts a worker on the job. Its scopes are undefined when it could not compute them (a metrics file,
 * bad records, a failed thread): the main thread then computes them itself, and its own reading reports
 * any bad input. Under `always` a thread that fails to start or dies is an error. The thread does not
 * keep the process alive until its scopes are waited for: bad input read meanwhile ends evalgate at once.
 */
function scopesInThread(job: ScopesJob, threads: Threads): PendingScopes {
  let worker: Worker | undefined;
  const result = new Promise<ScopeEntries | undefined>((resolve, reject) => {
    const failed = (error: unknown) => (threads === 'always' ? reject(error) : resolve(undefined));
    try {
      worker = new Worker(new URL(import.meta.url), { workerData: { [JOB]: job } });
    } catch (error) {
      return failed(error);
    }
    worker.once('message', (entries: ScopeEntries | undefined) => resolve(entries && adoptable(entries)));
    worker.once('error', failed);
    worker.once('exit', (code) => failed(new Error(`the metrics thread exited (${code}) without its scopes`))); // after a message: no effect
    worker.unref(); // after the listeners, which would hold it again
  });
  result.catch(() => undefined); // rejected only under `always`, and then awaited by scopes()
  return {
    scopes() {
      worker?.ref();
      return result;
    },
  };
}

/** Cloned scopes made prototype-free again, as the engine makes names from data (records/dictionary.ts). */
function adoptable(entries: ScopeEntries): ScopeEntries {
  return entries.map(([scenario, scope]) => [
    scenario,
    {
      ...scope,
      metrics: dictionary(Object.entries(scope.metrics)),
      ...(scope.samples ? { samples: dictionary(Object.entries(scope.samples)) } : {}),
    },
  ]);
}

/** The worker's side: read the file, compute the scopes asked for, send them back (nothing on a metrics file or bad input). */
async function runJob({ file, options, named, part }: ScopesJob): Promise<void> {
  let entries: ScopeEntries | undefined;
  try {
    const run = await loadRun(file);
    if (run.kind === 'records') {
      entries = new RunMetrics(run.table, options).computeScopes(
        part,
        named.map((name) => name ?? undefined),
      );
    }
  } catch {
    entries = undefined;
  }
  parentPort!.postMessage(entries);
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[JOB]) void runJob((workerData as Record<string, ScopesJob>)[JOB]);

/** `evalgate metrics`: a file's metrics, its scenarios' bootstraps in a thread while this one reads it and computes the pooled scope. */
export async function metricsOfFile(file: string, options: ComputeOptions, threads?: Threads): Promise<MetricsReport> {
  const scenarios = worthAThread(file, threads) ? scopesInThread({ file, options, named: [], part: 'scenarios' }, threads!) : undefined;
  const metrics = new RunMetrics(await loadRecordTable(file), options);
  if (scenarios) {
    metrics.computeScopes('pooled');
    const entries = await scenarios.scopes();
    if (entries) metrics.adopt(entries);
  }
  return metrics.report();
}

/**
 * A gate's candidate scopes (every scope the gate reads, as it reads them) computed in a thread, when
 * the candidate is a large records file; undefined otherwise.
 */
export function gateScopesInThread(policy: Policy, file: string, threads?: Threads): PendingScopes | undefined {
  if (!worthAThread(file, threads)) return undefined;
  // The checks' scopes, as the gate names them (the built-in checks are pooled: named here always; a superset there is harmless).
  const named = [null, ...policy.checks.filter((check) => check.severity !== 'off').map((check) => check.scenario ?? null)];
  return scopesInThread({ file, options: computeOptionsOf(policy), named, part: 'all' }, threads!);
}
