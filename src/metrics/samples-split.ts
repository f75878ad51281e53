import { recordValue, sampledValues, samplesOfScope } from './record-values.js';
import { scopeNamed, sharedScopes, type Scope } from './scope.js';
import type { RecordTable } from './table.js';
import { varianceComponents, type VarianceSplit } from '../stats/variance-components.js';

/*
 * How much of a check's spread is the model's noise within an example's repeated samples
 * (docs/statistics.md, "Samples per example"): what `evalgate plan` and the gate's power
 * (gate/power.ts samplesColumns) turn into the samples per example a check needs.
 */

/** What a check's comparison splits into, or why it does not split. */
export interface SamplesSplit {
  samples: number;
  split?: VarianceSplit;
  note?: string;
}

/** The split of a check's comparison: the candidate's and the baseline's samples, paired on shared instances, or the baseline's alone. */
export function splitSamples(metric: string, scenario: string | undefined, baseline: RecordTable, candidate?: RecordTable): SamplesSplit {
  let runs: Array<{ name: string; table: RecordTable; scope: Scope }>;
  if (candidate) {
    const scopes = sharedScopes(candidate, baseline, scenario);
    runs = [
      { name: 'the candidate', table: candidate, scope: scopes.candidate },
      { name: 'the baseline', table: baseline, scope: scopes.baseline },
    ];
  } else {
    runs = [{ name: 'the baseline', table: baseline, scope: scopeNamed(baseline, scenario) }];
  }
  const counts = runs.map(({ table, scope }) => samplesOfScope(table, scope));
  const examples = counts.reduce((total, count) => total + count.examples, 0);
  const samples = examples > 0 ? counts.reduce((total, count) => total + count.records, 0) / examples : 1;
  const values = runs.map(({ table }) => recordValue(table, metric));
  if (values.some((value) => value === undefined)) return { samples, note: `${metric} is not a mean of a per-record value: not split` };
  const once = counts.findIndex((count) => count.records === count.examples);
  if (once >= 0) {
    const who = runs.length > 1 ? `${runs[once].name} has ` : '';
    return { samples, note: `${who}one sample per example: the noise within examples cannot be told apart` };
  }
  const split = varianceComponents(runs.map(({ table, scope }, index) => sampledValues(table, scope, values[index]!)));
  if (!split) return { samples, note: `no example with two samples of ${metric} in a run, or fewer than two instances: not split` };
  return { samples, split };
}
