import { describe, expect, it } from '@jest/globals';
import { decimalKeys, radixSortRowsByValue, sortRowsByValue } from '../src/stats/sort.js';
import { Random } from '../src/stats/random.js';

/*
 * The orderings the metrics rest on (src/stats/sort.ts), checked against a plain stable sort of the
 * rows by value: values with few decimal places are counted into buckets, the others radix-sorted,
 * and both must give the very same order, ties in the order given.
 */
function plainOrder(values: Float64Array, rows: Int32Array): Int32Array {
  return Int32Array.from(
    Array.from(rows, (row, position) => ({ row, position })).sort((a, b) => values[a.row] - values[b.row] || a.position - b.position),
    ({ row }) => row,
  );
}

/** Rows 0..n-1 in a shuffled order, so that "the order given" is not the rows' own. */
function shuffledRows(random: Random, n: number): Int32Array {
  const rows = Int32Array.from({ length: n }, (_, row) => row);
  for (let index = n - 1; index > 0; index--) {
    const other = random.nextBelow(index + 1);
    [rows[index], rows[other]] = [rows[other], rows[index]];
  }
  return rows;
}

describe('ordering rows by value', () => {
  // Each test draws from its own generator, made in the test: Stryker counts code run outside every test static.
  const kinds: Array<[string, (random: Random) => number]> = [
    ['confidences to 4 places', (random) => Number((random.nextFloat() * 1.0001).toFixed(4))],
    ['latencies to 1 place', (random) => Number((Math.exp(6 + 2 * random.nextFloat()) * (random.nextFloat() < 0.1 ? 30 : 1)).toFixed(1))],
    ['a few levels, many ties', (random) => [0, 0.25, 0.5, 0.30000000000000004, 1][random.nextBelow(5)]],
    ['integers', (random) => random.nextBelow(1000)],
    ['any double', (random) => random.nextFloat() * 1000],
    ['decimals and -0', (random) => (random.nextFloat() < 0.2 ? -0 : random.nextBelow(100) / 100)],
    ['large integers', (random) => random.nextBelow(2 ** 21) * 1024],
  ];

  it.each(kinds)('gives a plain stable sort, ties in the order given: %s', (_, kind) => {
    const random = new Random(5);
    const draw = () => kind(random);
    for (const n of [0, 1, 2, 31, 1000, 5000]) {
      const values = Float64Array.from({ length: n + 3 }, draw);
      const rows = shuffledRows(random, n + 3).subarray(0, n);
      const expected = plainOrder(values, rows);
      expect(sortRowsByValue(values, rows)).toEqual(expected);
      expect(radixSortRowsByValue(values, rows)).toEqual(expected);
    }
  });

  it('counts decimal values only when every value comes back exactly from its key', () => {
    const rows = Int32Array.of(0, 1, 2);
    expect(decimalKeys(Float64Array.of(0.7312, 0.5, 1), rows, 1e6)).toEqual({ keys: Int32Array.of(7312, 5000, 10000), largest: 10000 });
    expect(decimalKeys(Float64Array.of(779.8, 12, 0.25), rows, 1e6)).toEqual({ keys: Int32Array.of(77980, 1200, 25), largest: 77980 });
    expect(decimalKeys(Float64Array.of(0.1, 1 / 3, 0.5), rows, 1e6)).toBeUndefined(); // 1/3 has no few places
    expect(decimalKeys(Float64Array.of(0.1, -0.5, 0.5), rows, 1e6)).toBeUndefined(); // negative
    expect(decimalKeys(Float64Array.of(0.1, Infinity, 0.5), rows, 1e6)).toBeUndefined();
    expect(decimalKeys(Float64Array.of(0.1, 2000, 0.5), rows, 10_000)).toBeUndefined(); // too many buckets
  });
});
