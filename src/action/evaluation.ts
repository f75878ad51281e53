import type { GateReport } from '../report/json.js';
import { loadRun, type RunInput } from '../runs/load.js';
import { judgingSuite, rejudgeBaselineIfJudgedOtherwise, rejudgeForkRecords, type Rejudged } from './rejudge.js';
import { candidateFile, claimedRun, givenFiles } from './candidate.js';
import type { Job } from './context.js';
import { runEvalCommand } from './eval-command.js';
import { currentBranch, gatesAChange, missingBaselineOn, withoutBaseline } from './events.js';
import { restoreBaseline, type BaselineOwner } from './github/cache.js';
import type { ActionInputs } from './inputs.js';
import { readPolicy, type SourcedPolicy } from './policy-source.js';
import { gateCandidate, type CandidateRun } from './reruns.js';
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
 * run this commit's), restored under `temporary`. A push saves instead of restoring. require-baseline
 * fails when none is found; a restore that failed (not "no entry") is an error on the events that gate
 * a change, and only warns elsewhere.
 */
async function baselineFile(
  job: Job,
  inputs: ActionInputs,
  given: string | undefined,
  policy: SourcedPolicy,
  base: BaseCommit | undefined,
  temporary: string,
): Promise<BaselineFile | undefined> {
  const { context, port } = job;
  if (given) return { file: given };
  if (context.eventName === 'push') return undefined;
  const owner = baselineOwner(inputs, policy, base?.branch ?? currentBranch(context.ref));
  const restored = await restoreBaseline(job, owner, base?.sha ?? context.sha, policy.sha256, temporary).catch((error: Error) => {
    const reason = `The baseline could not be restored from the Actions cache: ${error.message}`;
    if (gatesAChange(context.eventName)) {
      throw new UsageError(
        `${reason}. On ${context.eventName} events the gate does not decide without it: re-run the job (or, where the job may not read the cache, give the input baseline).`,
      );
    }
    port.warning(`${reason}; ${withoutBaseline(context.eventName)}.`);
    return undefined;
  });
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
async function runEvaluation({ context, port }: Job, inputs: ActionInputs): Promise<void> {
  if (context.eventName === 'pull_request_target' && (inputs.suite || inputs.evalCommand)) {
    port.warning(
      "pull_request_target runs with the repository's secrets and a write token: a suite or eval-command from a pull request's checkout runs its code with them. Use pull_request, and for forks the two-workflow setup (README).",
    );
  }
  if (inputs.evalCommand) await runEvalCommand(port, inputs.evalCommand);
}

/** The candidate to gate: a posted report's claimed numbers, or results given or made here (a suite run). */
async function candidateRun(job: Job, inputs: ActionInputs, posted: GateReport | undefined, given: string | undefined) {
  if (posted) return { run: claimedRun(posted, inputs.report!), file: undefined };
  const file = await candidateFile(job, inputs, given);
  return { run: await loadRun(file), file };
}

/** What the reader of the comment must know about where the numbers came from. */
function provenanceNotes(eventName: string, posted: GateReport | undefined, restored: BaselineFile['restored']): string[] {
  const notes: string[] = [];
  if (posted) {
    notes.push(
      "Unverified: the candidate's numbers are those of a report the pull request's own run made, not records gated here. " +
        "Every status was recomputed from those numbers under the policy at the base commit; the numbers themselves are that run's claim.",
    );
  } else if (eventName === 'workflow_run') {
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

/** The runs every pull request of a job is gated with: the candidate, and a given baseline file. */
interface Runs {
  candidate: { run: RunInput; file?: string };
  givenBaseline?: string;
}

/** What the gates of one job share: a posted report, the runs (made once, however many pull requests they are gated for), RUNNER_TEMP. */
export interface SharedInputs {
  posted?: GateReport;
  runs: () => Promise<Runs>;
  temporary: string;
}

/** The shared inputs; the team's evaluation, an import or a suite run happen once, at the first gate that asks. */
export function sharedInputs(job: Job, inputs: ActionInputs, posted: GateReport | undefined, temporary: string): SharedInputs {
  let runs: Promise<Runs> | undefined;
  const prepare = async (): Promise<Runs> => {
    if (!posted) await runEvaluation(job, inputs);
    const given = await givenFiles(job, inputs);
    return { candidate: await candidateRun(job, inputs, posted, given.candidate), givenBaseline: given.baseline };
  };
  return { posted, temporary, runs: () => (runs ??= prepare()) };
}

/** The runs as gated: the candidate and the baseline judged alike, and what was judged again (the report's `rejudged`). */
interface JudgedAlike {
  candidate: CandidateRun;
  baseline: RunInput | undefined;
  candidateRejudged?: RejudgedSummary;
  baselineRejudged?: RejudgedSummary;
  notes: string[];
}

type RejudgedSummary = NonNullable<GateReport['baseline']>['rejudged'];

const summaryOf = ({ before, records }: Rejudged): RejudgedSummary => ({ records, judgedBefore: before });

/**
 * With a judged suite: on workflow_run the candidate's records judged again by the base's suite, and
 * (rejudge-baseline) a baseline judged by another judge than the candidate judged again by the suite's.
 */
async function judgedAlike(
  job: Job,
  inputs: ActionInputs,
  { base, octokit, temporary }: { base: BaseCommit | undefined; octokit: Octokit | undefined; temporary: string },
  given: CandidateRun,
  baseline: RunInput | undefined,
): Promise<JudgedAlike> {
  const loaded = await judgingSuite(job, inputs, base, octokit, temporary);
  let judged: JudgedAlike = { candidate: given, baseline, notes: [] };
  if (!loaded || given.run.kind !== 'records') return judged;
  if (job.context.eventName === 'workflow_run') {
    const { rejudged, notes } = await rejudgeForkRecords(job, loaded, given.run, temporary);
    judged = { ...judged, candidate: { run: rejudged.run, file: rejudged.run.file }, candidateRejudged: summaryOf(rejudged), notes };
  }
  const candidate = judged.candidate.run;
  if (!inputs.rejudgeBaseline || baseline?.kind !== 'records' || candidate.kind !== 'records') return judged;
  const again = await rejudgeBaselineIfJudgedOtherwise(job, loaded, candidate, baseline, temporary);
  if (!again) return judged;
  const before = again.before.map((fingerprint) => `"${fingerprint}"`).join(' and ') || 'no judge';
  const note = `The baseline was judged again with the suite's judge (${again.records} records): it had been judged by ${before}.`;
  return { ...judged, baseline: again.run, baselineRejudged: summaryOf(again), notes: [...judged.notes, note] };
}

/**
 * Gates the candidate under the policy (at the base commit on pull requests, merge queues and
 * workflow_run) against the baseline (restored under RUNNER_TEMP). A posted report (the `report`
 * input) is not taken at its word: its candidate numbers are gated again here, and the result is
 * marked unverified.
 */
export async function evaluate(
  job: Job,
  inputs: ActionInputs,
  pull: PullRequest | undefined,
  octokit: Octokit | undefined,
  { posted, runs, temporary }: SharedInputs,
): Promise<Evaluation> {
  const { context, port } = job;
  const base = baseCommitOf(pull, context.payload);
  const policy = await readPolicy(inputs, base, octokit, job);
  const given = await runs();
  const baselineSource = await baselineFile(job, inputs, given.givenBaseline, policy, base, temporary);
  const loaded = baselineSource ? await loadRun(baselineSource.file) : undefined;
  if (!loaded) port.warning(`No baseline: ${withoutBaseline(context.eventName)}; absolute bounds still gate.`);
  const judged = await judgedAlike(job, inputs, { base, octokit, temporary }, given.candidate, loaded);
  const { candidate, baseline } = judged;
  const report = await gateCandidate(
    job,
    inputs,
    pull,
    candidate,
    { policy, baseline, missingBaseline: missingBaselineOn(context.eventName) },
    temporary,
  );
  report.policy.source = policy.source;
  const restored = baselineSource?.restored;
  if (report.baseline && restored) report.baseline.commit = restored.commit;
  if (report.baseline && judged.baselineRejudged) report.baseline.rejudged = judged.baselineRejudged;
  if (judged.candidateRejudged) report.candidate.rejudged = judged.candidateRejudged;
  report.github = {
    event: context.eventName,
    sha: context.sha,
    pullRequest: pull ? { number: pull.number, baseSha: pull.baseSha, headSha: pull.headSha } : null,
  };
  const notes = [...provenanceNotes(context.eventName, posted, restored), ...judged.notes];
  return { report, candidateFile: given.candidate.file, policy, notes, unverified: posted !== undefined };
}
