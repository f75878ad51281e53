import { parentPort } from 'node:worker_threads';
import { RunMetrics } from '../metrics/compute.js';
import type { ScopesAnswer, ScopesJob } from './metrics-thread.js';

/*
 * The program of the metrics thread (pipeline/metrics-thread.ts; bundled beside the CLI's and the
 * action's programs): computes the scopes of each job sent to it, and sends them back in order.
 */

function answer({ table, options, named }: ScopesJob): ScopesAnswer {
  try {
    return { entries: new RunMetrics(table, options).computeScopes(named) };
  } catch (error) {
    return { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

const reply = (job: ScopesJob) => parentPort?.postMessage(answer(job));
parentPort?.on('message', reply);
