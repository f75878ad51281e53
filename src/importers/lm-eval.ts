import { open, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { MetricsReport, MetricValue } from '../metrics/compute.js';
import { dictionary, own } from '../records/dictionary.js';
import { InputError } from '../errors.js';
import { forEachJsonLine } from '../records/read.js';
import type { EvalRecord } from '../records/types.js';
import { provenanceOf } from '../records/provenance.js';
import { parsePythonJson, readJsonFile } from './read-json.js';
import type { Imported, Importer } from './types.js';

/*
 * lm-evaluation-harness per-sample files (`samples_<task>_<timestamp>.jsonl`, or the older `.json`,
 * JSON Lines as well or a JSON array; from a folder, each task's newest) -> records. `correct` is the
 * sample's `acc`, else its task's first per-sample metric. For multiple-choice tasks (one
 * loglikelihood per choice in `resps`), the prediction is the most likely choice and `confidence` its
 * softmax probability over the choices' loglikelihoods: HELM's max_prob for separate-choice scoring,
 * so calibration can be gated too.
 */

const SAMPLES_FILE = /^samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d.-]+)\.jsonl?$/;

interface Sample {
  doc_id?: unknown;
  /** The dataset's row: the instance's own fields, before the task's template. */
  doc?: unknown;
  target?: unknown;
  arguments?: Record<string, { arg_0?: unknown; arg_1?: unknown }> | unknown[];
  resps?: unknown;
  filtered_resps?: unknown;
  filter?: unknown;
  metrics?: unknown;
  [metric: string]: unknown;
}

/** Whether a file's text starts with "[" (after a BOM and white space), from its first bytes; false if it cannot be read. */
async function startsWithBracket(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false; // the reader of JSON Lines says why
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return buffer.toString('utf8', 0, bytesRead).trimStart().startsWith('[');
  } finally {
    await handle.close();
  }
}

/** The samples of one file: JSON Lines, or (older versions) one JSON array. */
async function readSamples(file: string): Promise<Sample[]> {
  if (await startsWithBracket(file)) {
    return readJsonFile<Sample[]>(file, 'no such file', (text) => parsePythonJson(text.trimStart()));
  }
  const samples: Sample[] = [];
  await forEachJsonLine(file, (sample) => samples.push(sample as Sample), { kind: 'an lm-eval samples file', parse: parsePythonJson });
  return samples;
}

/** Loglikelihoods of the choices when the sample is multiple choice: resps like [[["-0.98", "False"]], ...]. */
function choiceLoglikelihoods(sample: Sample): number[] | undefined {
  const responses = Array.isArray(sample.filtered_resps) ? sample.filtered_resps : undefined;
  if (!responses || responses.length < 2) return undefined;
  const values = responses.map((response) => (Array.isArray(response) && response.length === 2 ? Number(response[0]) : NaN));
  return values.every(Number.isFinite) ? values : undefined;
}

function argumentsList(sample: Sample): Array<{ arg_0?: unknown; arg_1?: unknown }> {
  const args = sample.arguments;
  if (Array.isArray(args)) return args.map((pair) => (Array.isArray(pair) ? { arg_0: pair[0], arg_1: pair[1] } : {}));
  if (args && typeof args === 'object') {
    return Object.keys(args)
      .sort((a, b) => Number(a.split('_').pop()) - Number(b.split('_').pop()))
      .map((key) => (args as Record<string, { arg_0?: unknown; arg_1?: unknown }>)[key]);
  }
  return [];
}

/** The fields lm-eval writes itself; the rest of a sample are its task's metrics. */
const SAMPLE_FIELDS = new Set([
  'doc_id',
  'doc',
  'target',
  'arguments',
  'resps',
  'filtered_resps',
  'filter',
  'metrics',
  'doc_hash',
  'prompt_hash',
  'target_hash',
]);

/** The names of the sample's metrics: its `metrics` list, or (older files without one) every key lm-eval added besides its own fields. */
function metricNamesOf(sample: Sample): string[] {
  return Array.isArray(sample.metrics) ? sample.metrics.map(String) : Object.keys(sample).filter((key) => !SAMPLE_FIELDS.has(key));
}

/** The per-sample score: `acc`, else the first of the task's metrics that is a number in [0, 1]. */
function correctOf(sample: Sample): number | undefined {
  for (const name of ['acc', ...metricNamesOf(sample)]) {
    const value = sample[name];
    if (typeof value === 'number' && value >= 0 && value <= 1) return value;
    if (typeof value === 'boolean') return value ? 1 : 0;
  }
  return undefined;
}

function samplesToRecords(samples: Sample[], task: string, file: string): EvalRecord[] {
  return samples.map((sample, index) => {
    const filter = typeof sample.filter === 'string' && sample.filter !== 'none' ? sample.filter : undefined;
    const args = argumentsList(sample);
    const record: EvalRecord = {
      scenario: filter ? `${task}/${filter}` : task,
      id: String(sample.doc_id ?? index),
      input: typeof args[0]?.arg_0 === 'string' ? args[0].arg_0 : undefined,
      references: [String(sample.target ?? '')],
    };
    const correct = correctOf(sample);
    if (correct === undefined) {
      const names = metricNamesOf(sample);
      const metrics = names.length > 0 ? ` (${names.join(', ')})` : '';
      throw new InputError(
        file,
        index + 1,
        `sample ${record.id} has no per-sample score in [0, 1]: its metrics${metrics} are computed over the whole task, so only the task's summary (results_*.json) can be gated`,
      );
    }
    record.correct = correct;
    const provenance = provenanceOf({ input: sample.doc, references: record.references });
    if (provenance) record.provenance = provenance;
    const loglikelihoods = choiceLoglikelihoods(sample);
    if (loglikelihoods) {
      const best = loglikelihoods.indexOf(Math.max(...loglikelihoods));
      const peak = loglikelihoods[best];
      const total = loglikelihoods.reduce((sum, value) => sum + Math.exp(value - peak), 0);
      record.confidence = 1 / total;
      const continuation = args[best]?.arg_1;
      if (typeof continuation === 'string') record.prediction = continuation.trim();
    } else if (Array.isArray(sample.filtered_resps) && typeof sample.filtered_resps[0] === 'string') {
      record.prediction = sample.filtered_resps[0];
    }
    return record;
  });
}

/**
 * Per task, the newest of a folder's samples files: every run of a task writes its own (as it writes
 * its own results file), and records of two runs would repeat the same (scenario, id).
 */
function newestSamplesFiles(names: string[]): string[] {
  const newest = new Map<string, { name: string; timestamp: string }>();
  for (const name of names) {
    const match = SAMPLES_FILE.exec(name);
    if (!match) continue;
    const [, task, timestamp] = match;
    const kept = newest.get(task);
    if (!kept || timestamp > kept.timestamp) newest.set(task, { name, timestamp });
  }
  return [...newest.values()].map((entry) => entry.name).sort();
}

/** Records from a samples file, or from the newest samples file of each task in a directory (an lm-eval output folder). */
export async function importLmEval(path: string): Promise<EvalRecord[]> {
  let files: string[];
  try {
    files = (await stat(path)).isDirectory() ? newestSamplesFiles(await readdir(path)).map((name) => join(path, name)) : [path];
  } catch {
    throw new InputError(path, undefined, 'no such file or directory');
  }
  if (files.length === 0) {
    throw new InputError(path, undefined, 'no samples_<task>_<timestamp>.jsonl files (run lm-eval with --log_samples)');
  }
  const records: EvalRecord[] = [];
  for (const file of files) {
    const task = SAMPLES_FILE.exec(basename(file))?.[1];
    if (!task) throw new InputError(file, undefined, 'not a samples file: expected a name like samples_<task>_<timestamp>.jsonl');
    for (const record of samplesToRecords(await readSamples(file), task, file)) records.push(record); // not push(...): a task of 100,000s of samples
  }
  return records;
}

const RESULTS_FILE = /^results(_.*)?\.json$/;

/**
 * An lm-eval summary (`results*.json`, versions 0.4.0 on) -> the metrics report of
 * `evalgate metrics --json`: every "metric,filter" of every task as `<task>/<metric>` (with
 * `/<filter>` when the filter is not `none`) under "overall", its stderr as a 95% interval (none when
 * "N/A"), `n` from n-samples. Gate on them with checks that state their `direction`.
 */
export async function importLmEvalResults(file: string): Promise<MetricsReport> {
  const results = await readJsonFile<{
    results?: Record<string, Record<string, unknown>>;
    'n-samples'?: Record<string, { effective?: number; original?: number }>;
  }>(file, 'no such file', parsePythonJson);
  if (!results.results || typeof results.results !== 'object') {
    throw new InputError(file, undefined, 'no "results" object (expected an lm-eval results_*.json)');
  }
  const overall = dictionary<MetricValue>();
  for (const [task, values] of Object.entries(results.results)) {
    const samples = own(results['n-samples'], task);
    const n = samples?.effective ?? samples?.original ?? 0;
    for (const [key, value] of Object.entries(values)) {
      const [metric, filter = 'none'] = key.split(',');
      if (typeof value !== 'number' || metric.endsWith('_stderr') || metric === 'alias') continue;
      const stderr = values[`${metric}_stderr,${filter}`];
      const name = `${task}/${metric}${filter === 'none' ? '' : `/${filter}`}`;
      overall[name] = { value, ci: typeof stderr === 'number' ? [value - 1.959964 * stderr, value + 1.959964 * stderr] : null, n };
    }
  }
  if (Object.keys(overall).length === 0) throw new InputError(file, undefined, 'no numeric metrics in "results"');
  return { overall, scenarios: dictionary() };
}

/** Whether a path names an lm-eval summary (a results file, or a folder with results but no samples). */
export async function isLmEvalSummary(path: string): Promise<string | undefined> {
  try {
    if (!(await stat(path)).isDirectory()) return RESULTS_FILE.test(basename(path)) ? path : undefined;
    const names = await readdir(path);
    if (names.some((name) => SAMPLES_FILE.test(name))) return undefined;
    const newest = names
      .filter((name) => RESULTS_FILE.test(name))
      .sort()
      .pop();
    return newest ? join(path, newest) : undefined;
  } catch {
    return undefined;
  }
}

/** lm-eval samples files (-> records) or a results file (-> metrics), or their folder. */
export const lmEvalImporter = {
  format: 'lm-eval',
  async importResults(path: string): Promise<Imported> {
    const summary = await isLmEvalSummary(path);
    return summary
      ? { kind: 'metrics', report: await importLmEvalResults(summary) }
      : { kind: 'records', records: await importLmEval(path) };
  },
} as const satisfies Importer;
