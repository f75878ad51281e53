import * as core from '@actions/core';
import * as github from '@actions/github';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, InputError, isBadInput, UsageError } from '../errors.js';
import { countOutcomes } from '../gate/verdict.js';
import { escapeTerminal } from '../report/escape.js';
import { writeGateHtml } from '../report/html.js';
import { parseGateReport, writeGateReport, type GateReport } from '../report/json.js';
import { gateMarkdown } from '../report/markdown.js';
import { baselineOwner, evaluate } from './evaluation.js';
import { currentBranch, mayWriteCache } from './events.js';
import { saveBaseline } from './github/cache.js';
import { setCommitStatus, statusTarget, type StatusTarget } from './github/status.js';
import { OUTPUT, readInputs, type ActionInputs } from './inputs.js';
import { annotateBadInput, comment, summarize } from './publish.js';
import { currentLabels, pullRequestOf, workflowRunPullRequest, type Octokit, type PullRequest } from './pull-request.js';

/**
 * `save-baseline: auto` saves on pushes to the default branch, `true` on every push, manual and scheduled
 * run; never on the events that may not write the Actions cache (pull requests, merge queues,
 * workflow_run), whatever the input says.
 */
function shouldSaveBaseline(inputs: ActionInputs): boolean {
  if (!mayWriteCache()) {
    if (inputs.saveBaseline === 'true') {
      core.warning(
        `save-baseline: true is ignored on ${github.context.eventName} events: what a pull request evaluated never becomes the baseline (pushes to the base branch save it).`,
      );
    }
    return false;
  }
  if (inputs.saveBaseline !== 'auto') return inputs.saveBaseline === 'true';
  const defaultBranch = (github.context.payload.repository as { default_branch?: string } | undefined)?.default_branch;
  return github.context.eventName === 'push' && defaultBranch !== undefined && github.context.ref === `refs/heads/${defaultBranch}`;
}

/** Whether the step fails: as `fail-on` asks, unless the failure is waived. */
function stepFails(inputs: ActionInputs, report: GateReport, waived: boolean): boolean {
  if (waived || inputs.failOn === 'never') return false;
  return inputs.failOn === 'warn' ? report.verdict !== 'pass' : report.verdict === 'fail';
}

/** Whether a failing verdict is waived: the waiver label is on the pull request now (asked of the API; the event's payload may be stale). */
async function isWaived(
  inputs: ActionInputs,
  report: GateReport,
  pull: PullRequest | undefined,
  octokit: Octokit | undefined,
): Promise<boolean> {
  if (report.verdict !== 'fail' || inputs.waiverLabel === undefined || !pull) return false;
  if (!octokit) {
    core.warning('The waiver label cannot be read without the input github-token: not waived.');
    return false;
  }
  try {
    return (await currentLabels(octokit, pull.number)).includes(inputs.waiverLabel);
  } catch (error) {
    core.warning(`The pull request's labels could not be read (${(error as Error).message}): the waiver label is not applied.`);
    return false;
  }
}

/** The report's file (the output `report`), and the outputs: set before anything that talks to GitHub, which only warns. */
async function setOutputs(report: GateReport): Promise<void> {
  const reportPath = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-report.json');
  await writeGateReport(reportPath, report);
  const htmlPath = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-report.html');
  await writeGateHtml(htmlPath, report);
  core.setOutput(OUTPUT.verdict, report.verdict);
  core.setOutput(OUTPUT.failedChecks, countOutcomes(report.checks, report.coverage?.status).failed);
  core.setOutput(OUTPUT.report, reportPath);
  core.setOutput(OUTPUT.htmlReport, htmlPath);
}

/** The pull request this run gates: the event's, or for workflow_run the one the triggering run built (asked of the API). */
async function gatedPullRequest(octokit: Octokit | undefined, posted: GateReport | undefined): Promise<PullRequest | undefined> {
  if (github.context.eventName !== 'workflow_run') return pullRequestOf(github.context.payload);
  if (!octokit) throw new UsageError('On workflow_run the action needs the input github-token to find the pull request it gates.');
  return workflowRunPullRequest(octokit, posted);
}

/**
 * The action: evaluate, set the outputs, publish, save the baseline. The one place that fails the
 * step: bad input (with its file, line and field) and a verdict that `fail-on` does not accept. What
 * talks to GitHub after the outputs are set (the comment, the status) only warns.
 */
export async function run(): Promise<void> {
  let status: StatusTarget | undefined; // on workflow_run: the pull request's head, which gets the decision
  try {
    core.info(`evalgate on Node ${process.version}`);
    const inputs = readInputs();
    const octokit = inputs.token ? github.getOctokit(inputs.token, { baseUrl: process.env.GITHUB_API_URL || undefined }) : undefined;
    const posted = inputs.report ? parseGateReport(await readFile(inputs.report, 'utf8'), inputs.report) : undefined;
    const pull = await gatedPullRequest(octokit, posted);
    if (github.context.eventName === 'workflow_run') {
      if (!pull || !octokit) return; // a run of a commit no pull request is at now (warned): the newer run decides
      status = statusTarget(octokit, pull.headSha, inputs.policy, inputs.id);
    }
    const { report, candidateFile, policy, notes, unverified } = await evaluate(inputs, pull, octokit, posted);

    const waived = await isWaived(inputs, report, pull, octokit);
    const markdown = gateMarkdown(report, { waivedBy: waived ? inputs.waiverLabel : undefined, notes, unverified });
    await setOutputs(report);
    await summarize(report, markdown, { path: policy.path, checkLines: policy.checkLines, checks: policy.policy.checks });

    if (candidateFile && shouldSaveBaseline(inputs)) {
      // A failing run must not become what later pull requests are measured against.
      if (report.verdict === 'fail') core.warning('Not saved as the baseline: the verdict is fail.');
      else await saveBaseline(candidateFile, baselineOwner(inputs, policy, currentBranch()), github.context.sha, policy.sha256);
    }
    if (pull && inputs.comment && octokit) await comment(octokit, pull.number, report, markdown, inputs.id);
    const fails = stepFails(inputs, report, waived);
    if (status) {
      const how = `${waived ? ' (waived by label)' : ''}${unverified ? ', unverified report' : ''}`;
      await setCommitStatus(status, fails ? 'failure' : 'success', `${report.verdict}${how} · policy ${report.policy.name}`);
    }
    if (fails) core.setFailed(`evalgate: ${report.verdict} (policy ${escapeTerminal(report.policy.name)})`);
    else if (waived) core.warning(`evalgate: fail, waived by the label ${inputs.waiverLabel}`);
  } catch (error) {
    // Bad input (records, metrics, policy) carries its file, line and field in the message.
    const message = error instanceof Error ? error.message : String(error);
    // On the file and line of the bad input too, where a pull request's diff shows it.
    if (error instanceof ConfigError || error instanceof InputError) annotateBadInput(error);
    // Messages quote data: each line escaped as the CLI does.
    core.setFailed(message.split('\n').map(escapeTerminal).join('\n'));
    // Anything else is a bug: its stack (src/ files and lines, by the bundle's source map) goes to the log.
    if (!isBadInput(error) && error instanceof Error && error.stack) core.info(error.stack.split('\n').map(escapeTerminal).join('\n'));
    if (status) await setCommitStatus(status, 'error', message);
    try {
      core.setOutput(OUTPUT.verdict, 'error');
    } catch {
      // No output file (not on a runner): the failure above is what matters.
    }
  }
}
