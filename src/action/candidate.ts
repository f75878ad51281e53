import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { importResults, writeImported, type ImportFormat } from '../importers/index.js';
import { reportedScope } from '../metrics/names.js';
import { writeRecords } from '../records/write.js';
import type { GateReport } from '../report/json.js';
import { CompletionCache } from '../runner/cache.js';
import { adapterFromSpec } from '../runner/models/index.js';
import { progressReporter } from '../runner/progress.js';
import { DEFAULT_MAX_FAILED, DEFAULT_RUN_OPTIONS, describeRun, runSuite, tooManyFailures } from '../runner/run.js';
import { lexicalToxicity } from '../runner/scoring/toxicity.js';
import { loadSuite } from '../runner/suite.js';
import type { RunInput } from '../runs/load.js';
import type { Job } from './context.js';
import { mayWriteCache } from './events.js';
import { restoreCompletions, saveCompletions } from './github/cache.js';
import { OUTPUT, type ActionInputs } from './inputs.js';
import { UsageError } from '../errors.js';

/* The runs to gate: the candidate (given, another tool's output converted, or a suite run here) and a given baseline. */

const temporaryFile = ({ context }: Job, name: string) => join(context.runnerTemp, name);

/**
 * Runs the suite and returns the records' path. The completion cache lives under RUNNER_TEMP and is
 * emptied first, so no file of the checkout (a pull request's) is ever read as a completion; it is
 * kept in the Actions cache only by runs that may write it (mayWriteCache), and only they restore it.
 * A model that cannot answer, or more failed calls than `evalgate run` allows, fails the step.
 */
async function runSuiteForCandidate(
  job: Job,
  suiteFile: string,
  modelSpec: string,
  { baseUrl, samples, modelRevision }: Pick<ActionInputs, 'baseUrl' | 'samples' | 'modelRevision'>,
): Promise<string> {
  const loaded = await loadSuite(suiteFile);
  const { context, port } = job;
  const completions = join(context.runnerTemp, 'evalgate-completions');
  await rm(completions, { recursive: true, force: true });
  const shared = mayWriteCache(context.eventName);
  if (shared) await restoreCompletions(job, completions, loaded.suite.name, context.sha);
  else port.info(`The completion cache is not used on ${context.eventName} events: every completion comes from the model.`);
  const adapter = await adapterFromSpec(modelSpec, { baseUrl, revision: modelRevision });
  try {
    const { records, stats } = await runSuite(loaded, adapter, {
      ...DEFAULT_RUN_OPTIONS,
      cache: new CompletionCache(completions),
      toxicity: await lexicalToxicity(),
      samples,
      onProgress: progressReporter((line) => port.info(line.trimEnd()), false),
      onWarning: (message) => port.warning(`evalgate run: ${message}`),
    });
    const path = temporaryFile(job, 'evalgate-records.jsonl');
    await writeRecords(path, records);
    port.info(`evalgate run: ${describeRun(stats)}`);
    port.setOutput(OUTPUT.records, path);
    if (shared) await saveCompletions(job, completions, loaded.suite.name, context.sha);
    const failed = tooManyFailures(stats, DEFAULT_MAX_FAILED);
    if (failed) throw new Error(`evalgate run: ${failed}`);
    return path;
  } finally {
    await adapter.close();
  }
}

/** Another tool's output converted to records (or a metrics file) under RUNNER_TEMP. */
async function importToFile(job: Job, path: string, format: ImportFormat, name: string): Promise<string> {
  const imported = await importResults(format, path, { onWarning: (message) => job.port.warning(`evalgate import: ${message}`) });
  const out = temporaryFile(job, `evalgate-${name}-imported.${imported.kind === 'metrics' ? 'json' : 'jsonl'}`);
  await writeImported(out, imported);
  return out;
}

/** The runs given as files, converted first when they are another tool's output. */
export async function givenFiles(job: Job, inputs: ActionInputs): Promise<{ candidate?: string; baseline?: string }> {
  const convert = (path: string | undefined, name: string) =>
    path && inputs.importFormat ? importToFile(job, path, inputs.importFormat, name) : Promise.resolve(path);
  return { candidate: await convert(inputs.candidate, 'candidate'), baseline: await convert(inputs.baseline, 'baseline') };
}

/** The candidate's results file: given (converted when another tool wrote it), or made by running the suite. */
export async function candidateFile(job: Job, inputs: ActionInputs, given: string | undefined): Promise<string> {
  if (given) return given;
  if (!(inputs.suite && inputs.model)) {
    throw new UsageError('Give the input "candidate", or "suite" and "model" to run the evaluation, or "report"');
  }
  return runSuiteForCandidate(job, inputs.suite, inputs.model, inputs);
}

/**
 * A posted report's candidate numbers as a metrics run: what the run that made the report claims its
 * model scored, to gate again under the policy here (the report's own statuses are not taken). Overall
 * values from its checks, per-scenario values from its details.
 */
export function claimedRun(report: GateReport, file: string): RunInput {
  const overall = Object.fromEntries(
    report.checks
      .filter((check) => reportedScope(check).kind === 'pooled' && check.candidate)
      .map((check) => [check.metric, check.candidate!]),
  );
  return { kind: 'metrics', file, report: { overall, scenarios: report.scenarios } };
}
