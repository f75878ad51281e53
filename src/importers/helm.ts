import { join } from 'node:path';
import { exampleKey } from '../records/key.js';
import type { MetricsReport, MetricValue } from '../metrics/compute.js';
import { dictionary } from '../records/dictionary.js';
import { InputError } from '../errors.js';
import type { EvalRecord, Perturbation } from '../records/types.js';
import { provenanceOf, type Provenance } from '../records/provenance.js';
import { readJsonFile } from './read-json.js';
import type { Imported, Importer, ImportOptions } from './types.js';

/*
 * A HELM run directory -> records, one per instance and perturbation (train trial 0, test split; the
 * valid split only in a run without a test split):
 * per_instance_stats.json gives the scores (`exact_match`, else `quasi_exact_match`, as `correct`;
 * `max_prob` as `confidence` when the run had real log-probabilities; `inference_runtime` as
 * latency; token counts), scenario_state.json the prompt, the completion and the correct references,
 * run_spec.json the scenario's name. HELM marks each perturbation as robustness and/or fairness.
 * Separate-choice adapters score each choice in its own request: the prediction is then the choice
 * HELM picked (its predicted_index), the prompt that choice's.
 */

interface HelmStat {
  name: { name: string; split?: string; perturbation?: unknown };
  count: number;
  mean?: number;
  sum?: number;
}

interface HelmPerturbation {
  name: string;
  robustness?: boolean;
  fairness?: boolean;
}

interface InstanceStats {
  instance_id: string;
  train_trial_index?: number;
  perturbation?: HelmPerturbation;
  stats: HelmStat[];
}

interface HelmInstance {
  id: string;
  input?: { text?: string };
  perturbation?: HelmPerturbation;
  references?: Array<{ output: { text: string }; tags: string[] }>;
}

/**
 * An instance's provenance from its unperturbed form: its input's text, its references' texts as the
 * choices when some are not correct (multiple choice), the correct ones as the references.
 */
function helmProvenance(instance: HelmInstance | undefined): Provenance | undefined {
  const references = instance?.references ?? [];
  const correct = references.filter((reference) => reference.tags.includes('correct')).map((reference) => reference.output.text);
  const choices = correct.length < references.length ? references.map((reference) => reference.output.text) : undefined;
  return provenanceOf({ input: instance?.input?.text, choices, references: correct.length > 0 ? correct : undefined });
}

interface RequestState {
  instance: HelmInstance;
  train_trial_index?: number;
  /** Separate-choice adapters: the choice this request scores. */
  reference_index?: number | null;
  /** Separate-choice adapters: "original", or "calibration" for the choice without the question. */
  request_mode?: string | null;
  request?: { prompt?: string };
  result?: { success?: boolean; completions?: Array<{ text: string }>; error?: string };
}

function readJson<T>(directory: string, name: string): Promise<T> {
  return readJsonFile<T>(
    join(directory, name),
    'missing (a HELM run directory has run_spec.json, stats.json, per_instance_stats.json, scenario_state.json)',
  );
}

const SCORES = ['exact_match', 'quasi_exact_match', 'prefix_exact_match', 'quasi_prefix_exact_match', 'f1_score'];

function kindOf(perturbation: HelmPerturbation): Perturbation['kind'] {
  return perturbation.fairness && !perturbation.robustness ? 'fairness' : 'robustness';
}

const keyOf = (id: string, perturbation: HelmPerturbation | undefined) =>
  exampleKey({ scenario: '', id, perturbation: perturbation?.name });

/** A request of a separate-choice adapter (multiple_choice_separate_*): it scores one choice. */
const isSeparateChoice = (request: RequestState) => typeof request.reference_index === 'number';

/** The model's answer: its completion, or the choice a separate-choice request scores (its completion only echoes the prompt). */
function predictionOf(request: RequestState): string | undefined {
  return isSeparateChoice(request)
    ? request.instance.references?.[request.reference_index!]?.output.text
    : request.result?.completions?.[0]?.text;
}

export async function importHelm(directory: string): Promise<EvalRecord[]> {
  const runSpec = await readJson<{ name?: string }>(directory, 'run_spec.json');
  const perInstance = await readJson<InstanceStats[]>(directory, 'per_instance_stats.json');
  const state = await readJson<{ request_states?: RequestState[] }>(directory, 'scenario_state.json');
  if (typeof runSpec.name !== 'string') throw new InputError(join(directory, 'run_spec.json'), undefined, '"name" is missing');
  if (!Array.isArray(perInstance)) {
    throw new InputError(join(directory, 'per_instance_stats.json'), undefined, 'expected a list of instances');
  }
  const scenario = runSpec.name.split(':')[0];

  // Per instance and perturbation, its requests of train trial 0 without calibration requests: one, or
  // one per choice for the separate-choice adapters (multiple_choice_separate_*).
  const requests = new Map<string, RequestState[]>();
  for (const request of state.request_states ?? []) {
    if ((request.train_trial_index ?? 0) !== 0 || (request.request_mode ?? 'original') !== 'original') continue;
    const key = keyOf(request.instance.id, request.instance.perturbation);
    requests.set(key, [...(requests.get(key) ?? []), request]);
  }
  // HELM evaluates the test split, and the valid split too when the run spec asks: records come from
  // the test split (as HELM's own summary), or from the valid split in a run that has no test split.
  const firstTrial = perInstance.filter((entry) => (entry.train_trial_index ?? 0) === 0);
  const split = firstTrial.some((entry) => entry.stats.some((stat) => stat.name.split === 'test')) ? 'test' : 'valid';
  const inSplit = (stat: InstanceStats['stats'][number]) => (stat.name.split ?? split) === split;
  const instances = firstTrial.filter((entry) => entry.stats.some(inSplit));
  const statsOf = (entry: InstanceStats) =>
    new Map(
      entry.stats.filter((stat) => inSplit(stat) && stat.count > 0 && stat.mean !== undefined).map((stat) => [stat.name.name, stat.mean!]),
    );
  // max_prob is 1 everywhere when the run had no real log-probabilities: not a confidence then.
  const calibrated = instances.some((entry) => (statsOf(entry).get('max_prob') ?? 1) < 1);

  return instances.map((entry, index) => {
    const stats = statsOf(entry);
    const scoreName = SCORES.find((name) => stats.has(name));
    if (!scoreName) {
      throw new InputError(
        join(directory, 'per_instance_stats.json'),
        undefined,
        `instance ${entry.instance_id} (entry ${index + 1}) has none of ${SCORES.join(', ')}`,
      );
    }
    const candidates = requests.get(keyOf(entry.instance_id, entry.perturbation)) ?? [];
    // With one request per choice, the request of the choice HELM picked (predicted_index).
    const request = candidates.some(isSeparateChoice)
      ? candidates.find((candidate) => candidate.reference_index === stats.get('predicted_index'))
      : candidates[0];
    const record: EvalRecord = {
      scenario,
      id: entry.instance_id,
      ...(entry.perturbation ? { perturbation: { name: entry.perturbation.name, kind: kindOf(entry.perturbation) } } : {}),
      correct: stats.get(scoreName)!,
    };
    if (calibrated && stats.has('max_prob')) record.confidence = stats.get('max_prob')!;
    if (stats.has('inference_runtime')) record.latency_ms = stats.get('inference_runtime')! * 1000;
    if (stats.has('num_prompt_tokens')) record.input_tokens = stats.get('num_prompt_tokens')!;
    if (stats.has('num_output_tokens')) record.output_tokens = stats.get('num_output_tokens')!;
    if (request?.request?.prompt !== undefined) record.input = request.request.prompt;
    const prediction = request && predictionOf(request);
    if (prediction !== undefined) record.prediction = prediction.trim();
    const references = candidates[0]?.instance.references
      ?.filter((reference) => reference.tags.includes('correct'))
      .map((reference) => reference.output.text);
    if (references && references.length > 0) record.references = references;
    const provenance = helmProvenance(requests.get(keyOf(entry.instance_id, undefined))?.[0]?.instance);
    if (provenance) record.provenance = provenance;
    return record;
  });
}

/**
 * HELM's own summary numbers (stats.json, test split) as a metrics file, under their HELM names:
 * `exact_match`, `ece_10_bin`, `toxic_frac`, ..., and the worst case over perturbations as
 * `exact_match (robustness)` / `exact_match (fairness)`. `n` is the number of instances from
 * per_instance_stats.json: stats.json's `count` counts train trials, not instances.
 */
export async function importHelmStats(directory: string): Promise<MetricsReport> {
  const stats = await readJson<HelmStat[]>(directory, 'stats.json');
  if (!Array.isArray(stats)) throw new InputError(join(directory, 'stats.json'), undefined, 'expected a list of stats');
  let n = 0;
  try {
    const perInstance = await readJson<InstanceStats[]>(directory, 'per_instance_stats.json');
    n = perInstance.filter((entry) => (entry.train_trial_index ?? 0) === 0 && !entry.perturbation).length;
  } catch {
    // Without per-instance stats the number of instances is unknown.
  }
  const overall = dictionary<MetricValue>();
  for (const stat of stats) {
    if (stat.name.split !== 'test' || stat.count === 0 || typeof stat.mean !== 'number') continue;
    const perturbation = stat.name.perturbation as { name?: string; computed_on?: string } | undefined;
    if (perturbation && perturbation.computed_on !== 'worst') continue;
    overall[perturbation ? `${stat.name.name} (${perturbation.name})` : stat.name.name] = { value: stat.mean, ci: null, n };
  }
  if (Object.keys(overall).length === 0) throw new InputError(join(directory, 'stats.json'), undefined, 'no test-split statistics');
  return { overall, scenarios: dictionary() };
}

/** A HELM run directory: records, or with `summary` HELM's own numbers as a metrics file. */
export const helmImporter = {
  format: 'helm',
  importResults: async (directory: string, options: ImportOptions): Promise<Imported> =>
    options.summary
      ? { kind: 'metrics', report: await importHelmStats(directory) }
      : { kind: 'records', records: await importHelm(directory) },
} as const satisfies Importer;
