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

const cut = (text: string, max: number) =>
  Array.from(text).length > max
    ? `${Array.from(text)
        .slice(0, max - 1)
        .join('')}…`
    : text;

/** The status's name: "evalgate: policies/customer-support.yml", with " (id)" for matrix jobs. */
export function statusContext(policyInput: string, id: string | undefined): string {
  return cut(`evalgate: ${policyInput}${id === undefined ? '' : ` (${id})`}`, MAX_CONTEXT);
}

export async function setCommitStatus(
  octokit: Octokit,
  sha: string,
  status: { state: 'success' | 'failure'; context: string; description: string },
): Promise<void> {
  const { owner, repo } = github.context.repo;
  const runUrl = `${process.env.GITHUB_SERVER_URL ?? 'https://github.com'}/${owner}/${repo}/actions/runs/${process.env.GITHUB_RUN_ID ?? ''}`;
  try {
    await octokit.rest.repos.createCommitStatus({
      owner,
      repo,
      sha,
      state: status.state,
      context: status.context,
      description: cut(status.description, MAX_DESCRIPTION),
      target_url: runUrl,
    });
    core.info(`Commit status "${status.context}" set to ${status.state} on ${sha.slice(0, 7)}.`);
  } catch (error) {
    core.warning(
      `The commit status could not be set on ${sha.slice(0, 7)} (${(error as Error).message}; the job needs statuses: write): a required check waits for it.`,
    );
  }
}
