import * as core from '@actions/core';
import * as github from '@actions/github';
import type { GateReport } from '../report/json.js';
import { commentMarker, upsertComment } from './github/comment.js';
import { OUTPUT } from './inputs.js';
import type { Octokit } from './pull-request.js';

/** The report in the job summary, and an annotation for every check that failed or errored (and for coverage). */
export async function summarize(report: GateReport, markdown: string): Promise<void> {
  await core.summary.addRaw(markdown).write();
  for (const check of report.checks.filter((entry) => entry.status === 'fail' || entry.status === 'error')) {
    const annotate = check.severity === 'block' ? core.error : core.warning;
    annotate(check.reasons.join('; '), { title: `evalgate: ${check.metric} (${check.scope})` });
  }
  if (report.coverage && report.coverage.status !== 'pass') {
    (report.coverage.status === 'fail' ? core.error : core.warning)(report.coverage.reason, { title: 'evalgate: coverage' });
  }
}

/** The one sticky comment of the report's policy on a pull request; a token that may not comment only warns. */
export async function comment(octokit: Octokit, issueNumber: number, report: GateReport, markdown: string, id?: string): Promise<void> {
  const { owner, repo } = github.context.repo;
  const marker = commentMarker(report.policy.name, id);
  try {
    const outcome = await upsertComment(octokit, { owner, repo, issueNumber }, marker, `${marker}\n${markdown}`);
    core.info(`Comment ${outcome.action}: ${outcome.url}`);
    core.setOutput(OUTPUT.commentUrl, outcome.url);
  } catch (error) {
    if ((error as { status?: number }).status !== 403) throw error;
    core.warning(
      'The token cannot comment on this pull request (a fork?): the report is in the job summary. See the README for the two-workflow setup.',
    );
  }
}
