import * as core from '@actions/core';
import * as github from '@actions/github';
import type { Octokit } from '../pull-request.js';

/*
 * The commit status the fork-safe second workflow (workflow_run) sets on the pull request's head: its
 * own job's checks are attached to the default branch, so this status is what branch protection can
 * require. Named after the policy input and the id, which the workflow file fixes.
 */

const MAX_CONTEXT = 100;
const MAX_DESCRIPTION = 140; // GitHub's limit

function cut(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** Where a status goes: the pull request's head commit, under the context "evalgate: <policy input>" (with " (<id>)" for matrix jobs). */
export interface StatusTarget {
  octokit: Octokit;
  sha: string;
  context: string;
}

export function statusTarget(octokit: Octokit, sha: string, policyInput: string, id: string | undefined): StatusTarget {
  return { octokit, sha, context: cut(`evalgate: ${policyInput}${id === undefined ? '' : ` (${id})`}`, MAX_CONTEXT) };
}

/** Sets the status; only warns when it cannot (the required check then keeps waiting: the merge stays blocked). */
export async function setCommitStatus(target: StatusTarget, state: 'success' | 'failure' | 'error', description: string): Promise<void> {
  const { owner, repo } = github.context.repo;
  const runUrl = `${process.env.GITHUB_SERVER_URL ?? 'https://github.com'}/${owner}/${repo}/actions/runs/${process.env.GITHUB_RUN_ID ?? ''}`;
  try {
    await target.octokit.rest.repos.createCommitStatus({
      owner,
      repo,
      sha: target.sha,
      state,
      context: target.context,
      description: cut(description, MAX_DESCRIPTION),
      target_url: runUrl,
    });
    core.info(`Commit status "${target.context}" set to ${state} on ${target.sha.slice(0, 7)}.`);
  } catch (error) {
    core.warning(
      `The commit status could not be set on ${target.sha.slice(0, 7)} (${(error as Error).message}; the job needs statuses: write): a required check waits for it.`,
    );
  }
}
