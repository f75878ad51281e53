import * as core from '@actions/core';
import * as github from '@actions/github';
import { escapeTerminal as shown } from '../report/escape.js';
import type { GateReport } from '../report/json.js';
import { commentMarker, upsertComment } from './github/comment.js';
import { OUTPUT } from './inputs.js';
import type { Octokit } from './pull-request.js';

/** The report in the job summary, and an annotation for every check that failed, warned or errored (and for coverage). */
export async function summarize(report: GateReport, markdown: string): Promise<void> {
  await core.summary.addRaw(markdown).write();
  for (const check of report.checks.filter((entry) => entry.status === 'fail' || entry.status === 'warn' || entry.status === 'error')) {
    const annotate = check.severity === 'block' ? core.error : core.warning;
    annotate(shown(check.reasons.join('; ')), { title: `evalgate: ${shown(check.metric)} (${shown(check.scope)})` });
  }
  if (report.coverage && report.coverage.status !== 'pass') {
    (report.coverage.status === 'fail' ? core.error : core.warning)(shown(report.coverage.reason), { title: 'evalgate: coverage' });
  }
}

interface ApiError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
}

/** Whether GitHub refused a request for its rate limit: 429, or 403 with no requests left or a secondary limit's message. */
export function isRateLimited(error: unknown): boolean {
  const { status, message = '', response } = error as ApiError;
  return status === 429 || (status === 403 && (response?.headers?.['x-ratelimit-remaining'] === '0' || /rate limit/i.test(message)));
}

/** Why the comment was not written, for a warning: the report is in the job summary either way. */
function commentFailure(error: unknown): string {
  const { status, message } = error as ApiError;
  if (isRateLimited(error)) {
    return "GitHub's API rate limit stopped the comment: the report is in the job summary (re-run the job later for the comment).";
  }
  if (status === 403) {
    return 'The token cannot comment on this pull request (a fork, or no pull-requests: write permission?): the report is in the job summary. See the README for the two-workflow setup.';
  }
  return `The comment could not be written (${status ? `HTTP ${status}: ` : ''}${message ?? String(error)}): the report is in the job summary.`;
}

/**
 * The one sticky comment of the report's policy (and id) on a pull request. It only ever warns when it
 * cannot be written: the outputs, the summary and the verdict are set before it and stand.
 */
export async function comment(octokit: Octokit, issueNumber: number, report: GateReport, markdown: string, id?: string): Promise<void> {
  const { owner, repo } = github.context.repo;
  const marker = commentMarker(report.policy.name, id);
  try {
    const outcome = await upsertComment(octokit, { owner, repo, issueNumber }, marker, `${marker}\n${markdown}`);
    core.info(`Comment ${outcome.action}: ${outcome.url}`);
    core.setOutput(OUTPUT.commentUrl, outcome.url);
  } catch (error) {
    core.warning(commentFailure(error));
  }
}
