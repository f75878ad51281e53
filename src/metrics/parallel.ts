import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { computeMetrics, metricsOfScope, PLAIN_BOOTSTRAP_MAX_INSTANCES, type ComputeOptions, type MetricSet, type MetricsReport } from './compute.js';
import { scopesOf, type Scope } from './scope.js';
import type { RecordTable } from './table.js';

/*
 * The bootstrap of each scope is independent and seeded by the scope's name, so scopes can be computed
 * on two threads with results identical to one thread. The bundled entry points (the CLI and the
 * action) register themselves as the worker's script; without that (e.g. in unit tests) everything
 * runs on the calling thread.
 */

const ROLE = 'evalgate-metrics-worker';
/** Below this many records a second thread costs more than it saves. */
const PARALLEL_MIN_RECORDS = 20000;

interface WorkerJob {
  role: typeof ROLE;
  table: RecordTable;
  options: ComputeOptions;
  scopeIndexes: number[];
}

let workerScript: URL | undefined;

/** Lets computeMetricsInParallel start `script` (a bundle that calls serveMetricsWorker) as a worker. */
export function enableMetricsWorkers(script: URL): void {
  workerScript = script;
}

export function isMetricsWorker(): boolean {
  return !isMainThread && (workerData as Partial<WorkerJob> | undefined)?.role === ROLE;
}

/** The worker's side: compute the scopes it was given and post their metrics back. */
export function serveMetricsWorker(): void {
  const { table, options, scopeIndexes } = workerData as WorkerJob;
  const scopes = scopesOf(table);
  parentPort!.postMessage(scopeIndexes.map((index) => metricsOfScope(table, scopes[index], options)));
}

/** Rough relative cost of a scope's bootstrap: the records of one little-bootstrap subset. */
function bootstrapCost(scope: Scope): number {
  const n = scope.instanceCount;
  const subset = n <= PLAIN_BOOTSTRAP_MAX_INSTANCES ? n : Math.max(n ** 0.7, PLAIN_BOOTSTRAP_MAX_INSTANCES);
  return (subset * scope.rows.length) / Math.max(n, 1);
}

/** computeMetrics, with the scopes shared between this thread and a worker when that pays. */
export async function computeMetricsInParallel(table: RecordTable, options: ComputeOptions): Promise<MetricsReport> {
  if (!workerScript || options.resamples === 0 || table.size < PARALLEL_MIN_RECORDS || availableParallelism() < 2) {
    return computeMetrics(table, options);
  }
  const scopes = scopesOf(table);
  // Longest first, each to the less loaded side; the worker starts with a handicap for its start-up.
  const mine: number[] = [];
  const theirs: number[] = [];
  let myLoad = 0;
  let theirLoad = 0.05 * scopes.reduce((sum, scope) => sum + bootstrapCost(scope), 0);
  const byCost = scopes.map((scope, index) => ({ index, cost: bootstrapCost(scope) })).sort((a, b) => b.cost - a.cost);
  for (const { index, cost } of byCost) {
    if (myLoad <= theirLoad) (mine.push(index), (myLoad += cost));
    else (theirs.push(index), (theirLoad += cost));
  }
  if (theirs.length === 0) return computeMetrics(table, options);

  const job: WorkerJob = { role: ROLE, table, options, scopeIndexes: theirs };
  const worker = new Worker(workerScript, { workerData: job });
  const fromWorker = new Promise<MetricSet[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the metrics worker stopped (exit code ${code}) before it answered`)));
  });
  fromWorker.catch(() => undefined); // handled below, after this thread's share
  const results = new Map<number, MetricSet>();
  for (const index of mine) results.set(index, metricsOfScope(table, scopes[index], options));
  const answered = await fromWorker;
  theirs.forEach((index, position) => results.set(index, answered[position]));
  await worker.terminate();

  const report: MetricsReport = { overall: results.get(0)!, scenarios: {} };
  scopes.slice(1).forEach((scope, position) => (report.scenarios[scope.name] = results.get(position + 1)!));
  return report;
}
