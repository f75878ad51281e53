import type { MissingBaseline } from '../gate/not-compared.js';

/**
 * The events whose runs may write the Actions cache (the baseline, the completions): runs of the
 * repository's own branches. What a run saves there is restored by the runs that gate, so pull
 * requests (pull_request, pull_request_target), merge queues (merge_group), workflow_run (which gates
 * a fork's results) and every other event never write it, whatever save-baseline says.
 */
const CACHE_WRITING_EVENTS = ['push', 'workflow_dispatch', 'schedule'];

export function mayWriteCache(eventName: string): boolean {
  return CACHE_WRITING_EVENTS.includes(eventName);
}

/** The branch this run is on (a tag's or another ref's full name otherwise). */
export function currentBranch(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/**
 * The events that gate a change against the base branch's baseline: pull requests, merge queues and
 * workflow_run (a fork's pull request). There a baseline that exists but could not be restored is an
 * error: the gate never passes a change because the cache failed.
 */
const CHANGE_GATING_EVENTS = ['pull_request', 'pull_request_target', 'merge_group', 'workflow_run'];

export function gatesAChange(eventName: string): boolean {
  return CHANGE_GATING_EVENTS.includes(eventName);
}

/**
 * What a regression budget ends as without a baseline: where a change is gated it cannot be compared,
 * so inconclusive (require-baseline makes a missing baseline fail the step instead); elsewhere skipped.
 */
export function missingBaselineOn(eventName: string): MissingBaseline {
  return gatesAChange(eventName) ? 'inconclusive' : 'skip';
}

/** The warning's words for regression checks without a baseline on this event. */
export function withoutBaseline(eventName: string): string {
  return missingBaselineOn(eventName) === 'inconclusive' ? 'regression checks are inconclusive' : 'regression checks are skipped';
}

/** The repository's default branch, as the event's payload names it. */
export function defaultBranch(payload: Record<string, unknown>): string | undefined {
  return (payload.repository as { default_branch?: string } | undefined)?.default_branch;
}

/**
 * The events whose runs keep the candidate's records for a re-run to pool (the pull request's own
 * runs): in the Actions cache under a key of the pull request, its head commit and the policy, in the
 * scope GitHub gives the run (a pull_request run's is its pull request's merge ref, which no branch's
 * run and no other pull request reads). workflow_run never does: what it saves is the default branch's.
 */
const RUN_KEEPING_EVENTS = ['pull_request', 'pull_request_target'];

export function keepsRuns(eventName: string): boolean {
  return RUN_KEEPING_EVENTS.includes(eventName);
}
