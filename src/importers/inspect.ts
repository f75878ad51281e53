import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { InputError } from '../errors.js';
import { provenanceOf, type Provenance } from '../records/provenance.js';
import type { EvalRecord } from '../records/types.js';
import { readLog, readLogHeader, type InspectHeader, type InspectSample, type LoggedSample } from './inspect-log.js';
import { judgeOfScore, readScore, scoresOf } from './inspect-score.js';
import { recordsImporter, type ImportOptions } from './types.js';

/*
 * Inspect AI eval logs (`.eval` or `.json`; a folder: the newest log of each task) -> records, one per
 * sample, epoch and score: scenario the task (`<task>/<score>` when the log has several scores), id
 * the sample id, `sample` the epoch - 1, `correct` the score value as Inspect's value_to_float reads
 * it, input, the output's completion, the target, the evaluated model's tokens and cost in the sample,
 * its working time as latency, a sample error as `error`, the named metadata keys as groups.
 */

const byId = new Intl.Collator('en', { numeric: true });

/** Inspect's rule for a folder: every `.eval`, and `.json` files named <timestamp>_<task>_<id>.json. */
const isLogName = (name: string) =>
  name.endsWith('.eval') || (name.endsWith('.json') && /^\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}/.test(name));

/** The logs to import: the file given, or of a folder (and its subfolders) the newest log of each task. */
async function logFiles(path: string, model: string | undefined): Promise<string[]> {
  let names: string[];
  try {
    if (!(await stat(path)).isDirectory()) return [path];
    names = (await readdir(path, { recursive: true })).filter((name) => isLogName(basename(name))).sort();
  } catch {
    throw new InputError(path, undefined, 'no such file or directory');
  }
  if (names.length === 0) throw new InputError(path, undefined, 'no Inspect logs (.eval, or .json named <timestamp>_<task>_<id>.json)');
  const logs: Array<{ file: string; header: InspectHeader }> = [];
  for (const name of names) logs.push({ file: join(path, name), header: await readLogHeader(join(path, name)) });
  const models = [...new Set(logs.map((log) => String(log.header.eval?.model)))].sort();
  const chosen = model === undefined ? logs : logs.filter((log) => log.header.eval?.model === model);
  if (chosen.length === 0 || (model === undefined && models.length > 1)) {
    const problem = model === undefined ? 'logs of several models' : `no logs of model "${model}"`;
    throw new InputError(path, undefined, `${problem}; choose one with --model: ${models.join(', ')}`);
  }
  // Every run writes a log of its own (a retry too): the newest of each task is the one to gate.
  const newest = new Map<string, { file: string; created: number }>();
  for (const { file, header } of chosen) {
    const created = Date.parse(header.eval?.created ?? '') || 0;
    const kept = newest.get(header.eval!.task!);
    if (!kept || created > kept.created || (created === kept.created && file > kept.file)) {
      newest.set(header.eval!.task!, { file, created });
    }
  }
  return [...newest.values()].map((log) => log.file).sort();
}

/** The text of the output's first choice, as Inspect's `completion` has it. */
function completionOf(output: InspectSample['output']): string | undefined {
  if (typeof output?.completion === 'string' && output.completion !== '') return output.completion;
  const content = output?.choices?.[0]?.message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((part: { type?: unknown; text?: unknown }) => part?.type === 'text' && typeof part.text === 'string')
    .map((part: { text: string }) => part.text)
    .join('\n');
}

/** What every record of a sample shares besides its id and sample: input, output, usage, time, groups. */
type SampleFields = Pick<
  EvalRecord,
  'input' | 'prediction' | 'references' | 'input_tokens' | 'output_tokens' | 'cost_usd' | 'latency_ms' | 'groups' | 'provenance'
>;

/** The sample's own input, choices and target, as the dataset gave them (before any solver's template). */
function inspectProvenance(sample: InspectSample, references: string | string[] | undefined): Provenance | undefined {
  const choices =
    Array.isArray(sample.choices) && sample.choices.every((choice) => typeof choice === 'string') ? sample.choices : undefined;
  return provenanceOf({ input: sample.input, choices, references });
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function sampleFields(sample: InspectSample, model: string | undefined, groupKeys: string[], where: string): SampleFields {
  const fields: SampleFields = {};
  if (sample.input !== undefined && sample.input !== null) fields.input = sample.input;
  const prediction = completionOf(sample.output);
  if (prediction !== undefined) fields.prediction = prediction;
  const target = sample.target;
  if ((typeof target === 'string' && target !== '') || (Array.isArray(target) && target.length > 0)) {
    fields.references = target as string | string[];
  }
  // The evaluated model's usage over the whole sample (every turn); older logs only have the output's.
  const usage = (model !== undefined ? sample.model_usage?.[model] : undefined) ?? sample.output?.usage;
  if (finite(usage?.input_tokens)) {
    fields.input_tokens = usage.input_tokens + (usage.input_tokens_cache_read ?? 0) + (usage.input_tokens_cache_write ?? 0);
  }
  if (finite(usage?.output_tokens)) fields.output_tokens = usage.output_tokens;
  if (finite(usage?.total_cost)) fields.cost_usd = usage.total_cost;
  // Working time, not total time: waiting for a connection or a rate limit depends on the run, not the model.
  const seconds = sample.working_time ?? sample.total_time;
  if (finite(seconds)) fields.latency_ms = seconds * 1000;
  const groups: Record<string, string> = {};
  for (const key of groupKeys) {
    const value = sample.metadata?.[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new InputError(
        where,
        undefined,
        `metadata "${key}" is ${JSON.stringify(value).slice(0, 60)}: a group is a string, number or boolean`,
      );
    }
    groups[key] = String(value);
  }
  if (Object.keys(groups).length > 0) fields.groups = groups;
  const provenance = inspectProvenance(sample, fields.references);
  if (provenance) fields.provenance = provenance;
  return fields;
}

/** What a log that did not finish lacks: its samples (and epochs) that have no record. */
function missingPart(header: InspectHeader, samples: LoggedSample[]): string {
  const ids = header.eval?.dataset?.sample_ids;
  const epochs = header.eval?.config?.epochs ?? 1;
  if (!Array.isArray(ids)) return `${samples.length} samples are in the log (it does not list the samples it was to run)`;
  const present = new Set(samples.map(({ sample }) => `${sample.id}\u0000${sample.epoch}`));
  const missing = ids.flatMap((id) =>
    Array.from({ length: epochs }, (_, index) => index + 1)
      .filter((epoch) => !present.has(`${id}\u0000${epoch}`))
      .map((epoch) => (epochs > 1 ? `${id} (epoch ${epoch})` : String(id))),
  );
  if (missing.length === 0) return 'every sample is in the log';
  const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
  return `${missing.length} of ${ids.length * epochs} samples are missing: ${missing.slice(0, 5).join(', ')}${more}`;
}

interface Outcomes {
  unscored: Map<string, number>;
  unreadable: Map<string, { count: number; example: unknown }>;
}

/** A log's scores: their names, and the judge's identity of those a model graded. */
interface LogScores {
  names: string[];
  judges: Map<string, string | undefined>;
}

/** The records of one sample: one per score, or one per score with the sample's error. */
function sampleRecords(
  logged: LoggedSample,
  task: string,
  { names: scoreNames, judges }: LogScores,
  base: SampleFields,
  outcomes: Outcomes,
): EvalRecord[] {
  const { sample, where } = logged;
  if (sample.epoch < 1) throw new InputError(where, undefined, `epoch ${sample.epoch}: Inspect counts epochs from 1`);
  const identity = { id: String(sample.id), sample: sample.epoch - 1 };
  const scenarioOf = (name: string | undefined) => (name === undefined || scoreNames.length === 1 ? task : `${task}/${name}`);
  if (sample.error) {
    const error = String(sample.error.message ?? 'error') || 'error';
    return (scoreNames.length > 0 ? scoreNames : [undefined]).map((name) => ({ scenario: scenarioOf(name), ...identity, error, ...base }));
  }
  const scores = scoresOf(sample.scores);
  const records: EvalRecord[] = [];
  for (const name of scoreNames) {
    const reading = readScore(scores.get(name));
    if (reading.kind === 'unscored') {
      outcomes.unscored.set(name, (outcomes.unscored.get(name) ?? 0) + 1);
      continue;
    }
    if (reading.kind === 'unreadable') {
      const seen = outcomes.unreadable.get(name);
      outcomes.unreadable.set(name, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? scores.get(name) });
    }
    if (reading.value < 0 || reading.value > 1) {
      throw new InputError(where, undefined, `score "${name}" is ${reading.value}: evalgate's "correct" is a share of credit in [0, 1]`);
    }
    const judge = judges.get(name);
    const graded = judge === undefined ? base : { ...base, provenance: { ...base.provenance, scorer: judge } };
    records.push({ scenario: scenarioOf(name), ...identity, correct: reading.value, ...graded });
  }
  return records;
}

function warnOutcomes(file: string, outcomes: Outcomes, warn: (message: string) => void): void {
  for (const [name, count] of outcomes.unscored) {
    warn(
      `${file}: ${count} sample${count > 1 ? 's have' : ' has'} no score "${name}" (unscored, which Inspect's metrics leave out too): no record`,
    );
  }
  for (const [name, { count, example }] of outcomes.unreadable) {
    warn(
      `${file}: ${count} value${count > 1 ? 's' : ''} of score "${name}" (e.g. ${JSON.stringify(example)}) read as 0, as Inspect's value_to_float reads them`,
    );
  }
}

function recordsOfLog(file: string, header: InspectHeader, samples: LoggedSample[], options: ImportOptions): EvalRecord[] {
  const warn = options.onWarning ?? (() => undefined);
  const task = header.eval!.task!;
  const status = header.status ?? 'started';
  if (status !== 'success') {
    const error = header.error?.message ? `: ${header.error.message.split('\n')[0]}` : '';
    warn(
      `${file}: the run did not finish (status "${status}"${error}): ${missingPart(header, samples)}; coverage shows them against the baseline`,
    );
  }
  const scoreNames = [...new Set(samples.flatMap(({ sample }) => [...scoresOf(sample.scores).keys()]))];
  const scores: LogScores = { names: scoreNames, judges: new Map(scoreNames.map((name) => [name, judgeOfScore(header, name)])) };
  const seen = new Map<string, string>();
  const outcomes: Outcomes = { unscored: new Map(), unreadable: new Map() };
  const ordered = [...samples].sort((a, b) => byId.compare(String(a.sample.id), String(b.sample.id)) || a.sample.epoch - b.sample.epoch);
  const records = ordered.flatMap((logged) => {
    const key = `${logged.sample.id}\u0000${logged.sample.epoch}`;
    if (seen.has(key)) {
      throw new InputError(logged.where, undefined, `sample ${logged.sample.id} epoch ${logged.sample.epoch} is also in ${seen.get(key)}`);
    }
    seen.set(key, logged.where);
    const base = sampleFields(logged.sample, header.eval?.model, options.groupKeys ?? [], logged.where);
    return sampleRecords(logged, task, scores, base, outcomes);
  });
  warnOutcomes(file, outcomes, warn);
  if (records.length === 0) {
    const scorers = (header.results?.scores ?? []).map((score) => score.scorer ?? score.name);
    const why =
      scoreNames.length > 0
        ? 'every sample is unscored'
        : scorers.length > 0
          ? `no sample has a score, though the log names its scorers (${scorers.join(', ')})`
          : 'no sample has a score (the task ran without a scorer)';
    throw new InputError(file, undefined, `nothing to gate: ${why}`);
  }
  return records;
}

/** Records from an Inspect log, or from the newest log of each task in a folder. */
export async function importInspect(path: string, options: ImportOptions = {}): Promise<EvalRecord[]> {
  const records: EvalRecord[] = [];
  const metadataKeys = new Set<string>();
  for (const file of await logFiles(path, options.model)) {
    const { header, samples } = await readLog(file);
    if (options.model !== undefined && header.eval?.model !== options.model) {
      throw new InputError(file, undefined, `a log of model "${header.eval?.model}", not "${options.model}"`);
    }
    for (const { sample } of samples) for (const key of Object.keys(sample.metadata ?? {})) metadataKeys.add(key);
    for (const record of recordsOfLog(file, header, samples, options)) records.push(record); // not push(...): 100,000s of samples
  }
  const unknown = (options.groupKeys ?? []).filter((key) => !metadataKeys.has(key));
  if (unknown.length > 0) {
    throw new InputError(
      path,
      undefined,
      `--group-keys ${unknown.join(', ')}: no sample has this metadata; the samples' metadata keys: ${[...metadataKeys].join(', ') || 'none'}`,
    );
  }
  return records;
}

/** Inspect AI eval logs: a `.eval` or `.json` log, or a folder of them (-> records). */
export const inspectImporter = recordsImporter('inspect', importInspect);
