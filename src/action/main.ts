import * as core from '@actions/core';
import * as github from '@actions/github';
import { join } from 'node:path';
import { countOutcomes } from '../gate/verdict.js';
import { escapeTerminal } from '../report/escape.js';
import { writeGateHtml } from '../report/html.js';
import { writeGateReport, type GateReport } from '../report/json.js';
import { gateMarkdown } from '../report/markdown.js';
import { evaluate } from './evaluation.js';
import { saveBaseline } from './github/cache.js';
import { OUTPUT, readInputs, type ActionInputs } from './inputs.js';
import { comment, summarize } from './publish.js';
import { pullRequestOf, reportedPullRequest } from './pull-request.js';

/** `save-baseline: auto` saves on pushes to the default branch. */
function shouldSaveBaseline(inputs: ActionInputs): boolean {
  if (inputs.saveBaseline !== 'auto') return inputs.saveBaseline === 'true';
  const defaultBranch = (github.context.payload.repository as { default_branch?: string } | undefined)?.default_branch;
  return github.context.eventName === 'push' && defaultBranch !== undefined && github.context.ref === `refs/heads/${defaultBranch}`;
}

/** Whether the step fails: as `fail-on` asks, unless the failure is waived. */
function stepFails(inputs: ActionInputs, report: GateReport, waived: boolean): boolean {
  if (waived || inputs.failOn === 'never') return false;
  return inputs.failOn === 'warn' ? report.verdict !== 'pass' : report.verdict === 'fail';
}

/**
 * The action: evaluate (or read a posted report), publish, save the baseline, set the outputs. The one
 * place that fails the step: bad input (with its file, line and field) and a verdict that `fail-on`
 * does not accept.
 */
export async function run(): Promise<void> {
  try {
    core.info(`evalgate on Node ${process.version}`);
    const inputs = readInputs();
    const pull = pullRequestOf(github.context.payload);
    const octokit = inputs.token ? github.getOctokit(inputs.token, { baseUrl: process.env.GITHUB_API_URL || undefined }) : undefined;
    const { report, candidateFile } = await evaluate(inputs, pull, octokit);

    const waived = report.verdict === 'fail' && inputs.waiverLabel !== undefined && pull?.labels.includes(inputs.waiverLabel) === true;
    const markdown = gateMarkdown(report, { waivedBy: waived ? inputs.waiverLabel : undefined });
    const reportPath = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-report.json');
    await writeGateReport(reportPath, report);
    const htmlPath = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-report.html');
    await writeGateHtml(htmlPath, report);
    await summarize(report, markdown);

    const target = pull?.number ?? (inputs.report && octokit ? await reportedPullRequest(report, octokit) : undefined);
    if (target !== undefined && inputs.comment && octokit) await comment(octokit, target, report, markdown);

    if (candidateFile && shouldSaveBaseline(inputs)) {
      // A failing run must not become what later pull requests are measured against.
      if (report.verdict === 'fail') core.warning('Not saved as the baseline: the verdict is fail.');
      else await saveBaseline(candidateFile, report.policy.name, github.context.sha);
    }

    core.setOutput(OUTPUT.verdict, report.verdict);
    core.setOutput(OUTPUT.failedChecks, countOutcomes(report.checks, report.coverage?.status).failed);
    core.setOutput(OUTPUT.report, reportPath);
    core.setOutput(OUTPUT.htmlReport, htmlPath);
    if (stepFails(inputs, report, waived)) core.setFailed(`evalgate: ${report.verdict} (policy ${escapeTerminal(report.policy.name)})`);
    else if (waived) core.warning(`evalgate: fail, waived by the label ${inputs.waiverLabel}`);
  } catch (error) {
    // Bad input (records, metrics, policy) carries its file, line and field in the message.
    // Messages quote data: each line escaped as the CLI does.
    core.setFailed((error instanceof Error ? error.message : String(error)).split('\n').map(escapeTerminal).join('\n'));
    try {
      core.setOutput(OUTPUT.verdict, 'error');
    } catch {
      // No output file (not on a runner): the failure above is what matters.
    }
  }
}
