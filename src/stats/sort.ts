/** Decimal places tried for values written with few of them (a confidence to 4 places, a latency to 1). */
const MAX_DECIMALS = 6;

/**
 * Each row's value times 10^d as an integer, the fewest decimal places d (up to MAX_DECIMALS) that
 * give back every value exactly (k / 10^d === value), with the largest key; undefined when some value
 * needs more places, is negative, or the keys exceed `maxKey`. The keys then order the rows as their
 * values do, equal values and only they sharing a key (k / 10^d is one number per k, and rounding a
 * product by 10^d never reverses an order).
 */
export function decimalKeys(values: Float64Array, rows: Int32Array, maxKey: number): { keys: Int32Array; largest: number } | undefined {
  let scale = 1;
  let decimals = 0;
  for (let index = 0; index < rows.length; index++) {
    const value = values[rows[index]];
    while (Math.round(value * scale) / scale !== value) {
      if (++decimals > MAX_DECIMALS) return undefined;
      scale *= 10;
    }
  }
  // The places found suit every value seen after them; those seen before are checked again here.
  const keys = new Int32Array(rows.length);
  let largest = 0;
  for (let index = 0; index < rows.length; index++) {
    const value = values[rows[index]];
    const key = Math.round(value * scale);
    // Stryker disable next-line ConditionalExpression: the first loop found each value exact at the places of its time, and a value exact with d places is exact with more while its key is below 2^51 (keys are at most maxKey, an Int32), so `key / scale !== value` is never true here; the condition's other mutants are killed
    if (!(key >= 0 && key <= maxKey) || key / scale !== value) return undefined;
    keys[index] = key;
    // Stryker disable next-line EqualityOperator: `>=` sets largest to the key it already is
    if (key > largest) largest = key;
  }
  return { keys, largest };
}

/** A counting sort of rows by keys at most `largest`, ties kept in the order given. */
function countingSort(rows: Int32Array, keys: Int32Array, largest: number): Int32Array {
  const start = new Int32Array(largest + 2);
  // Stryker disable next-line EqualityOperator: `<=` reads keys[length], undefined: start[NaN]++ is dropped
  for (let index = 0; index < keys.length; index++) start[keys[index] + 1]++;
  // Stryker disable next-line EqualityOperator: `<` leaves start[largest + 1] unsummed, and no key is largest + 1
  for (let key = 0; key <= largest; key++) start[key + 1] += start[key];
  const order = new Int32Array(rows.length);
  // Stryker disable next-line EqualityOperator: `<=` writes order[NaN], which is dropped
  for (let index = 0; index < keys.length; index++) order[start[keys[index]]++] = rows[index];
  return order;
}

/**
 * Orders rows by a non-negative number, ties kept in the order given, in linear time. Values with
 * few decimal places (confidences, latencies in tenths of a millisecond) are counted into one bucket
 * per value in one pass (decimalKeys); others go through an LSD radix sort of their 64 bits.
 */
export function sortRowsByValue(values: Float64Array, rows: Int32Array): Int32Array {
  // Stryker disable next-line ArithmeticOperator,MethodExpression: the bound only picks the counting sort or the radix sort, which give the same order (sort.test.ts)
  const decimal = decimalKeys(values, rows, Math.max(1 << 16, 4 * rows.length));
  return decimal ? countingSort(rows, decimal.keys, decimal.largest) : radixSortRowsByValue(values, rows);
}

/**
 * Orders rows by a non-negative number, ties kept in the order given: an LSD radix sort on the
 * number's 64 bits, 16 bits a pass (for non-negative doubles the bit patterns order as the numbers
 * do). Passes in which every row has the same digit are skipped.
 */
export function radixSortRowsByValue(values: Float64Array, rows: Int32Array): Int32Array {
  const n = rows.length;
  let keys = new Uint32Array(2 * n); // [low word, high word] of each row's double, little-endian
  const asDoubles = new Float64Array(keys.buffer);
  // Stryker disable next-line EqualityOperator: `<=` writes asDoubles[n], past its end: dropped
  for (let index = 0; index < n; index++) asDoubles[index] = values[rows[index]] + 0; // + 0 turns -0 into 0
  let order = Int32Array.from(rows);
  let nextKeys = new Uint32Array(2 * n);
  let nextOrder = new Int32Array(n);
  const start = new Int32Array(65536);
  for (const [word, shift] of [
    [0, 0],
    [0, 16],
    [1, 0],
    [1, 16],
  ] as const) {
    start.fill(0);
    for (let index = 0; index < n; index++) start[(keys[2 * index + word] >>> shift) & 0xffff]++;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: saves work only: a pass in which every row has the same digit (or no row) leaves the order as it is; `true` is killed
    if (n === 0 || start[(keys[word] >>> shift) & 0xffff] === n) continue; // one digit for all: nothing to do
    let position = 0;
    // Stryker disable next-line EqualityOperator: `<=` reads and writes start[65536], past its end: dropped
    for (let digit = 0; digit < 65536; digit++) {
      const count = start[digit];
      start[digit] = position;
      position += count;
    }
    for (let index = 0; index < n; index++) {
      const target = start[(keys[2 * index + word] >>> shift) & 0xffff]++;
      nextOrder[target] = order[index];
      nextKeys[2 * target] = keys[2 * index];
      nextKeys[2 * target + 1] = keys[2 * index + 1];
    }
    [order, nextOrder] = [nextOrder, order];
    [keys, nextKeys] = [nextKeys, keys];
  }
  return order;
}

/** Up to this many positions an insertion sort is faster than a radix pass over 2^11 counters (a scope of a few records). */
const INSERTION_SORT_MAX = 32;

/** `order` sorted by key in place, equal keys kept in order. */
function insertionSorted(order: Int32Array, keys: Int32Array): Int32Array {
  // Stryker disable next-line EqualityOperator: `<=` moves order[length], undefined, to order[length]: dropped
  for (let index = 1; index < order.length; index++) {
    const item = order[index];
    let at = index;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: `at >= 0` or `true` for `at > 0` reads keys[order[-1]], undefined, and `undefined > k` is false: the loop stops at 0 as well; the others are killed
    while (at > 0 && keys[order[at - 1]] > keys[item]) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = item;
  }
  return order;
}

/** Bits of a key per radix pass: 2^11 counters fit in the L1 cache beside the data. */
const KEY_DIGIT_BITS = 11;

/**
 * The positions 0..keys.length-1 ordered by their key, equal keys in position order: an LSD radix
 * sort in passes of 11 bits, as many as keys below `keyBound` need (two for a million).
 */
export function sortPositionsByKey(keys: Int32Array, keyBound: number): Int32Array {
  const n = keys.length;
  let order = new Int32Array(n);
  // Stryker disable next-line EqualityOperator: `<=` writes order[n], past its end: dropped
  for (let position = 0; position < n; position++) order[position] = position;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: saves work only: the insertion sort and the radix passes give the same stable order (random-sort-exact.test.ts)
  if (n <= INSERTION_SORT_MAX) return insertionSorted(order, keys);
  let next = new Int32Array(n);
  const digits = 1 << KEY_DIGIT_BITS;
  const start = new Int32Array(digits);
  // Stryker disable next-line EqualityOperator: `>=` adds a pass when keyBound is 2^shift, over a digit 0 for every key below it: the order stays; `<=` is killed
  for (let shift = 0; keyBound > 2 ** shift; shift += KEY_DIGIT_BITS) {
    start.fill(0);
    for (let index = 0; index < n; index++) start[(keys[index] >>> shift) & (digits - 1)]++;
    let position = 0;
    // Stryker disable next-line EqualityOperator: `<=` reads and writes start[digits], past its end: dropped
    for (let digit = 0; digit < digits; digit++) {
      const count = start[digit];
      start[digit] = position;
      position += count;
    }
    for (let index = 0; index < n; index++) {
      const item = order[index];
      next[start[(keys[item] >>> shift) & (digits - 1)]++] = item;
    }
    [order, next] = [next, order];
  }
  return order;
}
