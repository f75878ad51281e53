/*
 * Keys that identify what a record is about, built and read back only here. An instance is a
 * scenario's example (scenario, id): the unit the bootstrap resamples and the gate pairs runs on. An
 * example is an instance or one of its perturbed variants (scenario, id, perturbation); a run that
 * asks the model several times has several samples of each example, one record each (scenario, id,
 * perturbation, sample). The parts are joined by NUL, which no scenario, id or perturbation name read
 * from JSON is expected to hold. Sample 0 adds nothing to a key, so that the keys of runs without
 * repeated samples are what they always were.
 */

import { InputError } from '../errors.js';

const SEPARATOR = '\u0000';

export interface ExampleRef {
  scenario: string;
  id: string;
  /** The perturbation's name; absent on the original example. */
  perturbation?: string;
  /** Which repeated sample (0-based); absent means 0. */
  sample?: number;
}

/** The key of an instance: its scenario and id. */
export function instanceKey(scenario: string, id: string): string {
  return `${scenario}${SEPARATOR}${id}`;
}

/** The key of one sample of an example: its instance, perturbation ("" for the original) and sample (nothing for 0). */
export function exampleKey({ scenario, id, perturbation, sample }: ExampleRef): string {
  return `${instanceKey(scenario, id)}${SEPARATOR}${perturbation ?? ''}${sample ? `${SEPARATOR}${sample}` : ''}`;
}

/** The example and sample a record is: its scenario, id, perturbation name and sample (when not 0). */
export function exampleOf(record: {
  scenario: string;
  id: string;
  perturbation?: { name: string } | null;
  sample?: number | null;
}): ExampleRef {
  return {
    scenario: record.scenario,
    id: record.id,
    ...(record.perturbation ? { perturbation: record.perturbation.name } : {}),
    ...(record.sample ? { sample: record.sample } : {}),
  };
}

/** The parts of an instance or example key. */
export function parseKey(key: string): ExampleRef {
  const [scenario, id, perturbation, sample] = key.split(SEPARATOR);
  return { scenario, id, ...(perturbation ? { perturbation } : {}), ...(sample ? { sample: Number(sample) } : {}) };
}

/**
 * "scenario/id", with " (perturbation)" for a variant, " (perturbation, sample k)" or " (sample k)" for
 * a sample k > 0: how messages name an instance or example.
 */
export function describeKey(key: string): string {
  const { scenario, id, perturbation, sample } = parseKey(key);
  const details = [perturbation, sample && `sample ${sample}`].filter(Boolean);
  return `${scenario}/${id}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

/** The error for a second record of one sample of an example (its key) at `line` of `file`, the first at `earlier`. */
export function duplicateExample(file: string, line: number, key: string, earlier: number): InputError {
  return new InputError(
    file,
    line,
    `${describeKey(key)} appears twice (first on line ${earlier}): one record per example and sample (scenario, id, perturbation, sample)`,
  );
}
