import { plannedSpread, samplesToDetect } from '../gate/power.js';
import { recordValue, sampledValues, samplesOfScope } from '../metrics/record-values.js';
import { scopeNamed, sharedScopes, type Scope } from '../metrics/scope.js';
import type { RecordTable } from '../metrics/table.js';
import { varianceComponents, type VarianceSplit } from '../stats/variance-components.js';

/*
 * The samples-per-example half of `evalgate plan` (docs/statistics.md, "Samples per example"): how much
 * of a check's spread is the model's noise within an example's repeated samples, and how many samples
 * per example would let the check see what it must detect at today's instances.
 */

/** The columns a plan row gets from the samples. */
export interface SamplesColumns {
  /** Samples per example now: the scope's records per example, in both runs. */
  samples: number;
  /** The share of the spread's variance that is sampling noise within examples (null: not split, see samplesNote). */
  withinShare: number | null;
  /** Samples per example needed, at today's instances, to see what the check must detect (null: see samplesNote). */
  samplesNeeded: number | null;
  /** Why withinShare or samplesNeeded is null; null when both are given. */
  samplesNote: string | null;
}

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

/**
 * The samples columns of a check: its split applied to the spread, and the samples per example at
 * which it reaches `needSpread` (undefined when detect is not above the budget) on `instances` instances.
 */
export function samplesColumns(
  found: SamplesSplit,
  spread: number,
  needSpread: number | undefined,
  context: { instances: number; minInstances: number; unitMetric: boolean; detect: number },
): SamplesColumns {
  const { samples, split } = found;
  if (!split) return { samples, withinShare: null, samplesNeeded: null, samplesNote: found.note ?? null };
  const columns = { samples, withinShare: split.share };
  if (needSpread === undefined) return { ...columns, samplesNeeded: null, samplesNote: 'detect is not above the budget' };
  const { instances, minInstances, unitMetric, detect } = context;
  // A paired comparison needs its instances, and a unit metric a worsening's own spread (plannedSpread), whatever the samples.
  const needed =
    instances < minInstances || plannedSpread(0, unitMetric, detect, instances) > needSpread
      ? undefined
      : samplesToDetect(spread, split.share, split.samples, needSpread);
  return needed === undefined
    ? { ...columns, samplesNeeded: null, samplesNote: 'more samples cannot reach it at this size: needs more instances' }
    : { ...columns, samplesNeeded: needed, samplesNote: null };
}
