/*
 * Keys that identify what a record is about, built and read back only here. An instance is a
 * scenario's example (scenario, id): the unit the bootstrap resamples and the gate pairs runs on. An
 * example is an instance or one of its perturbed variants (scenario, id, perturbation): one record of
 * a run. The parts are joined by NUL, which no scenario, id or perturbation name read from JSON is
 * expected to hold.
 */

const SEPARATOR = '\u0000';

export interface ExampleRef {
  scenario: string;
  id: string;
  /** The perturbation's name; absent on the original example. */
  perturbation?: string;
}

/** The key of an instance: its scenario and id. */
export function instanceKey(scenario: string, id: string): string {
  return `${scenario}${SEPARATOR}${id}`;
}

/** The key of an example: its instance and perturbation ("" for the original). */
export function exampleKey({ scenario, id, perturbation }: ExampleRef): string {
  return `${instanceKey(scenario, id)}${SEPARATOR}${perturbation ?? ''}`;
}

/** The example a record is: its scenario, id and perturbation name. */
export function exampleOf(record: { scenario: string; id: string; perturbation?: { name: string } | null }): ExampleRef {
  return { scenario: record.scenario, id: record.id, ...(record.perturbation ? { perturbation: record.perturbation.name } : {}) };
}

/** The parts of an instance or example key. */
export function parseKey(key: string): ExampleRef {
  const [scenario, id, perturbation] = key.split(SEPARATOR);
  return { scenario, id, ...(perturbation ? { perturbation } : {}) };
}

/** "scenario/id", with " (perturbation)" for a variant: how messages name an instance or example. */
export function describeKey(key: string): string {
  const { scenario, id, perturbation } = parseKey(key);
  return `${scenario}/${id}${perturbation ? ` (${perturbation})` : ''}`;
}
