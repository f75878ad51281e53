import * as core from '@actions/core';
import * as github from '@actions/github';
import type { GateReport } from '../report/json.js';

export type Octokit = ReturnType<typeof github.getOctokit>;

export interface PullRequest {
  number: number;
  baseSha: string;
  /** The base branch's name. */
  baseRef: string;
  headSha: string;
}

/** The pull request of the event that started the workflow, if any. */
export function pullRequestOf(payload: typeof github.context.payload): PullRequest | undefined {
  const pull = payload.pull_request as { number: number; base: { sha: string; ref: string }; head: { sha: string } } | undefined;
  if (!pull) return undefined;
  return { number: pull.number, baseSha: pull.base.sha, baseRef: pull.base.ref, headSha: pull.head.sha };
}

/** The pull request's labels as they are now: the event's payload lists them as they were when it fired (a re-run sees the same). */
export async function currentLabels(octokit: Octokit, number: number): Promise<string[]> {
  const { owner, repo } = github.context.repo;
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
  return data.labels.map((label) => label.name);
}

/** The commit a change is gated against, and its branch: a pull request's base, or a merge queue group's. */
export interface BaseCommit {
  sha: string;
  branch: string;
}

export function baseCommitOf(pull: PullRequest | undefined, payload: typeof github.context.payload): BaseCommit | undefined {
  if (pull) return { sha: pull.baseSha, branch: pull.baseRef };
  const group = payload.merge_group as { base_sha?: string; base_ref?: string } | undefined;
  if (!group?.base_sha || !group.base_ref) return undefined;
  return { sha: group.base_sha, branch: group.base_ref.replace(/^refs\/heads\//, '') };
}

/**
 * The pull request a posted report belongs to (the fork-safe second workflow, triggered by
 * workflow_run). The report is the fork's own word, so the number it records is trusted only if that
 * pull request's head is the commit the workflow run built: a report can only reach its own pull
 * request. Outside workflow_run nothing vouches for the number: no comment.
 */
export async function reportedPullRequest(report: GateReport, octokit: Octokit): Promise<number | undefined> {
  const recorded = report.github?.pullRequest;
  const built = (github.context.payload.workflow_run as { head_sha?: string } | undefined)?.head_sha;
  if (!recorded || built === undefined) return undefined;
  if (built !== recorded.headSha) {
    core.warning(
      `The report is for commit ${recorded.headSha.slice(0, 7)}, but the workflow run built ${built.slice(0, 7)}: not commenting.`,
    );
    return undefined;
  }
  const { owner, repo } = github.context.repo;
  const pull = await octokit.rest.pulls.get({ owner, repo, pull_number: recorded.number }).catch(() => undefined);
  if (pull?.data.head.sha !== built) {
    core.warning(`Pull request #${recorded.number} is not at commit ${built.slice(0, 7)}: not commenting.`);
    return undefined;
  }
  return recorded.number;
}
