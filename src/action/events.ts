import * as github from '@actions/github';

/**
 * The events whose runs may write the Actions cache (the baseline, the completions): runs of the
 * repository's own branches. What a run saves there is restored by the runs that gate, so pull
 * requests (pull_request, pull_request_target), merge queues (merge_group), workflow_run (which gates
 * a fork's results) and every other event never write it, whatever save-baseline says.
 */
const CACHE_WRITING_EVENTS = ['push', 'workflow_dispatch', 'schedule'];

export function mayWriteCache(): boolean {
  return CACHE_WRITING_EVENTS.includes(github.context.eventName);
}

/** The branch this run is on (a tag's or another ref's full name otherwise). */
export function currentBranch(): string {
  return github.context.ref.replace(/^refs\/heads\//, '');
}
