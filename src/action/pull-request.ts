import type { getOctokit } from '@actions/github';
import { UsageError } from '../errors.js';
import { escapeTerminal } from '../report/escape.js';
import type { GateReport } from '../report/json.js';
import type { Job } from './context.js';

export type Octokit = ReturnType<typeof getOctokit>;

/** A repository: its owner and name. */
export interface Repository {
  owner: string;
  repo: string;
}

export interface PullRequest {
  number: number;
  baseSha: string;
  /** The base branch's name. */
  baseRef: string;
  headSha: string;
}

/** The pull request of the event that started the workflow, if any. */
export function pullRequestOf(payload: Record<string, unknown>): PullRequest | undefined {
  const pull = payload.pull_request as { number: number; base: { sha: string; ref: string }; head: { sha: string } } | undefined;
  if (!pull) return undefined;
  return { number: pull.number, baseSha: pull.base.sha, baseRef: pull.base.ref, headSha: pull.head.sha };
}

/** The pull request's labels as they are now: the event's payload lists them as they were when it fired (a re-run sees the same). */
export async function currentLabels(octokit: Octokit, { owner, repo }: Repository, number: number): Promise<string[]> {
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
  return data.labels.map((label) => label.name);
}

/** The commit a change is gated against, and its branch: a pull request's base, or a merge queue group's. */
export interface BaseCommit {
  sha: string;
  branch: string;
}

export function baseCommitOf(pull: PullRequest | undefined, payload: Record<string, unknown>): BaseCommit | undefined {
  if (pull) return { sha: pull.baseSha, branch: pull.baseRef };
  const group = payload.merge_group as { base_sha?: string; base_ref?: string } | undefined;
  if (!group?.base_sha || !group.base_ref) return undefined;
  return { sha: group.base_sha, branch: group.base_ref.replace(/^refs\/heads\//, '') };
}

interface WorkflowRun {
  head_sha?: string;
  head_branch?: string;
  head_repository?: { owner?: { login?: string } };
  pull_requests?: Array<{ number: number }>;
}

/** A pull request as the API has it now; undefined when there is no such pull request. */
async function fetchPullRequest(octokit: Octokit, { owner, repo }: Repository, number: number): Promise<PullRequest | undefined> {
  try {
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
    return { number, baseSha: data.base.sha, baseRef: data.base.ref, headSha: data.head.sha };
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}

/**
 * The numbers of the pull requests a workflow run may belong to: those its payload lists (branches of
 * this repository), else the open ones of its head branch (a fork's: GitHub leaves them out).
 */
async function candidateNumbers(octokit: Octokit, { owner, repo }: Repository, run: WorkflowRun): Promise<number[]> {
  const listed = (run.pull_requests ?? []).map((pull) => pull.number);
  const headOwner = run.head_repository?.owner?.login;
  if (listed.length > 0 || !headOwner || !run.head_branch) return listed;
  const { data } = await octokit.rest.pulls.list({ owner, repo, state: 'open', head: `${headOwner}:${run.head_branch}`, per_page: 100 });
  return data.map((pull) => pull.number);
}

/** Which pull requests a workflow_run job gates: those into the default branch, and into the branches base-branches lists. */
export interface GatedBases {
  defaultBranch: string;
  others: string[];
}

/**
 * The pull requests a workflow_run job gates (the fork-safe second workflow): every open one whose
 * head, asked of the API, is the commit the triggering run built, so that results reach only their
 * own pull requests, and whose base is a gated branch (a fork can open pull requests into any branch;
 * one into a branch nobody gates must not decide for the others). A posted report names its number,
 * which is checked the same way (a report aimed at another pull request is refused). None, with a
 * warning, when no pull request is: nothing is gated or posted then.
 */
export async function workflowRunPullRequests(
  octokit: Octokit,
  posted: GateReport | undefined,
  bases: GatedBases,
  { context, port }: Job,
): Promise<PullRequest[]> {
  const run = (context.payload.workflow_run ?? {}) as WorkflowRun;
  const built = run.head_sha;
  if (!built) throw new UsageError('The workflow_run event names no head commit: nothing to gate.');
  let numbers: number[];
  if (posted) {
    const recorded = posted.github?.pullRequest;
    if (!recorded || recorded.headSha !== built) {
      const claim = recorded ? `is for commit ${recorded.headSha.slice(0, 7)}` : 'names no pull request';
      port.warning(`The report ${claim}, but the workflow run built ${built.slice(0, 7)}: not commenting.`);
      return [];
    }
    numbers = [recorded.number];
  } else {
    numbers = await candidateNumbers(octokit, context.repo, run);
  }
  const gated: PullRequest[] = [];
  for (const number of new Set(numbers)) {
    const pull = await fetchPullRequest(octokit, context.repo, number);
    if (pull?.headSha !== built) port.warning(`Pull request #${number} is not at commit ${built.slice(0, 7)}: not commenting.`);
    else if (pull.baseRef !== bases.defaultBranch && !bases.others.includes(pull.baseRef)) {
      port.warning(
        `Pull request #${number} is into ${escapeTerminal(pull.baseRef)}, which is not gated here (the default branch ${bases.defaultBranch}, and base-branches): not gated.`,
      );
    } else gated.push(pull);
  }
  if (numbers.length === 0) port.warning(`No open pull request of this repository has the commit ${built.slice(0, 7)}: not commenting.`);
  return gated;
}
