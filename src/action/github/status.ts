import { createHash } from 'node:crypto';
import type { Job } from '../context.js';
import type { Octokit, PullRequest } from '../pull-request.js';

/*
 * The commit status the fork-safe second workflow (workflow_run) sets on the pull request's head: its
 * own job's checks are attached to the default branch, so this status is what branch protection can
 * require. Named after the policy input and the id, which the workflow file fixes, and the pull
 * request's base when it is not the default branch: a status belongs to the commit, which pull
 * requests into several branches may share, so a decision under one base must never read as another's.
 */

const MAX_CONTEXT = 100;
const MAX_DESCRIPTION = 140; // GitHub's limit

function cut(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** Over the limit, a context is cut and ends in a hash of the whole, so that two cut alike stay apart. */
function cutApart(text: string, max: number): string {
  if (Array.from(text).length <= max) return text;
  return `${cut(text, max - 17)}${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

/** Where a status goes: the pull request's head commit, under its context. */
export interface StatusTarget {
  octokit: Octokit;
  sha: string;
  context: string;
}

/** Names the status of a pull request gated under the policy input (and id); `defaultBranch`, the repository's. */
export interface StatusNaming {
  policyInput: string;
  id?: string;
  defaultBranch: string;
}

/**
 * The context: "evalgate: <policy input>", with " (<id>)" for matrix jobs, for pull requests into the
 * default branch (as earlier versions named it: branch protection keeps requiring it); for another
 * base " (<base>)" follows: "evalgate: <policy input>[ (<id>)] (<base>)". Only the default branch and
 * the branches base-branches lists are gated, all named by the workflow, so a fork cannot pick a base
 * whose context is another's; a matrix id must not be the name of a listed base (docs/action.md).
 */
function statusContext(policyInput: string, id: string | undefined, base: string | undefined): string {
  const named = `evalgate: ${policyInput}${id === undefined ? '' : ` (${id})`}`;
  return base === undefined ? cut(named, MAX_CONTEXT) : cutApart(`${named} (${base})`, MAX_CONTEXT);
}

export function statusTarget(octokit: Octokit, pull: PullRequest, naming: StatusNaming): StatusTarget {
  const base = pull.baseRef === naming.defaultBranch ? undefined : pull.baseRef;
  return { octokit, sha: pull.headSha, context: statusContext(naming.policyInput, naming.id, base) };
}

/** Sets the status; only warns when it cannot (the required check then keeps waiting: the merge stays blocked). */
export async function setCommitStatus(
  { context, port }: Job,
  target: StatusTarget,
  state: 'success' | 'failure' | 'error',
  description: string,
): Promise<void> {
  const { owner, repo } = context.repo;
  try {
    await target.octokit.rest.repos.createCommitStatus({
      owner,
      repo,
      sha: target.sha,
      state,
      context: target.context,
      description: cut(description, MAX_DESCRIPTION),
      target_url: context.runUrl(),
    });
    port.info(`Commit status "${target.context}" set to ${state} on ${target.sha.slice(0, 7)}.`);
  } catch (error) {
    port.warning(
      `The commit status could not be set on ${target.sha.slice(0, 7)} (${(error as Error).message}; the job needs statuses: write): a required check waits for it.`,
    );
  }
}
