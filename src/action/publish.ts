import { isAbsolute, relative, resolve } from 'node:path';
import { ConfigError, type InputError } from '../errors.js';
import { shownScope } from '../metrics/names.js';
import { escapeTerminal as shown } from '../report/escape.js';
import type { GateReport } from '../report/json.js';
import type { ActionPort, Job } from './context.js';
import { upsertComment, type CommentIdentity } from './github/comment.js';
import { OUTPUT } from './inputs.js';
import type { Octokit } from './pull-request.js';

/** Where the policy's checks are written, so that a check's annotation points at its line. */
export interface PolicyLines {
  /** The policy file's path in the repository. */
  path: string;
  checkLines: Array<number | undefined>;
  checks: Array<{ metric: string }>;
}

/**
 * The report in the job summary, and an annotation for every check that failed, warned or errored (and
 * for coverage), on the check's line of the policy file when it is known.
 */
export async function summarize(port: ActionPort, report: GateReport, markdown: string, policy?: PolicyLines): Promise<void> {
  await port.summary(markdown);
  report.checks.forEach((check, index) => {
    if (check.status !== 'fail' && check.status !== 'warn' && check.status !== 'error') return;
    const annotate = check.severity === 'block' ? 'error' : 'warning';
    // The report lists the policy's checks in its order.
    const inRepository = policy !== undefined && !isAbsolute(policy.path) && !policy.path.startsWith('..');
    const line = inRepository && policy.checks[index]?.metric === check.metric ? policy.checkLines[index] : undefined;
    port[annotate](shown(check.reasons.join('; ')), {
      title: `evalgate: ${shown(check.metric)} (${shown(shownScope(check))})`,
      ...(line === undefined ? {} : { file: policy!.path, startLine: line }),
    });
  });
  if (report.coverage && report.coverage.status !== 'pass') {
    port[report.coverage.status === 'fail' ? 'error' : 'warning'](shown(report.coverage.reason), { title: 'evalgate: coverage' });
  }
}

interface ApiError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
}

/** Whether GitHub refused a request for its rate limit: 429, or 403 with no requests left or a secondary limit's message. */
function isRateLimited(error: unknown): boolean {
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
 * The one sticky comment of the policy file (and id) on a pull request. It only ever warns when it
 * cannot be written: the outputs, the summary and the verdict are set before it and stand.
 */
export async function comment(
  { context, port }: Job,
  octokit: Octokit,
  issueNumber: number,
  markdown: string,
  identity: CommentIdentity & { path: string },
): Promise<void> {
  const { owner, repo } = context.repo;
  try {
    const outcome = await upsertComment(octokit, { owner, repo, issueNumber }, identity, markdown);
    port.info(`Comment ${outcome.action} on #${issueNumber}: ${outcome.url}`);
    port.setOutput(OUTPUT.commentUrl, outcome.url);
  } catch (error) {
    port.warning(commentFailure(error));
  }
}

/** A problem's place, "file:line[:col] message" as ConfigError and InputError write it. */
const AT_FILE_LINE = /^(.+?):(\d+)(?::(\d+))? (.*)$/s;

/**
 * Bad input as annotations on the file and line it names (a policy's or suite's problem, a bad record),
 * so that a pull request that breaks its policy shows the error in its diff. Paths inside the
 * workspace are given relative to it, as GitHub expects.
 */
export function annotateBadInput({ context, port }: Job, error: ConfigError | InputError): void {
  const workspace = context.workspace ?? process.cwd();
  const located =
    error instanceof ConfigError
      ? error.problems
          .map((problem) => AT_FILE_LINE.exec(problem))
          .map((match) => match && { file: match[1], line: Number(match[2]), col: match[3], text: match[4] })
      : [error.line === undefined ? null : { file: error.file, line: error.line, col: undefined, text: error.detail }];
  for (const place of located) {
    if (!place) continue;
    const file = relative(workspace, resolve(workspace, place.file));
    if (file.startsWith('..')) continue; // outside the repository: no line of the diff to point at
    port.error(shown(place.text), {
      title: 'evalgate: bad input',
      file,
      startLine: place.line,
      ...(place.col === undefined ? {} : { startColumn: Number(place.col) }),
    });
  }
}
