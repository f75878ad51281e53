import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { gateRun, type GateRunInputs } from '../pipeline/gate-run.js';
import { gatePooled, poolRuns, type RunToPool } from '../pipeline/pool-runs.js';
import type { GateReport } from '../report/json.js';
import type { RunInput } from '../runs/load.js';
import type { Job } from './context.js';
import { keepsRuns } from './events.js';
import { restoreRuns, saveRuns, type RunsOwner } from './github/runs-cache.js';
import type { ActionInputs } from './inputs.js';
import type { SourcedPolicy } from './policy-source.js';
import type { PullRequest } from './pull-request.js';

/*
 * Re-runs are not draws (issue 21): on a pull request, every run of the same head commit under the same
 * policy decides on the candidate's records of all its runs so far, run j's as sample j of each example
 * (src/pipeline/pool-runs.ts). The runs are kept in the Actions cache (github/runs-cache.ts), where only
 * the pull request's own runs write and read them: never for another pull request or head commit, never
 * as a baseline.
 */

/** The candidate to gate, and its file when it is records or metrics given here (none for a posted report). */
export interface CandidateRun {
  run: RunInput;
  file?: string;
}

const sha256 = (text: Buffer | string) => createHash('sha256').update(text).digest('hex');

async function runsOwner(inputs: ActionInputs, policy: SourcedPolicy, pull: PullRequest): Promise<RunsOwner> {
  return {
    path: policy.path,
    policy: policy.policy.name,
    id: inputs.id,
    pullRequest: pull.number,
    headSha: pull.headSha,
    policySha256: policy.sha256,
    suiteSha256: inputs.suite && inputs.model && !inputs.candidate ? sha256(await readFile(inputs.suite)) : null,
    candidate: inputs.candidate
      ? `records ${inputs.candidate}${inputs.importFormat ? ` (${inputs.importFormat})` : ''}`
      : `model ${inputs.model ?? ''}`,
  };
}

/**
 * This run as the report and the cache name it: the workflow run and its attempt, and a random part
 * (two steps of one job gating the same candidate must not collide on an immutable key).
 */
function thisRun({ context }: Job): { source: string; key: string } {
  const nonce = randomBytes(4).toString('hex');
  if (!context.run) return { source: 'this run', key: `local-${nonce}` };
  const { id, attempt } = context.run;
  return { source: `workflow run ${id}, attempt ${attempt}`, key: `${id}-${attempt}-${nonce}` };
}

/** The earlier runs kept for this pull request, head commit and policy; a restore that failed is an error (never a decision on this run alone). */
async function earlierRuns(job: Job, owner: RunsOwner, temporary: string): Promise<RunToPool[]> {
  const kept = await restoreRuns(job, owner, temporary).catch((error: Error) => {
    throw new UsageError(
      `The earlier runs' records of this pull request could not be restored from the Actions cache: ${error.message}. ` +
        'A re-run decides on every run of its head commit, never on a fresh draw alone: re-run the job.',
    );
  });
  return kept ? [{ file: kept.file, source: 'the runs kept in the Actions cache', pooled: kept.runs }] : [];
}

/**
 * The candidate's report: on a pull request's run, pooled with the earlier runs of its head commit and
 * policy, and kept for the next; elsewhere (pushes, merge queues, workflow_run, a posted report's or a
 * metrics file's numbers, which have no records to pool) as it is.
 */
export async function gateCandidate(
  job: Job,
  inputs: ActionInputs,
  pull: PullRequest | undefined,
  candidate: CandidateRun,
  gate: Omit<GateRunInputs, 'candidate' | 'policy'> & { policy: SourcedPolicy },
  temporary: string,
): Promise<GateReport> {
  const { context, port } = job;
  if (!pull || !keepsRuns(context.eventName) || !candidate.file) return gateRun({ ...gate, candidate: candidate.run });
  if (candidate.run.kind !== 'records') {
    port.warning(
      "The candidate is a metrics file: a re-run cannot pool its numbers with earlier runs' (records can), so each run decides alone.",
    );
    return gateRun({ ...gate, candidate: candidate.run });
  }
  const owner = await runsOwner(inputs, gate.policy, pull);
  const run = thisRun(job);
  const runs = [...(await earlierRuns(job, owner, temporary)), { file: candidate.file, source: run.source }];
  const pooled = await poolRuns(runs, join(await mkdtemp(join(temporary, 'evalgate-pooled-')), 'candidate.jsonl'));
  const kept = await saveRuns(job, owner, { file: pooled.run.file, runs: pooled.runs }, run.key, temporary);
  if (pooled.runs.length > 1) {
    port.info(`Run ${pooled.runs.length} of this head commit: the candidate pools the records of runs 1-${pooled.runs.length}.`);
  }
  return gatePooled(gate, pooled, candidate.run, kept);
}
