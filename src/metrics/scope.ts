import type { RecordTable } from './table.js';

/**
 * A scope is the set of records one set of metrics is computed over: "overall" (all records pooled)
 * or one scenario. Its instances (scenario, id) are numbered 0..instanceCount-1: the bootstrap
 * resamples those numbers, so an instance and its perturbations always move together.
 */
export interface Scope {
  name: string;
  /** Table rows of the scope, in input order. */
  rows: Int32Array;
  /** The scope's instance number of each entry of `rows`. */
  instanceOfRow: Int32Array;
  instanceCount: number;
}

export const OVERALL = 'overall';

function scopeOf(
  table: RecordTable,
  name: string,
  keep: (row: number) => boolean,
  instanceNumber: (instance: number) => number,
  instanceCount: number,
): Scope {
  const rows: number[] = [];
  const instances: number[] = [];
  for (let row = 0; row < table.size; row++) {
    if (!keep(row)) continue;
    const local = instanceNumber(table.instanceOf[row]);
    if (local < 0) continue;
    rows.push(row);
    instances.push(local);
  }
  return { name, rows: Int32Array.from(rows), instanceOfRow: Int32Array.from(instances), instanceCount };
}

/** One scope: overall (`scenario` undefined), or a scenario's, its instances numbered from 0 in order of first appearance. */
export function scopeNamed(table: RecordTable, scenario?: string): Scope {
  if (scenario === undefined) {
    return {
      name: OVERALL,
      rows: Int32Array.from({ length: table.size }, (_, row) => row),
      instanceOfRow: table.instanceOf,
      instanceCount: table.instanceCount,
    };
  }
  const index = table.scenarios.indexOf(scenario);
  const localNumber = new Int32Array(table.instanceCount).fill(-1);
  let count = 0;
  for (let row = 0; row < table.size; row++) {
    if (table.scenarioOf[row] === index && localNumber[table.instanceOf[row]] < 0) localNumber[table.instanceOf[row]] = count++;
  }
  return scopeOf(
    table,
    scenario,
    (row) => table.scenarioOf[row] === index,
    (instance) => localNumber[instance],
    count,
  );
}

/** "overall" followed by one scope per scenario, in order of first appearance. */
export function scopesOf(table: RecordTable): Scope[] {
  const overall = scopeNamed(table);
  // Number each scenario's instances from 0 in order of first appearance.
  const localNumber = new Int32Array(table.instanceCount).fill(-1);
  const instancesPerScenario = new Int32Array(table.scenarios.length);
  for (let row = 0; row < table.size; row++) {
    const instance = table.instanceOf[row];
    if (localNumber[instance] < 0) localNumber[instance] = instancesPerScenario[table.scenarioOf[row]]++;
  }
  const scenarioScopes = table.scenarios.map((name, scenario) =>
    scopeOf(
      table,
      name,
      (row) => table.scenarioOf[row] === scenario,
      (instance) => localNumber[instance],
      instancesPerScenario[scenario],
    ),
  );
  return [overall, ...scenarioScopes];
}

/**
 * Scopes of two runs restricted to the instances they share, numbered alike, so that one resample
 * of instance numbers applies to both (the paired bootstrap). `scenario` undefined means overall.
 */
export function sharedScopes(
  candidate: RecordTable,
  baseline: RecordTable,
  scenario?: string,
): { candidate: Scope; baseline: Scope; shared: number } {
  const inScope = (table: RecordTable): ((row: number) => boolean) => {
    if (scenario === undefined) return () => true;
    const index = table.scenarios.indexOf(scenario);
    return (row) => table.scenarioOf[row] === index;
  };
  const baselineInstances = new Map(baseline.instanceKeys.map((key, instance) => [key, instance]));
  const sharedNumber = new Map<string, number>();
  const candidateKeep = inScope(candidate);
  for (let row = 0; row < candidate.size; row++) {
    if (!candidateKeep(row)) continue;
    const key = candidate.instanceKeys[candidate.instanceOf[row]];
    if (!sharedNumber.has(key) && baselineInstances.has(key)) sharedNumber.set(key, sharedNumber.size);
  }
  const numbering = (table: RecordTable): ((instance: number) => number) => {
    const numbers = table.instanceKeys.map((key) => sharedNumber.get(key) ?? -1);
    return (instance) => numbers[instance];
  };
  const name = scenario ?? OVERALL;
  return {
    candidate: scopeOf(candidate, name, candidateKeep, numbering(candidate), sharedNumber.size),
    baseline: scopeOf(baseline, name, inScope(baseline), numbering(baseline), sharedNumber.size),
    shared: sharedNumber.size,
  };
}

/** The part of a scope made of some of its instances, renumbered 0..subset.length-1 in subset order. */
export function subScope(scope: Scope, subset: Int32Array): Scope {
  const renumber = new Int32Array(scope.instanceCount).fill(-1);
  subset.forEach((instance, index) => (renumber[instance] = index));
  const rows: number[] = [];
  const instances: number[] = [];
  for (let index = 0; index < scope.rows.length; index++) {
    const local = renumber[scope.instanceOfRow[index]];
    if (local < 0) continue;
    rows.push(scope.rows[index]);
    instances.push(local);
  }
  return { name: scope.name, rows: Int32Array.from(rows), instanceOfRow: Int32Array.from(instances), instanceCount: subset.length };
}
