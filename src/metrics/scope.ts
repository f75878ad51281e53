import { entriesOfInstances, groupByInstance, numberSubset } from './by-instance.js';
import { instanceMatch, type MetricsTable, type RecordTable } from './table.js';

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
  table: MetricsTable,
  name: string,
  keep: (row: number) => boolean,
  instanceNumber: (instance: number) => number,
  instanceCount: number,
): Scope {
  const rows = new Int32Array(table.size);
  const instances = new Int32Array(table.size);
  let count = 0;
  for (let row = 0; row < table.size; row++) {
    if (!keep(row)) continue;
    const local = instanceNumber(table.instanceOf[row]);
    if (local < 0) continue;
    rows[count] = row;
    instances[count++] = local;
  }
  return { name, rows: rows.slice(0, count), instanceOfRow: instances.slice(0, count), instanceCount };
}

/**
 * The scopes of the given scenarios (all of them, or one), each one's rows in input order and its
 * instances numbered from 0 in order of first appearance: two passes over the table whatever the number
 * of scenarios.
 */
function scenarioScopes(table: MetricsTable, wanted: (scenario: number) => boolean): Array<Scope | undefined> {
  const rowCount = new Int32Array(table.scenarios.length);
  const instanceCount = new Int32Array(table.scenarios.length);
  const localNumber = new Int32Array(table.instanceCount).fill(-1);
  for (let row = 0; row < table.size; row++) {
    const scenario = table.scenarioOf[row];
    rowCount[scenario]++;
    const instance = table.instanceOf[row];
    if (localNumber[instance] < 0) localNumber[instance] = instanceCount[scenario]++;
  }
  const scopes = table.scenarios.map((name, scenario): Scope | undefined => {
    if (!wanted(scenario)) return undefined;
    const rows = new Int32Array(rowCount[scenario]);
    return { name, rows, instanceOfRow: new Int32Array(rows.length), instanceCount: instanceCount[scenario] };
  });
  const filled = new Int32Array(table.scenarios.length);
  for (let row = 0; row < table.size; row++) {
    const scope = scopes[table.scenarioOf[row]];
    if (!scope) continue;
    const position = filled[table.scenarioOf[row]]++;
    scope.rows[position] = row;
    scope.instanceOfRow[position] = localNumber[table.instanceOf[row]];
  }
  return scopes;
}

function overallScope(table: MetricsTable): Scope {
  const rows = new Int32Array(table.size);
  for (let row = 0; row < table.size; row++) rows[row] = row;
  return { name: OVERALL, rows, instanceOfRow: table.instanceOf, instanceCount: table.instanceCount };
}

/** One scope: overall (`scenario` undefined), or a scenario's (empty for a scenario the table lacks). */
export function scopeNamed(table: MetricsTable, scenario?: string): Scope {
  if (scenario === undefined) return overallScope(table);
  const index = table.scenarios.indexOf(scenario);
  const empty = { name: scenario, rows: new Int32Array(0), instanceOfRow: new Int32Array(0), instanceCount: 0 };
  return index < 0 ? empty : scenarioScopes(table, (other) => other === index)[index]!;
}

/** "overall" followed by one scope per scenario, in order of first appearance. */
export function scopesOf(table: MetricsTable): Scope[] {
  const scenarios = scenarioScopes(table, () => true);
  return [overallScope(table), ...scenarios.map((scope) => scope!)];
}

/**
 * Scopes of two runs restricted to the instances they share, numbered alike (in the candidate's order
 * of first appearance), so that one resample of instance numbers applies to both (the paired
 * bootstrap). `scenario` undefined means overall.
 */
export function sharedScopes(
  candidate: RecordTable,
  baseline: RecordTable,
  scenario?: string,
): { candidate: Scope; baseline: Scope; shared: number } {
  const match = instanceMatch(candidate, baseline);
  const inScope = (table: RecordTable): ((row: number) => boolean) => {
    if (scenario === undefined) return () => true;
    const index = table.scenarios.indexOf(scenario);
    return (row) => table.scenarioOf[row] === index;
  };
  const candidateNumber = new Int32Array(candidate.instanceCount).fill(-1);
  const baselineNumber = new Int32Array(baseline.instanceCount).fill(-1);
  let shared = 0;
  const candidateKeep = inScope(candidate);
  for (let row = 0; row < candidate.size; row++) {
    if (!candidateKeep(row)) continue;
    const instance = candidate.instanceOf[row];
    const other = match[instance];
    if (other < 0 || candidateNumber[instance] >= 0) continue;
    candidateNumber[instance] = shared;
    baselineNumber[other] = shared++;
  }
  const name = scenario ?? OVERALL;
  return {
    candidate: scopeOf(candidate, name, candidateKeep, (instance) => candidateNumber[instance], shared),
    baseline: scopeOf(baseline, name, inScope(baseline), (instance) => baselineNumber[instance], shared),
    shared,
  };
}

/**
 * The parts of a scope made of some of its instances: subsets(subset) holds the scope's rows of those
 * instances, in the scope's order, renumbered 0..subset.length-1 in subset order. The scope's rows are
 * grouped by instance once, so that a subset costs its own rows, not a pass over the scope (ten subsets
 * of a few thousand instances each, in scopes of hundreds of thousands of rows).
 */
export function subScopes(scope: Scope): (subset: Int32Array) => Scope {
  const { rows, instanceOfRow, instanceCount } = scope;
  const byInstance = groupByInstance(instanceOfRow, instanceOfRow.length, instanceCount);
  const local = new Int32Array(instanceCount); // each subset instance's number, set per call
  return (subset) => {
    numberSubset(local, subset);
    const entries = entriesOfInstances(byInstance, subset); // in the scope's order
    const subsetRows = new Int32Array(entries.length);
    const subsetInstances = new Int32Array(entries.length);
    for (let index = 0; index < entries.length; index++) {
      subsetRows[index] = rows[entries[index]];
      subsetInstances[index] = local[instanceOfRow[entries[index]]];
    }
    return { name: scope.name, rows: subsetRows, instanceOfRow: subsetInstances, instanceCount: subset.length };
  };
}
