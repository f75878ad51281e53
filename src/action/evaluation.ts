import * as core from '@actions/core';
import * as github from '@actions/github';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importResults, writeImported, type ImportFormat } from '../importers/index.js';
import { gateRun } from '../pipeline/gate-run.js';
import { writeRecords } from '../records/write.js';
import { parseGateReport, type GateReport } from '../report/json.js';
import { CompletionCache } from '../runner/cache.js';
import { adapterFromSpec } from '../runner/models/index.js';
import { progressReporter } from '../runner/progress.js';
import { DEFAULT_RUN_OPTIONS, describeRun, runSuite } from '../runner/run.js';
import { lexicalToxicity } from '../runner/scoring/toxicity.js';
import { loadSuite } from '../runner/suite.js';
import { loadRun } from '../runs/load.js';
import { runEvalCommand } from './eval-command.js';
import { currentBranch, mayWriteCache } from './events.js';
import { restoreBaseline, restoreCompletions, saveCompletions, type BaselineOwner } from './github/cache.js';
import { OUTPUT, type ActionInputs } from './inputs.js';
import { readPolicy, type SourcedPolicy } from './policy-source.js';
import { baseCommitOf, type BaseCommit, type Octokit, type PullRequest } from './pull-request.js';

const temporaryFile = (name: string) => join(process.env.RUNNER_TEMP ?? '.', name);

/**
 * Runs the suite and returns the records' path. The completion cache lives under RUNNER_TEMP and is
 * emptied first, so no file of the checkout (a pull request's) is ever read as a completion; it is
 * kept in the Actions cache only by runs that may write it (mayWriteCache), and only they restore it.
 */
async function runSuiteForCandidate(suiteFile: string, modelSpec: string, baseUrl: string | undefined): Promise<string> {
  const loaded = await loadSuite(suiteFile);
  const completions = join(process.env.RUNNER_TEMP || tmpdir(), 'evalgate-completions');
  await rm(completions, { recursive: true, force: true });
  const shared = mayWriteCache();
  if (shared) await restoreCompletions(completions, loaded.suite.name, github.context.sha);
  else core.info(`The completion cache is not used on ${github.context.eventName} events: every completion comes from the model.`);
  const adapter = await adapterFromSpec(modelSpec, { baseUrl });
  try {
    const { records, stats } = await runSuite(loaded, adapter, {
      ...DEFAULT_RUN_OPTIONS,
      cache: new CompletionCache(completions),
      toxicity: lexicalToxicity(),
      onProgress: progressReporter((line) => core.info(line.trimEnd()), false),
      onWarning: (message) => core.warning(`evalgate run: ${message}`),
    });
    const path = temporaryFile('evalgate-records.jsonl');
    await writeRecords(path, records);
    core.info(`evalgate run: ${describeRun(stats)}`);
    core.setOutput(OUTPUT.records, path);
    if (shared) await saveCompletions(completions, loaded.suite.name, github.context.sha);
    return path;
  } finally {
    await adapter.close();
  }
}

/** Another tool's output converted to records (or a metrics file) under RUNNER_TEMP. */
async function importToFile(path: string, format: ImportFormat, name: string): Promise<string> {
  const imported = await importResults(format, path);
  const out = temporaryFile(`evalgate-${name}-imported.${imported.kind === 'metrics' ? 'json' : 'jsonl'}`);
  await writeImported(out, imported);
  return out;
}

/** The runs given as files, converted first when they are another tool's output. */
async function givenFiles(inputs: ActionInputs): Promise<{ candidate?: string; baseline?: string }> {
  const convert = (path: string | undefined, name: string) =>
    path && inputs.importFormat ? importToFile(path, inputs.importFormat, name) : Promise.resolve(path);
  return { candidate: await convert(inputs.candidate, 'candidate'), baseline: await convert(inputs.baseline, 'baseline') };
}

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
    throw new Error(`No baseline for policy ${policy.policy.name}, and require-baseline is true: the gate cannot check regressions.`);
  }
  return restored && { file: restored.file, restored: { commit: restored.sha, policyChanged: restored.policyChanged } };
}

/** A gate's report, the candidate's file (to save as the next baseline), the policy that decided, and notes for the reader. */
export interface Evaluation {
  report: GateReport;
  /** Undefined for a report made by an earlier run. */
  candidateFile?: string;
  policy?: SourcedPolicy;
  /** Said under the verdict in the comment and the summary. */
  notes: string[];
}

/** The candidate's results file: given (converted when another tool wrote it), or made by running the suite. */
async function candidateFile(inputs: ActionInputs, given: string | undefined): Promise<string> {
  if (given) return given;
  if (!(inputs.suite && inputs.model)) {
    throw new Error('Give the input "candidate", or "suite" and "model" to run the evaluation, or "report"');
  }
  return runSuiteForCandidate(inputs.suite, inputs.model, inputs.baseUrl);
}

/** Evaluates the candidate, or reads the report an earlier run made (the fork-safe second workflow). */
export async function evaluate(inputs: ActionInputs, pull: PullRequest | undefined, octokit: Octokit | undefined): Promise<Evaluation> {
  if (inputs.report) return { report: parseGateReport(await readFile(inputs.report, 'utf8'), inputs.report), notes: [] };
  const base = baseCommitOf(pull, github.context.payload);
  const policy = await readPolicy(inputs, base, octokit);
  if (github.context.eventName === 'pull_request_target' && (inputs.suite || inputs.evalCommand)) {
    core.warning(
      "pull_request_target runs with the repository's secrets and a write token: a suite or eval-command from a pull request's checkout runs its code with them. Use pull_request, and for forks the two-workflow setup (README).",
    );
  }
  if (inputs.evalCommand) await runEvalCommand(inputs.evalCommand);
  const given = await givenFiles(inputs);
  const candidatePath = await candidateFile(inputs, given.candidate);
  const candidate = await loadRun(candidatePath);
  const baselineSource = await baselineFile(inputs, given.baseline, policy, base);
  const baseline = baselineSource ? await loadRun(baselineSource.file) : undefined;
  if (!baseline) core.warning('No baseline: regression checks are skipped; absolute bounds still gate.');
  const report = gateRun({ policy, candidate, baseline });
  report.policy.source = policy.source;
  const restored = baselineSource?.restored;
  if (report.baseline && restored) report.baseline.commit = restored.commit;
  report.github = {
    event: github.context.eventName,
    sha: github.context.sha,
    pullRequest: pull ? { number: pull.number, baseSha: pull.baseSha, headSha: pull.headSha } : null,
  };
  const notes = restored?.policyChanged
    ? [`The policy changed since this baseline was saved (at commit ${restored.commit.slice(0, 7)}): it gates as it is now.`]
    : [];
  return { report, candidateFile: candidatePath, policy, notes };
}
