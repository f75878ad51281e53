import * as core from '@actions/core';
import * as github from '@actions/github';
import { gateRun } from '../pipeline/gate-run.js';
import type { GateReport } from '../report/json.js';
import { loadRun } from '../runs/load.js';
import { candidateFile, claimedRun, givenFiles } from './candidate.js';
import { runEvalCommand } from './eval-command.js';
import { currentBranch } from './events.js';
import { restoreBaseline, type BaselineOwner } from './github/cache.js';
import type { ActionInputs } from './inputs.js';
import { readPolicy, type SourcedPolicy } from './policy-source.js';
import { baseCommitOf, type BaseCommit, type Octokit, type PullRequest } from './pull-request.js';
import { UsageError } from '../errors.js';

/** The baseline's owner in the Actions cache: this policy file, the id, and the branch. */
export function baselineOwner(inputs: ActionInputs, policy: SourcedPolicy, branch: string): BaselineOwner {
  return { path: policy.path, policy: policy.policy.name, id: inputs.id, branch };
}

interface BaselineFile {
  file: string;
  /** When it came from the Actions cache: the commit it was saved at, and whether the policy changed since. */
  restored?: { commit: string; policyChanged: boolean };
}

/**
 * The baseline: the given file, else the one saved in the Actions cache for the base branch (a pull
 * request's or merge queue's base commit's, else the newest of the branch; for a manual or scheduled
 * run this commit's). A push saves instead of restoring. require-baseline fails when none is found.
 */
async function baselineFile(
  inputs: ActionInputs,
  given: string | undefined,
  policy: SourcedPolicy,
  base: BaseCommit | undefined,
): Promise<BaselineFile | undefined> {
  if (given) return { file: given };
  if (github.context.eventName === 'push') return undefined;
  const owner = baselineOwner(inputs, policy, base?.branch ?? currentBranch());
  const restored = await restoreBaseline(owner, base?.sha ?? github.context.sha, policy.sha256);
  if (!restored && inputs.requireBaseline) {
    throw new UsageError(`No baseline for policy ${policy.policy.name}, and require-baseline is true: the gate cannot check regressions.`);
  }
  return restored && { file: restored.file, restored: { commit: restored.sha, policyChanged: restored.policyChanged } };
}

/** A gate's report, the candidate's file (to save as the next baseline), the policy that decided, and what the reader must know. */
export interface Evaluation {
  report: GateReport;
  /** Undefined when the candidate's numbers come from a posted report. */
  candidateFile?: string;
  policy: SourcedPolicy;
  /** Said under the verdict in the comment and the summary. */
  notes: string[];
  /** The candidate's numbers are a posted report's claim, not records gated here. */
  unverified: boolean;
}

/** The team's evaluation, run first (its output may be the candidate or the baseline); never on a posted report. */
async function runEvaluation(inputs: ActionInputs): Promise<void> {
  if (github.context.eventName === 'pull_request_target' && (inputs.suite || inputs.evalCommand)) {
    core.warning(
      "pull_request_target runs with the repository's secrets and a write token: a suite or eval-command from a pull request's checkout runs its code with them. Use pull_request, and for forks the two-workflow setup (README).",
    );
  }
  if (inputs.evalCommand) await runEvalCommand(inputs.evalCommand);
}

/** The candidate to gate: a posted report's claimed numbers, or results given or made here (a suite run). */
async function candidateRun(inputs: ActionInputs, posted: GateReport | undefined, given: string | undefined) {
  if (posted) return { run: claimedRun(posted, inputs.report!), file: undefined };
  const file = await candidateFile(inputs, given);
  return { run: await loadRun(file), file };
}

/** What the reader of the comment must know about where the numbers came from. */
function provenanceNotes(posted: GateReport | undefined, restored: BaselineFile['restored']): string[] {
  const notes: string[] = [];
  if (posted) {
    notes.push(
      "Unverified: the candidate's numbers are those of a report the pull request's own run made, not records gated here. " +
        "Every status was recomputed from those numbers under the policy at the base commit; the numbers themselves are that run's claim.",
    );
  } else if (github.context.eventName === 'workflow_run') {
    notes.push(
      "The records were uploaded by the pull request's own run and gated here under the policy at the base commit: " +
        "the decision is this repository's, what the records say about the model is that run's claim.",
    );
  }
  if (restored?.policyChanged) {
    notes.push(`The policy changed since this baseline was saved (at commit ${restored.commit.slice(0, 7)}): it gates as it is now.`);
  }
  return notes;
}

/**
 * Gates the candidate under the policy (at the base commit on pull requests, merge queues and
 * workflow_run) against the baseline. A posted report (the `report` input) is not taken at its word:
 * its candidate numbers are gated again here, and the result is marked unverified.
 */
export async function evaluate(
  inputs: ActionInputs,
  pull: PullRequest | undefined,
  octokit: Octokit | undefined,
  posted: GateReport | undefined,
): Promise<Evaluation> {
  const base = baseCommitOf(pull, github.context.payload);
  const policy = await readPolicy(inputs, base, octokit);
  if (!posted) await runEvaluation(inputs);
  const given = await givenFiles(inputs);
  const candidate = await candidateRun(inputs, posted, given.candidate);
  const baselineSource = await baselineFile(inputs, given.baseline, policy, base);
  const baseline = baselineSource ? await loadRun(baselineSource.file) : undefined;
  if (!baseline) core.warning('No baseline: regression checks are skipped; absolute bounds still gate.');
  const report = await gateRun({ policy, candidate: candidate.run, baseline });
  report.policy.source = policy.source;
  const restored = baselineSource?.restored;
  if (report.baseline && restored) report.baseline.commit = restored.commit;
  report.github = {
    event: github.context.eventName,
    sha: github.context.sha,
    pullRequest: pull ? { number: pull.number, baseSha: pull.baseSha, headSha: pull.headSha } : null,
  };
  const notes = provenanceNotes(posted, restored);
  return { report, candidateFile: candidate.file, policy, notes, unverified: posted !== undefined };
}
