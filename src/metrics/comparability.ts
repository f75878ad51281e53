import { verified } from './provenance.js';
import { changedInstancesOf, instanceKeyOf, instanceMatch, type RecordTable } from './table.js';

/*
 * Whether two runs' records of an instance answered the same question (records' `provenance`): the
 * instances paired by id whose input or references differ are changed (and not paired); those paired
 * where either run does not say what they answered are unverified (paired as before).
 */

export interface RunsComparability {
  /** Instances both runs have by id. */
  paired: number;
  /** Instances both runs have by id whose input or references differ. */
  changed: number;
  /** The first `shown` changed instances' keys (records/key.ts), in the candidate's order. */
  changedShown: string[];
  /** Instances paired without both runs' input and references hashes. */
  unverified: number;
}

export function comparabilityOf(candidate: RecordTable, baseline: RecordTable, shown: number): RunsComparability {
  const match = instanceMatch(candidate, baseline); // changed instances are -1 here
  const changed = changedInstancesOf(candidate, baseline);
  const both = candidate.provenance && baseline.provenance ? { mine: candidate.provenance, theirs: baseline.provenance } : undefined;
  let unverified = 0;
  let pairedAsSame = 0;
  for (let instance = 0; instance < match.length; instance++) {
    const other = match[instance];
    if (other < 0) continue;
    pairedAsSame++;
    if (!both || !verified(both.mine, both.theirs, instance, other)) unverified++;
  }
  return {
    paired: pairedAsSame + changed.length,
    changed: changed.length,
    changedShown: Array.from(changed.subarray(0, shown), (instance) => instanceKeyOf(candidate, instance)),
    unverified,
  };
}

/** The scorers (judges' fingerprints) of a scope in two runs, where they differ. */
export interface ScorerMismatch {
  /** The scenario where they differ first. */
  scenario: string;
  candidate: string[];
  baseline: string[];
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((each) => b.has(each));

/**
 * Whether the runs' records of a scope were scored differently (records' `provenance.scorer`: a judge's
 * fingerprint, "" for none): in the scenario, or (undefined) in the first scenario both runs have where
 * they differ. Grades of two judges, or of a judge and a function of the text, measure different things.
 */
export function scorerMismatch(candidate: RecordTable, baseline: RecordTable, scenario: string | undefined): ScorerMismatch | undefined {
  const names = scenario === undefined ? candidate.scenarios : [scenario];
  for (const name of names) {
    const mine = candidate.scenarios.indexOf(name);
    const theirs = baseline.scenarios.indexOf(name);
    // A run none of whose records there was answered (every call failed) has no scorer to compare.
    const [ours, other] = [candidate.scorers[mine], baseline.scorers[theirs]];
    if (!ours || !other || ours.size === 0 || other.size === 0 || sameSet(ours, other)) continue;
    return { scenario: name, candidate: [...candidate.scorers[mine]].sort(), baseline: [...baseline.scorers[theirs]].sort() };
  }
  return undefined;
}
