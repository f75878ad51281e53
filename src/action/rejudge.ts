import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { parseYamlConfig } from '../config/yaml-config.js';
import { UsageError } from '../errors.js';
import { scorerMismatch } from '../metrics/comparability.js';
import { instanceKey } from '../records/key.js';
import { provenanceOf } from '../records/provenance.js';
import { forEachRecord } from '../records/read.js';
import type { EvalRecord } from '../records/types.js';
import { writeRecords } from '../records/write.js';
import { describeJudging } from '../runner/judge.js';
import { rejudgeRecords } from '../runner/rejudge.js';
import { DEFAULT_RUN_OPTIONS } from '../runner/run.js';
import { loadSuite, suiteSchema, type Instance, type LoadedSuite } from '../runner/suite.js';
import { loadRun, type RunInput } from '../runs/load.js';
import type { Job } from './context.js';
import { fileAtCommit } from './github/comment.js';
import type { ActionInputs } from './inputs.js';
import { locatePolicy } from './policy-location.js';
import type { BaseCommit, Octokit } from './pull-request.js';

/*
 * Judged suites in the action (docs/action.md#judged-suites): the records a gate compares must be graded
 * by one judge. A baseline judged by another judge (another model, snapshot or template: its records'
 * `provenance.scorer`) is graded again with the suite's judge before the gate (input rejudge-baseline);
 * on workflow_run the fork's records are always graded again with the suite and data as the base commit
 * has them: a fork's grades and fingerprints are its own claim.
 */

type RecordsRun = Extract<RunInput, { kind: 'records' }>;

/** What was graded again: the file, the judges' fingerprints before, how many records. */
export interface Rejudged {
  run: RecordsRun;
  before: string[];
  records: number;
}

const judgedScenarios = (loaded: LoadedSuite) => loaded.suite.scenarios.filter((scenario) => scenario.scorer === 'judge');

/** The fingerprints a run's records of the suite's judged scenarios carry (none: "" left out). */
function fingerprintsOf(run: RecordsRun, loaded: LoadedSuite): string[] {
  const table = run.table;
  const found = judgedScenarios(loaded).flatMap((scenario) => [...(table.scorers[table.scenarios.indexOf(scenario.name)] ?? [])]);
  return [...new Set(found.filter(Boolean))].sort();
}

/** Grades a records file's completions again with the suite's judges, into `out`; the records loaded again. */
async function rejudgeFile(job: Job, loaded: LoadedSuite, file: string, out: string): Promise<{ run: RecordsRun; records: number }> {
  const { port } = job;
  const { records, judged, stats } = await rejudgeRecords(loaded, file, {
    ...DEFAULT_RUN_OPTIONS,
    onWarning: (message) => port.warning(`evalgate rejudge: ${message}`),
  });
  await writeRecords(out, records);
  port.info(`evalgate rejudge: ${judged} of ${records.length} records judged again; ${describeJudging(stats)}`);
  return { run: (await loadRun(out)) as RecordsRun, records: judged };
}

/**
 * The suite whose judge the gate's records must agree on: on workflow_run the suite input read at the
 * base commit (with its data), elsewhere the suite the action ran; undefined when there is none or it
 * judges nothing.
 */
export async function judgingSuite(
  job: Job,
  inputs: ActionInputs,
  base: BaseCommit | undefined,
  octokit: Octokit | undefined,
  temporary: string,
): Promise<LoadedSuite | undefined> {
  if (!inputs.suite) return undefined;
  let loaded: LoadedSuite;
  if (job.context.eventName === 'workflow_run') loaded = await suiteAtBase(job, inputs.suite, base, octokit, temporary);
  else if (inputs.model && !inputs.candidate && !inputs.report) loaded = await loadSuite(inputs.suite);
  else return undefined;
  return judgedScenarios(loaded).length > 0 ? loaded : undefined;
}

/** A path of the repository, "/"-separated, from a file's folder; undefined when it leaves the repository. */
function inRepository(from: string, path: string): string | undefined {
  const joined = posix.normalize(posix.join(posix.dirname(from), path));
  return joined.startsWith('../') || joined === '..' || posix.isAbsolute(joined) ? undefined : joined;
}

/**
 * The suite file and its data files as the base commit has them (through the contents API), written
 * under `temporary` and loaded. Fails closed: a suite or a data file the base does not have is an error.
 */
async function suiteAtBase(
  job: Job,
  input: string,
  base: BaseCommit | undefined,
  octokit: Octokit | undefined,
  temporary: string,
): Promise<LoadedSuite> {
  const { context } = job;
  if (!base || !octokit) {
    throw new UsageError('On workflow_run the suite is read at the base commit: that needs the pull request and the input github-token.');
  }
  const suitePath = (await locatePolicy(input, { findCheckout: false, workspace: context.workspace })).inRepository;
  if (suitePath === undefined) throw new UsageError(`The suite ${input} is outside the repository: it cannot be read at the base commit.`);
  const { owner, repo } = context.repo;
  const commit = base.sha.slice(0, 7);
  const read = async (path: string) => {
    const text = await fileAtCommit(octokit, owner, repo, path, base.sha);
    if (text === undefined) {
      throw new UsageError(
        `The suite's file ${path} does not exist at the base commit ${commit}: a fork's records are judged only by the base's suite.`,
      );
    }
    return text;
  };
  const root = await mkdtemp(join(temporary, 'evalgate-base-suite-'));
  const place = async (path: string, text: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  const suiteText = await read(suitePath);
  const suite = parseYamlConfig(suiteText, `${suitePath} (at ${commit})`, suiteSchema);
  await place(suitePath, suiteText);
  for (const scenario of suite.scenarios) {
    const dataPath = inRepository(suitePath, scenario.data);
    if (dataPath === undefined) throw new UsageError(`The suite ${suitePath}'s data ${scenario.data} is outside the repository.`);
    await place(dataPath, await read(dataPath));
  }
  return loadSuite(join(root, suitePath));
}

/**
 * A fork's records with each judged record's references (the judge's reference answers or rubric) and
 * person's label (`human`, what judge_tpr and judge_tnr measure the judge by) those of the base's data,
 * where the base has the instance; elsewhere its own references and no label. Refused when they carry a
 * judge's grade in a scenario the base's suite does not judge. How many kept their own references.
 */
async function withBaseData(loaded: LoadedSuite, file: string, out: string): Promise<number> {
  const judged = new Set(judgedScenarios(loaded).map((scenario) => scenario.name));
  const instances = new Map<string, Instance>();
  for (const [scenario, list] of loaded.instances) {
    if (judged.has(scenario)) for (const instance of list) instances.set(instanceKey(scenario, instance.id), instance);
  }
  const records: EvalRecord[] = [];
  let own = 0;
  await forEachRecord(file, (record, line) => {
    if (!judged.has(record.scenario)) {
      if (record.judge !== undefined || record.provenance?.scorer?.startsWith('judge ')) {
        throw new UsageError(
          `${file}:${line}: a judge's grade in the scenario "${record.scenario}", which the base's suite does not judge: a fork's grades are its own claim`,
        );
      }
      records.push(record);
      return;
    }
    const { human: _claimed, ...rest } = record;
    const base = instances.get(instanceKey(record.scenario, record.id));
    if (!base) {
      own++;
      records.push(rest);
      return;
    }
    const provenance = { ...record.provenance, references_hash: provenanceOf({ references: base.references })?.references_hash };
    records.push({ ...rest, references: base.references, provenance, ...(base.human === undefined ? {} : { human: base.human }) });
  });
  await writeRecords(out, records);
  return own;
}

/** On workflow_run: the fork's records graded again by the base's suite, and what the reader must know. */
export async function rejudgeForkRecords(
  job: Job,
  loaded: LoadedSuite,
  candidate: RecordsRun,
  temporary: string,
): Promise<{ rejudged: Rejudged; notes: string[] }> {
  const before = fingerprintsOf(candidate, loaded);
  const folder = await mkdtemp(join(temporary, 'evalgate-rejudged-'));
  const own = await withBaseData(loaded, candidate.file, join(folder, 'references.jsonl'));
  const { run, records } = await rejudgeFile(job, loaded, join(folder, 'references.jsonl'), join(folder, 'candidate.jsonl'));
  const notes = [
    `The pull request's records were judged again here with the suite as the base commit has it (${records} records): their own grades were not used.`,
    ...(own > 0
      ? [
          `${own} of them are of instances the base's data does not have: judged against the references they carry (the run's claim), without the labels they carry.`,
        ]
      : []),
  ];
  return { rejudged: { run, before, records }, notes };
}

/**
 * The baseline graded again with the suite's judge when its records of a judged scenario were judged
 * by another (fingerprints that differ from the candidate's there); undefined when they agree.
 */
export async function rejudgeBaselineIfJudgedOtherwise(
  job: Job,
  loaded: LoadedSuite,
  candidate: RecordsRun,
  baseline: RecordsRun,
  temporary: string,
): Promise<Rejudged | undefined> {
  const differs = judgedScenarios(loaded).some((scenario) => scorerMismatch(candidate.table, baseline.table, scenario.name));
  if (!differs) return undefined;
  const before = fingerprintsOf(baseline, loaded);
  const out = join(await mkdtemp(join(temporary, 'evalgate-rejudged-')), 'baseline.jsonl');
  const { run, records } = await rejudgeFile(job, loaded, baseline.file, out);
  return { run, before, records };
}
