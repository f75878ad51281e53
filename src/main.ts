import * as core from '@actions/core';
import * as github from '@actions/github';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { countOutcomes, evaluateGate } from './gate/evaluate.js';
import { loadRun } from './gate/inputs.js';
import { COMPLETIONS_DIRECTORY, restoreBaseline, restoreCompletions, saveBaseline, saveCompletions } from './github/baseline-cache.js';
import { commentMarker, fileAtCommit, upsertComment } from './github/comment.js';
import { OUTPUT, readInputs, type ActionInputs } from './github/inputs.js';
import { loadPolicy, parsePolicy, type LoadedPolicy } from './policy/load.js';
import { gateMarkdown } from './report/gate-markdown.js';
import { buildGateReport, parseGateReport, type GateReport } from './report/gate-report.js';
import { importResults, type ImportFormat } from './importers/index.js';
import { adapterFromSpec } from './runner/adapters.js';
import { CompletionCache } from './runner/cache.js';
import { childEnvironment } from './runner/child-env.js';
import { progressReporter } from './runner/progress.js';
import { lexicalToxicity } from './runner/toxicity.js';
import { DEFAULT_RUN_OPTIONS, describeRun, runSuite } from './runner/run.js';
import { writeRecords } from './records/write.js';
import { loadSuite } from './runner/suite.js';

type Octokit = ReturnType<typeof github.getOctokit>;

interface PullRequest {
  number: number;
  baseSha: string;
  headSha: string;
  labels: string[];
}

function pullRequestOf(payload: typeof github.context.payload): PullRequest | undefined {
  const pull = payload.pull_request as
    | { number: number; base: { sha: string }; head: { sha: string }; labels?: Array<{ name: string }> }
    | undefined;
  if (!pull) return undefined;
  return { number: pull.number, baseSha: pull.base.sha, headSha: pull.head.sha, labels: (pull.labels ?? []).map((label) => label.name) };
}

/** A path as the repository names it (for the contents API), however the input wrote it: "./p.yml", an absolute path in the workspace, "a/../p.yml". */
function repositoryPath(path: string): string {
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  const inRepository = relative(workspace, resolve(workspace, path)).split(sep).join('/');
  if (inRepository.startsWith('../') || inRepository === '..' || isAbsolute(inRepository)) {
    throw new Error(`The policy ${path} is outside the repository, so it cannot be read at the base commit (set policy-source: head to use it as checked out).`);
  }
  return inRepository;
}

/** The policy as the base commit has it (so a pull request cannot loosen its own gate), else the checked-out file. */
async function readPolicy(inputs: ActionInputs, pull: PullRequest | undefined, octokit: Octokit | undefined): Promise<LoadedPolicy & { source: string }> {
  const fromBase = (inputs.policySource ?? (pull ? 'base' : 'head')) === 'base';
  if (fromBase && pull) {
    if (!octokit) throw new Error('Reading the policy at the base commit needs the input github-token (or set policy-source: head).');
    const { owner, repo } = github.context.repo;
    const text = await fileAtCommit(octokit, owner, repo, repositoryPath(inputs.policy), pull.baseSha);
    if (text !== undefined) return { ...parsePolicy(text, inputs.policy), source: `at the base commit ${pull.baseSha.slice(0, 7)}` };
    core.warning(`${inputs.policy} does not exist at the base commit yet: using the pull request's own copy.`);
    return { ...(await loadPolicy(inputs.policy)), source: "from the pull request (not on the base yet)" };
  }
  return { ...(await loadPolicy(inputs.policy)), source: 'as checked out' };
}

/** Runs the suite (with the completion cache kept in the Actions cache) and returns the records' path. */
async function runSuiteForCandidate(suiteFile: string, modelSpec: string, baseUrl: string | undefined): Promise<string> {
  const loaded = await loadSuite(suiteFile);
  await restoreCompletions(loaded.suite.name, github.context.sha);
  const adapter = await adapterFromSpec(modelSpec, baseUrl);
  try {
    const { records, stats } = await runSuite(loaded, adapter, {
      ...DEFAULT_RUN_OPTIONS,
      cache: new CompletionCache(COMPLETIONS_DIRECTORY),
      toxicity: lexicalToxicity(),
      onProgress: progressReporter((line) => core.info(line.trimEnd()), false),
      onWarning: (message) => core.warning(`evalgate run: ${message}`),
    });
    const path = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-records.jsonl');
    await writeRecords(path, records);
    core.info(`evalgate run: ${describeRun(stats)}`);
    core.setOutput(OUTPUT.records, path);
    await saveCompletions(loaded.suite.name, github.context.sha);
    return path;
  } finally {
    await adapter.close();
  }
}

/** Runs the team's own evaluation command with the runner's shell, its output in the log; fails closed. */
async function runEvalCommand(command: string): Promise<void> {
  core.info(`evalgate: running ${command}`);
  const code = await new Promise<number | null>((resolve, reject) => {
    // The team's command gets what a `run:` step gets, not the runner's tokens given to this action.
    const child = spawn(command, { shell: process.platform === 'win32' ? true : '/bin/bash', stdio: ['ignore', 'inherit', 'inherit'], env: childEnvironment() });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`eval-command failed (exit code ${code}): ${command}`);
}

/** Another tool's output converted to records (or a metrics file) under RUNNER_TEMP. */
async function importToFile(path: string, format: ImportFormat, name: string): Promise<string> {
  const imported = await importResults(format, path);
  const out = join(process.env.RUNNER_TEMP ?? '.', `evalgate-${name}-imported.${imported.kind === 'metrics' ? 'json' : 'jsonl'}`);
  if (imported.kind === 'metrics') await writeFile(out, `${JSON.stringify(imported.report)}\n`);
  else await writeRecords(out, imported.records);
  return out;
}

/** Evaluates the candidate, or reads the report an earlier run made (the fork-safe second workflow). */
async function makeReport(inputs: ActionInputs, pull: PullRequest | undefined, octokit: Octokit | undefined): Promise<GateReport> {
  if (inputs.report) return parseGateReport(await readFile(inputs.report, 'utf8'), inputs.report);
  const policy = await readPolicy(inputs, pull, octokit);
  if (inputs.evalCommand) await runEvalCommand(inputs.evalCommand);
  if (inputs.importFormat && inputs.candidate) inputs.candidate = await importToFile(inputs.candidate, inputs.importFormat, 'candidate');
  if (inputs.importFormat && inputs.baseline) inputs.baseline = await importToFile(inputs.baseline, inputs.importFormat, 'baseline');
  if (!inputs.candidate && !(inputs.suite && inputs.model)) throw new Error('Give the input "candidate", or "suite" and "model" to run the evaluation, or "report"');
  inputs.candidate ??= await runSuiteForCandidate(inputs.suite!, inputs.model!, inputs.baseUrl);
  const candidate = await loadRun(inputs.candidate);
  // An explicit baseline file, else the one saved in the Actions cache: for a pull request its base
  // commit's, for a manual or scheduled run this commit's (else the newest). A push saves instead.
  const restored = !inputs.baseline && github.context.eventName !== 'push' ? await restoreBaseline(policy.policy.name, pull?.baseSha ?? github.context.sha) : undefined;
  const baselineFile = inputs.baseline ?? restored?.file;
  const baseline = baselineFile ? await loadRun(baselineFile) : undefined;
  if (!baseline) core.warning('No baseline: regression checks are skipped; absolute bounds still gate.');
  const result = evaluateGate({ policy: policy.policy, candidate, baseline });
  const report = buildGateReport(result, policy, candidate, baseline, result.candidateMetrics.scenarios);
  report.policy.source = policy.source;
  if (report.baseline && restored) report.baseline.commit = restored.sha;
  report.github = {
    event: github.context.eventName,
    sha: github.context.sha,
    pullRequest: pull ? { number: pull.number, baseSha: pull.baseSha, headSha: pull.headSha } : null,
  };
  return report;
}

/**
 * The pull request a posted report belongs to (the fork-safe second workflow, triggered by
 * workflow_run). The report is the fork's own word, so the number it records is trusted only if that
 * pull request's head is the commit the workflow run built: a report can only reach its own pull
 * request. Outside workflow_run nothing vouches for the number: no comment.
 */
async function reportedPullRequest(report: GateReport, octokit: Octokit): Promise<number | undefined> {
  const recorded = report.github?.pullRequest;
  const built = (github.context.payload.workflow_run as { head_sha?: string } | undefined)?.head_sha;
  if (!recorded || built === undefined) return undefined;
  if (built !== recorded.headSha) {
    core.warning(`The report is for commit ${recorded.headSha.slice(0, 7)}, but the workflow run built ${built.slice(0, 7)}: not commenting.`);
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

/** `save-baseline: auto` saves on pushes to the default branch. */
function shouldSaveBaseline(inputs: ActionInputs): boolean {
  if (inputs.saveBaseline !== 'auto') return inputs.saveBaseline === 'true';
  const defaultBranch = (github.context.payload.repository as { default_branch?: string } | undefined)?.default_branch;
  return github.context.eventName === 'push' && defaultBranch !== undefined && github.context.ref === `refs/heads/${defaultBranch}`;
}

/**
 * The action. The one place that fails the step: bad input (with its file, line and field) and a
 * verdict that `fail-on` does not accept.
 */
export async function run(): Promise<void> {
  try {
    core.info(`evalgate on Node ${process.version}`);
    const inputs = readInputs();
    const pull = pullRequestOf(github.context.payload);
    const octokit = inputs.token ? github.getOctokit(inputs.token, { baseUrl: process.env.GITHUB_API_URL || undefined }) : undefined;
    const report = await makeReport(inputs, pull, octokit);

    const waived = report.verdict === 'fail' && inputs.waiverLabel !== undefined && pull?.labels.includes(inputs.waiverLabel) === true;
    let markdown = gateMarkdown(report);
    if (waived) markdown = markdown.replace(/^## ❌ evalgate: fail/, `## ❌ evalgate: fail (waived by label ${inputs.waiverLabel!.replace(/[<>`*_[\]]/g, '')})`);

    const reportPath = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-report.json');
    await writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
    await core.summary.addRaw(markdown).write();
    for (const check of report.checks.filter((entry) => entry.status === 'fail' || entry.status === 'error')) {
      const annotate = check.severity === 'block' ? core.error : core.warning;
      annotate(check.reasons.join('; '), { title: `evalgate: ${check.metric} (${check.scope})` });
    }
    if (report.coverage && report.coverage.status !== 'pass') {
      (report.coverage.status === 'fail' ? core.error : core.warning)(report.coverage.reason, { title: 'evalgate: coverage' });
    }

    const target = pull?.number ?? (inputs.report && octokit ? await reportedPullRequest(report, octokit) : undefined);
    if (target !== undefined && inputs.comment && octokit) {
      const { owner, repo } = github.context.repo;
      const marker = commentMarker(report.policy.name);
      try {
        const outcome = await upsertComment(octokit, { owner, repo, issueNumber: target }, marker, `${marker}\n${markdown}`);
        core.info(`Comment ${outcome.action}: ${outcome.url}`);
        core.setOutput(OUTPUT.commentUrl, outcome.url);
      } catch (error) {
        if ((error as { status?: number }).status !== 403) throw error;
        core.warning('The token cannot comment on this pull request (a fork?): the report is in the job summary. See the README for the two-workflow setup.');
      }
    }

    if (!inputs.report && inputs.candidate && shouldSaveBaseline(inputs)) {
      // A failing run must not become what later pull requests are measured against.
      if (report.verdict === 'fail') core.warning('Not saved as the baseline: the verdict is fail.');
      else await saveBaseline(inputs.candidate, report.policy.name, github.context.sha);
    }

    core.setOutput(OUTPUT.verdict, report.verdict);
    core.setOutput(OUTPUT.failedChecks, countOutcomes(report.checks, report.coverage?.status).failed);
    core.setOutput(OUTPUT.report, reportPath);

    const failing = inputs.failOn === 'never' ? false : inputs.failOn === 'warn' ? report.verdict !== 'pass' : report.verdict === 'fail';
    if (failing && !waived) core.setFailed(`evalgate: ${report.verdict} (policy ${report.policy.name})`);
    else if (waived) core.warning(`evalgate: fail, waived by the label ${inputs.waiverLabel}`);
  } catch (error) {
    // Bad input (records, metrics, policy) carries its file, line and field in the message.
    core.setFailed(error instanceof Error ? error.message : String(error));
    try {
      core.setOutput(OUTPUT.verdict, 'error');
    } catch {
      // No output file (not on a runner): the failure above is what matters.
    }
  }
}
