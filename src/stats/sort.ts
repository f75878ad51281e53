/**
 * Orders rows by a non-negative number, ties kept in the order given, in linear time: an LSD radix
 * sort on the number's 64 bits, 16 bits a pass (for non-negative doubles the bit patterns order as
 * the numbers do). Passes in which every row has the same digit are skipped.
 */
export function sortRowsByValue(values: Float64Array, rows: Int32Array): Int32Array {
  const n = rows.length;
  let keys = new Uint32Array(2 * n); // [low word, high word] of each row's double, little-endian
  const asDoubles = new Float64Array(keys.buffer);
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
    if (n === 0 || start[(keys[word] >>> shift) & 0xffff] === n) continue; // one digit for all: nothing to do
    let position = 0;
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

/** The same rows from the largest value down, ties still in the order given. */
export function reverseKeepingTies(ascending: Int32Array, values: Float64Array): Int32Array {
  const descending = new Int32Array(ascending.length);
  let next = 0;
  let end = ascending.length;
  while (end > 0) {
    let begin = end - 1;
    while (begin > 0 && values[ascending[begin - 1]] === values[ascending[end - 1]]) begin--;
    descending.set(ascending.subarray(begin, end), next);
    next += end - begin;
    end = begin;
  }
  return descending;
}
