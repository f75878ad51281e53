import { describe, expect, it } from '@jest/globals';
import { entriesOfSubset, numberSubset, unnumberSubset } from '../src/metrics/by-instance.js';
import { Random } from '../src/stats/random.js';
import { subScopes } from '../src/metrics/scope.js';

/*
 * A subset's entries (src/metrics/by-instance.ts) against a plain filter over every entry: the
 * entries of the subset's instances in their order, whichever way they are found (grouped by instance,
 * or a pass when there are few entries for the instances), with one entry per instance or several
 * scattered, and the subset in any order.
 */

/** Entries' instances: `perInstance` entries for each of `instances` instances, shuffled (a scope's perturbations lie anywhere). */
function entriesOf(random: Random, instances: number, perInstance: number, shuffled: boolean): Int32Array {
  const instanceOf = Int32Array.from({ length: instances * perInstance }, (_, entry) => Math.floor(entry / perInstance));
  if (shuffled) {
    for (let index = instanceOf.length - 1; index > 0; index--) {
      const other = random.nextBelow(index + 1);
      [instanceOf[index], instanceOf[other]] = [instanceOf[other], instanceOf[index]];
    }
  }
  return instanceOf;
}

function subsetOf(random: Random, instances: number, size: number, sorted: boolean): Int32Array {
  const all = Int32Array.from({ length: instances }, (_, instance) => instance);
  for (let index = 0; index < size; index++) {
    const other = index + random.nextBelow(instances - index);
    [all[index], all[other]] = [all[other], all[index]];
  }
  const subset = all.slice(0, size);
  return sorted ? subset.sort() : subset;
}

const plainEntries = (instanceOf: Int32Array, length: number, subset: Int32Array) =>
  Array.from(instanceOf.subarray(0, length).entries())
    .filter(([, instance]) => subset.includes(instance))
    .map(([entry]) => entry);

describe('the entries of a subset of instances', () => {
  const random = new Random(7);
  const cases = [
    { what: 'one entry per instance, in order', instances: 500, perInstance: 1, shuffled: false },
    { what: 'three entries per instance, scattered', instances: 400, perInstance: 3, shuffled: true },
    { what: 'few entries for many instances (a pass)', instances: 4000, perInstance: 1, shuffled: true, length: 100 },
  ];
  it.each(cases)('$what', ({ instances, perInstance, shuffled, length }) => {
    const instanceOf = entriesOf(random, instances, perInstance, shuffled);
    const used = length ?? instanceOf.length;
    const local = new Int32Array(instances).fill(-1);
    for (const sorted of [true, false]) {
      for (const size of [1, 37, instances]) {
        const subset = subsetOf(random, instances, size, sorted);
        numberSubset(local, subset);
        expect(Array.from(entriesOfSubset(instanceOf, used, local, subset))).toEqual(plainEntries(instanceOf, used, subset));
        unnumberSubset(local, subset);
        expect(local.every((number) => number === -1)).toBe(true);
      }
    }
  });

  it('groups entries afresh when their length changed (a slot that grew)', () => {
    const instanceOf = entriesOf(random, 200, 2, true);
    const local = new Int32Array(200).fill(-1);
    const subset = subsetOf(random, 200, 50, true);
    numberSubset(local, subset);
    expect(Array.from(entriesOfSubset(instanceOf, 300, local, subset))).toEqual(plainEntries(instanceOf, 300, subset));
    expect(Array.from(entriesOfSubset(instanceOf, 400, local, subset))).toEqual(plainEntries(instanceOf, 400, subset));
  });

  it("a scope's sub-scopes: each subset's rows in the scope's order, renumbered in subset order", () => {
    const instanceOfRow = entriesOf(random, 300, 3, true);
    const scope = { name: 's', rows: Int32Array.from(instanceOfRow, (_, index) => 10 * index), instanceOfRow, instanceCount: 300 };
    const subScope = subScopes(scope);
    for (const subset of [subsetOf(random, 300, 40, true), subsetOf(random, 300, 40, false)]) {
      const entries = plainEntries(instanceOfRow, instanceOfRow.length, subset);
      const { rows, instanceOfRow: numbers, instanceCount } = subScope(subset);
      expect(Array.from(rows)).toEqual(entries.map((entry) => 10 * entry));
      expect(Array.from(numbers)).toEqual(entries.map((entry) => subset.indexOf(instanceOfRow[entry])));
      expect(instanceCount).toBe(40);
    }
  });
});
