import { getOctokit } from '@actions/github';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, InputError, isBadInput, UsageError } from '../errors.js';
import { countOutcomes } from '../gate/verdict.js';
import { codeSpan, escapeTerminal } from '../report/escape.js';
import { writeGateHtml } from '../report/html.js';
import { parseGateReport, writeGateReport, type GateReport } from '../report/json.js';
import { gateMarkdown } from '../report/markdown.js';
import { runnerContext, runnerPort, type ActionContext, type ActionPort, type Job } from './context.js';
import { baselineOwner, evaluate, sharedInputs, type Evaluation, type SharedInputs } from './evaluation.js';
import { currentBranch, defaultBranch, mayWriteCache } from './events.js';
import { saveBaseline } from './github/cache.js';
import { setCommitStatus, statusTarget, type StatusTarget } from './github/status.js';
import { OUTPUT, readInputs, type ActionInputs } from './inputs.js';
import { annotateBadInput, comment, summarize } from './publish.js';
import { currentLabels, pullRequestOf, workflowRunPullRequests, type Octokit, type PullRequest } from './pull-request.js';

/**
 * `save-baseline: auto` saves on pushes to the default branch, `true` on every push, manual and scheduled
 * run; never on the events that may not write the Actions cache (pull requests, merge queues,
 * workflow_run), whatever the input says.
 */
function shouldSaveBaseline({ context, port }: Job, inputs: ActionInputs): boolean {
  if (!mayWriteCache(context.eventName)) {
    if (inputs.saveBaseline === 'true') {
      port.warning(
        `save-baseline: true is ignored on ${context.eventName} events: what a pull request evaluated never becomes the baseline (pushes to the base branch save it).`,
      );
    }
    return false;
  }
  if (inputs.saveBaseline !== 'auto') return inputs.saveBaseline === 'true';
  const main = defaultBranch(context.payload);
  return context.eventName === 'push' && main !== undefined && context.ref === `refs/heads/${main}`;
}

/** Whether the step fails: as `fail-on` asks, unless the failure is waived. */
function stepFails(inputs: ActionInputs, report: GateReport, waived: boolean): boolean {
  if (waived || inputs.failOn === 'never') return false;
  return inputs.failOn === 'warn' ? report.verdict !== 'pass' : report.verdict === 'fail';
}

/** Whether a failing verdict is waived: the waiver label is on the pull request now (asked of the API; the event's payload may be stale). */
async function isWaived(
  { context, port }: Job,
  inputs: ActionInputs,
  report: GateReport,
  pull: PullRequest | undefined,
  octokit: Octokit | undefined,
): Promise<boolean> {
  if (report.verdict !== 'fail' || inputs.waiverLabel === undefined || !pull) return false;
  if (!octokit) {
    port.warning('The waiver label cannot be read without the input github-token: not waived.');
    return false;
  }
  try {
    return (await currentLabels(octokit, context.repo, pull.number)).includes(inputs.waiverLabel);
  } catch (error) {
    port.warning(`The pull request's labels could not be read (${(error as Error).message}): the waiver label is not applied.`);
    return false;
  }
}

/** The report's file (the output `report`), and the outputs: set before anything that talks to GitHub, which only warns. */
async function setOutputs(port: ActionPort, report: GateReport, temporary: string): Promise<void> {
  const reportPath = join(temporary, 'evalgate-report.json');
  await writeGateReport(reportPath, report);
  const htmlPath = join(temporary, 'evalgate-report.html');
  await writeGateHtml(htmlPath, report);
  port.setOutput(OUTPUT.verdict, report.verdict);
  port.setOutput(OUTPUT.outcome, report.outcome ?? report.verdict);
  port.setOutput(OUTPUT.failedChecks, countOutcomes(report.checks, report.coverage?.status).failed);
  port.setOutput(OUTPUT.report, reportPath);
  port.setOutput(OUTPUT.htmlReport, htmlPath);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Fails the step with an error's message; bad input (records, metrics, policy) carries its file, line and field in it. */
function failStep(job: Job, error: unknown): string {
  const { port } = job;
  const message = messageOf(error);
  // On the file and line of the bad input too, where a pull request's diff shows it.
  if (error instanceof ConfigError || error instanceof InputError) annotateBadInput(job, error);
  // Messages quote data: each line escaped as the CLI does.
  port.setFailed(message.split('\n').map(escapeTerminal).join('\n'));
  // Anything else is a bug: its stack (src/ files and lines, by the bundle's source map) goes to the log.
  if (!isBadInput(error) && error instanceof Error && error.stack) port.info(error.stack.split('\n').map(escapeTerminal).join('\n'));
  try {
    port.setOutput(OUTPUT.verdict, 'error');
    port.setOutput(OUTPUT.outcome, 'error');
  } catch {
    // No output file (not on a runner): the failure above is what matters.
  }
  return message;
}

/** The gate of one pull request (or of the event, when it has none). */
interface Gated {
  evaluation: Evaluation;
  markdown: string;
  waived: boolean;
  fails: boolean;
}

/**
 * One pull request's outcome (gated, or an error: workflow_run gates each pull request on its own),
 * and on workflow_run the commit status it decides.
 */
type Decision = (Gated | { error: unknown }) & { pull?: PullRequest; status?: StatusTarget };

const VERDICT_RANK = { pass: 0, warn: 1, fail: 2 } as const;

/** What the commit status says of a decision. */
function statusOf(decision: Decision): { state: 'success' | 'failure' | 'error'; description: string } {
  if ('error' in decision) return { state: 'error', description: messageOf(decision.error) };
  const { report, unverified } = decision.evaluation;
  const how = `${decision.waived ? ' (waived by label)' : ''}${unverified ? ', unverified report' : ''}`;
  return { state: decision.fails ? 'failure' : 'success', description: `${report.verdict}${how} · policy ${report.policy.name}` };
}

/**
 * The statuses of the decisions, one per context: pull requests into one base at this commit share
 * it, and it says success only when every one of them passes; an error wins over a failure.
 */
async function setStatuses(job: Job, decisions: Decision[]): Promise<void> {
  const byContext = new Map<string, { target: StatusTarget; decisions: Decision[] }>();
  for (const decision of decisions) {
    const target = decision.status;
    if (!target) continue; // not a workflow_run: the job's own check is the status
    const entry = byContext.get(target.context) ?? { target, decisions: [] };
    byContext.set(target.context, { ...entry, decisions: [...entry.decisions, decision] });
  }
  for (const { target, decisions: shared } of byContext.values()) {
    const statuses = shared.map(statusOf);
    const state = (['error', 'failure'] as const).find((worse) => statuses.some((status) => status.state === worse)) ?? 'success';
    const description =
      shared.length === 1 ? statuses[0].description : shared.map((d, i) => `#${d.pull?.number}: ${statuses[i].description}`).join('; ');
    await setCommitStatus(job, target, state, description);
  }
}

/** Gates one pull request (or the event's change): evaluated, waived or not, its markdown. */
async function gate(
  job: Job,
  inputs: ActionInputs,
  pull: PullRequest | undefined,
  octokit: Octokit | undefined,
  shared: SharedInputs,
): Promise<Gated> {
  const evaluation = await evaluate(job, inputs, pull, octokit, shared);
  const { report, notes, unverified } = evaluation;
  const waived = await isWaived(job, inputs, report, pull, octokit);
  const markdown = gateMarkdown(report, { waivedBy: waived ? inputs.waiverLabel : undefined, notes, unverified });
  return { evaluation, markdown, waived, fails: stepFails(inputs, report, waived) };
}

/** Saves the candidate as the baseline when the event and save-baseline ask for it, and the verdict allows. */
async function saveIfAsked(
  job: Job,
  inputs: ActionInputs,
  { candidateFile, report, policy }: Evaluation,
  temporary: string,
): Promise<void> {
  if (!candidateFile || !shouldSaveBaseline(job, inputs)) return;
  const { context, port } = job;
  // A failing run must not become what later pull requests are measured against.
  if (report.verdict === 'fail') {
    port.warning('Not saved as the baseline: the verdict is fail.');
    return;
  }
  const owner = baselineOwner(inputs, policy, currentBranch(context.ref));
  await saveBaseline(job, candidateFile, owner, context.sha, policy.sha256, temporary);
}

/**
 * Publishes what was decided: the outputs (of the worst verdict; `error` when a pull request could
 * not be gated), the job summary, the baseline, each pull request's comment, and the statuses; then
 * fails the step when any decision asks it to.
 */
async function publish(
  job: Job,
  inputs: ActionInputs,
  decisions: Decision[],
  octokit: Octokit | undefined,
  temporary: string,
): Promise<void> {
  const { port } = job;
  const gated = decisions.filter((decision): decision is Gated & Decision => 'evaluation' in decision);
  const errors = decisions.flatMap((decision) => ('error' in decision ? [decision.error] : []));
  const worst = [...gated].sort((a, b) => VERDICT_RANK[b.evaluation.report.verdict] - VERDICT_RANK[a.evaluation.report.verdict])[0];
  if (worst) await setOutputs(port, worst.evaluation.report, temporary);
  for (const { pull, evaluation, markdown } of gated) {
    const { report, policy } = evaluation;
    const heading = decisions.length > 1 && pull ? `### Pull request #${pull.number} into ${codeSpan(pull.baseRef)}\n\n` : '';
    await summarize(port, report, heading + markdown, { path: policy.path, checkLines: policy.checkLines, checks: policy.policy.checks });
    await saveIfAsked(job, inputs, evaluation, temporary);
    if (pull && inputs.comment && octokit) {
      await comment(job, octokit, pull.number, markdown, { policy: report.policy.name, id: inputs.id, path: policy.path });
    }
  }
  for (const error of errors) failStep(job, error);
  await setStatuses(job, decisions);
  for (const { evaluation, waived, fails } of gated) {
    const { report } = evaluation;
    if (fails) port.setFailed(`evalgate: ${report.verdict} (policy ${escapeTerminal(report.policy.name)})`);
    else if (waived) port.warning(`evalgate: fail, waived by the label ${inputs.waiverLabel}`);
  }
}

/**
 * The pull requests this run gates: the event's (or none: a push, a manual run), or for workflow_run
 * those at the commit the triggering run built, into a gated base (asked of the API), each with the
 * commit status it decides.
 */
async function gatedPullRequests(
  job: Job,
  inputs: ActionInputs,
  octokit: Octokit | undefined,
  posted: GateReport | undefined,
): Promise<Array<{ pull?: PullRequest; status?: StatusTarget }>> {
  const { context } = job;
  if (context.eventName !== 'workflow_run') return [{ pull: pullRequestOf(context.payload) }];
  if (!octokit) throw new UsageError('On workflow_run the action needs the input github-token to find the pull request it gates.');
  const main = defaultBranch(context.payload);
  if (!main) throw new UsageError('The workflow_run event names no default branch of the repository: nothing to gate.');
  const pulls = await workflowRunPullRequests(octokit, posted, { defaultBranch: main, others: inputs.baseBranches }, job);
  return pulls.map((pull) => ({
    pull,
    status: statusTarget(octokit, pull, { policyInput: inputs.policy, id: inputs.id, defaultBranch: main }),
  }));
}

/**
 * The action: evaluate, set the outputs, publish, save the baseline. The one place that fails the
 * step: bad input (with its file, line and field) and a verdict that `fail-on` does not accept. What
 * talks to GitHub after the outputs are set (the comment, the status) only warns. On workflow_run
 * each pull request at the built commit is gated on its own, and one that cannot be gated sets its
 * status to error without stopping the others.
 */
export async function run(context: ActionContext, port: ActionPort): Promise<void> {
  const job: Job = { context, port };
  let targets: StatusTarget[] = []; // on workflow_run: the pull requests' heads, which get the decisions
  try {
    port.info(`evalgate on Node ${process.version}`);
    const inputs = readInputs(context, port);
    const octokit = inputs.token ? getOctokit(inputs.token, { baseUrl: context.apiUrl || undefined }) : undefined;
    const posted = inputs.report ? parseGateReport(await readFile(inputs.report, 'utf8'), inputs.report) : undefined;
    const temporary = context.runnerTemp;
    const shared = sharedInputs(job, inputs, posted, temporary);
    const pulls = await gatedPullRequests(job, inputs, octokit, posted); // none on workflow_run: warned, the newer run decides
    targets = pulls.flatMap(({ status }) => (status ? [status] : []));
    const decisions: Decision[] = [];
    for (const { pull, status } of pulls) {
      const outcome = await gate(job, inputs, pull, octokit, shared).catch((error: unknown) => ({ error }));
      decisions.push({ ...outcome, pull, status });
    }
    await publish(job, inputs, decisions, octokit, temporary);
  } catch (error) {
    const message = failStep(job, error);
    for (const target of targets) await setCommitStatus(job, target, 'error', message);
  }
}

/** The action as the runner starts it: its context and port from @actions/core and @actions/github. */
export async function main(): Promise<void> {
  await run(runnerContext(), runnerPort);
}
