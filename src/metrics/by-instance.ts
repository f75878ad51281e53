/*
 * Picking out the entries of a few instances (a little-bootstrap subset) from entries that each belong
 * to an instance (a scope's rows, a slot's sums), in their order: a subset of a few thousand instances
 * of a scope of hundreds of thousands of entries should cost its own entries, not a pass over all of
 * them, ten subsets a metric and two runs a comparison.
 */

/**
 * Numbers a subset's instances in `local` (one entry per scope instance, every one -1): the subset's
 * i-th instance gets i. unnumberSubset sets them back to -1.
 */
export function numberSubset(local: Int32Array, subset: Int32Array): Int32Array {
  for (let number = 0; number < subset.length; number++) local[subset[number]] = number;
  return local;
}

export function unnumberSubset(local: Int32Array, subset: Int32Array): void {
  for (let number = 0; number < subset.length; number++) local[subset[number]] = -1;
}

/** Entries grouped by instance: instance i's are entries[start[i] .. start[i + 1]), in order. */
interface EntriesByInstance {
  start: Int32Array;
  entries: Int32Array;
}

/**
 * Grouping costs an array and a pass as long as the scope's instances, and a pass over the entries,
 * once; a pass costs the entries, every subset (ten a metric). Entries fewer than a quarter of the
 * instances (a calibration bin's, a group's) are passed over instead: as fast (measured), in less memory.
 */
const GROUPED_MIN_SHARE = 4;

// Each array of entries' instances grouped once (a scope's entries do not change once collected).
const grouped = new WeakMap<Int32Array, EntriesByInstance>();

/**
 * The positions among the first `length` entries of those whose instance (instanceOf) the subset has
 * (local[instance] >= 0: numberSubset's numbering of the subset's instances), ascending.
 */
export function entriesOfSubset(instanceOf: Int32Array, length: number, local: Int32Array, subset: Int32Array): Int32Array {
  if (length * GROUPED_MIN_SHARE < local.length) return entriesPassedOver(instanceOf, length, local);
  let byInstance = grouped.get(instanceOf);
  if (byInstance === undefined || byInstance.entries.length !== length) {
    byInstance = groupByInstance(instanceOf, length, local.length);
    grouped.set(instanceOf, byInstance);
  }
  return entriesOfInstances(byInstance, subset);
}

/** The entries of the instances `subset` lists, ascending. */
export function entriesOfInstances({ start, entries }: EntriesByInstance, subset: Int32Array): Int32Array {
  const picked = new Int32Array(countEntries(start, subset));
  let next = 0;
  let ascending = true;
  for (let index = 0; index < subset.length; index++) {
    const instance = subset[index];
    for (let entry = start[instance]; entry < start[instance + 1]; entry++) {
      // Ascending as they come when each instance has one entry (the subset ascends); else sorted back below.
      if (next > 0 && entries[entry] < picked[next - 1]) ascending = false;
      picked[next++] = entries[entry];
    }
  }
  return ascending ? picked : picked.sort();
}

/** How many entries the instances have. A function that ends with its loop (code after a loop V8 optimized midway bailed out). */
function countEntries(start: Int32Array, subset: Int32Array): number {
  let count = 0;
  for (let index = 0; index < subset.length; index++) count += start[subset[index] + 1] - start[subset[index]];
  return count;
}

/** The first `length` entries grouped by instance (a counting sort: each instance's in order). */
export function groupByInstance(instanceOf: Int32Array, length: number, instanceCount: number): EntriesByInstance {
  const start = new Int32Array(instanceCount + 1);
  countPerInstance(instanceOf, length, start);
  for (let instance = 0; instance < instanceCount; instance++) start[instance + 1] += start[instance];
  const entries = new Int32Array(length);
  placeEntries(instanceOf, start.slice(0, instanceCount), entries);
  return { start, entries };
}

function countPerInstance(instanceOf: Int32Array, length: number, start: Int32Array): void {
  for (let entry = 0; entry < length; entry++) start[instanceOf[entry] + 1]++;
}

function placeEntries(instanceOf: Int32Array, next: Int32Array, entries: Int32Array): void {
  for (let entry = 0; entry < entries.length; entry++) entries[next[instanceOf[entry]]++] = entry;
}

/** entriesOfSubset by a pass over the entries (few of them). */
function entriesPassedOver(instanceOf: Int32Array, length: number, local: Int32Array): Int32Array {
  const picked = new Int32Array(countKept(instanceOf, length, local));
  let next = 0;
  for (let entry = 0; entry < length; entry++) if (local[instanceOf[entry]] >= 0) picked[next++] = entry;
  return picked;
}

function countKept(instanceOf: Int32Array, length: number, local: Int32Array): number {
  let kept = 0;
  for (let entry = 0; entry < length; entry++) if (local[instanceOf[entry]] >= 0) kept++;
  return kept;
}
