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
import { mayWriteCache } from './events.js';
import { restoreBaseline, restoreCompletions, saveCompletions } from './github/cache.js';
import { OUTPUT, type ActionInputs } from './inputs.js';
import { readPolicy } from './policy-source.js';
import { baseCommitOf, type Octokit, type PullRequest } from './pull-request.js';

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

/**
 * The baseline saved in the Actions cache, when no baseline file is given: for a pull request its base
 * commit's, for a manual or scheduled run this commit's (else the newest). A push saves instead.
 */
async function cachedBaseline(policyName: string, pull: PullRequest | undefined): Promise<{ file: string; commit: string } | undefined> {
  if (github.context.eventName === 'push') return undefined;
  const restored = await restoreBaseline(policyName, pull?.baseSha ?? github.context.sha);
  return restored && { file: restored.file, commit: restored.sha };
}

/** A gate's report, and the candidate's file (to save as the next baseline). */
export interface Evaluation {
  report: GateReport;
  /** Undefined for a report made by an earlier run. */
  candidateFile?: string;
}

/** Evaluates the candidate, or reads the report an earlier run made (the fork-safe second workflow). */
export async function evaluate(inputs: ActionInputs, pull: PullRequest | undefined, octokit: Octokit | undefined): Promise<Evaluation> {
  if (inputs.report) return { report: parseGateReport(await readFile(inputs.report, 'utf8'), inputs.report) };
  const policy = await readPolicy(inputs, baseCommitOf(pull, github.context.payload), octokit);
  if (github.context.eventName === 'pull_request_target' && (inputs.suite || inputs.evalCommand)) {
    core.warning(
      "pull_request_target runs with the repository's secrets and a write token: a suite or eval-command from a pull request's checkout runs its code with them. Use pull_request, and for forks the two-workflow setup (README).",
    );
  }
  if (inputs.evalCommand) await runEvalCommand(inputs.evalCommand);
  const given = await givenFiles(inputs);
  if (!given.candidate && !(inputs.suite && inputs.model)) {
    throw new Error('Give the input "candidate", or "suite" and "model" to run the evaluation, or "report"');
  }
  const candidatePath = given.candidate ?? (await runSuiteForCandidate(inputs.suite!, inputs.model!, inputs.baseUrl));
  const candidate = await loadRun(candidatePath);
  const restored = given.baseline ? undefined : await cachedBaseline(policy.policy.name, pull);
  const baselinePath = given.baseline ?? restored?.file;
  const baseline = baselinePath ? await loadRun(baselinePath) : undefined;
  if (!baseline) core.warning('No baseline: regression checks are skipped; absolute bounds still gate.');
  const report = gateRun({ policy, candidate, baseline });
  report.policy.source = policy.source;
  if (report.baseline && restored) report.baseline.commit = restored.commit;
  report.github = {
    event: github.context.eventName,
    sha: github.context.sha,
    pullRequest: pull ? { number: pull.number, baseSha: pull.baseSha, headSha: pull.headSha } : null,
  };
  return { report, candidateFile: candidatePath };
}
