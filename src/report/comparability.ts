import { z } from 'zod';
import { comparabilityOf } from '../metrics/comparability.js';
import { describeKey } from '../records/key.js';
import type { RunInput } from '../runs/load.js';

/*
 * The report's `comparability` (report v1, added within the version): how many of the instances the two
 * runs share by id asked something else in each (changed: not paired, not compared, not covered) and how
 * many could not be checked (unverified: records without provenance, paired as before).
 */

/** How many changed instances the report names. */
const CHANGED_SHOWN = 10;

export const comparabilitySchema = z.object({
  /** Instances both runs have by id (scenario and id). */
  paired: z.int().nonnegative(),
  /** Of them, those whose input or references differ between the runs: not paired. */
  changed: z.int().nonnegative(),
  /** A few of the changed instances, "scenario/id". */
  changedInstances: z.array(z.string()),
  /** Of the others, those one run's records do not say what they answered (no `provenance`): paired as before. */
  unverified: z.int().nonnegative(),
  reason: z.string(),
});
export type Comparability = z.output<typeof comparabilitySchema>;

const instances = (count: number) => `${count} instance${count === 1 ? '' : 's'}`;

/** Whether the reports show it: something changed or could not be checked. */
export const worthShowing = (comparability: Comparability | null | undefined): comparability is Comparability =>
  !!comparability && (comparability.changed > 0 || comparability.unverified > 0);

/** The two runs' comparability, when both are records files; else null. */
export function runsComparability(candidate: RunInput, baseline: RunInput | undefined): Comparability | null {
  if (candidate.kind !== 'records' || baseline?.kind !== 'records') return null;
  const { paired, changed, changedShown, unverified } = comparabilityOf(candidate.table, baseline.table, CHANGED_SHOWN);
  const shown = changedShown.map(describeKey);
  const parts = [];
  if (changed > 0) {
    const more = changed > shown.length ? ` and ${changed - shown.length} more` : '';
    parts.push(
      `${instances(changed)} of the ${paired} both runs have changed (input or references differ) and are not compared: ${shown.join(', ')}${more}`,
    );
  }
  if (unverified > 0) parts.push(`${instances(unverified)} paired without provenance in both runs' records: not checked for changes`);
  return {
    paired,
    changed,
    changedInstances: shown,
    unverified,
    reason: parts.length > 0 ? parts.join('; ') : `the ${instances(paired)} both runs have asked the same`,
  };
}

/** ", suite sha256 0123456789ab" for a run whose records name the suite they were run from (hex: nothing to escape); else "". */
export function suitesNote(summary: { suites?: string[] } | null): string {
  const suites = summary?.suites ?? [];
  return suites.length > 0 ? `, suite sha256 ${suites.map((hash) => hash.slice(0, 12)).join(' and ')}` : '';
}
