import { describe, expect, it } from '@jest/globals';
import { PoissonSampler, Random, rejectionThreshold } from '../src/stats/random.js';
import { decimalKeys, sortPositionsByKey } from '../src/stats/sort.js';

/*
 * The generator under every bootstrap and the orderings under the metrics pinned exactly
 * (src/stats/random.ts, sort.ts): the streams of given seeds, checked against xoshiro128** written
 * plainly here; the integers below n where a draw is rejected; the Poisson sampler's tables and its
 * draws at the very edges of the distribution; the keys of decimal values at their limits; and the
 * order of positions by key, against a plain stable sort, on either side of each branch.
 */

const TWO_32 = 2 ** 32;

/** xoshiro128** seeded through splitmix32 in BigInt arithmetic: nothing shared with the class under test. */
function* plainStream(seed: number): Generator<number, never> {
  const word = (value: bigint) => BigInt.asUintN(32, value);
  const rotateLeft = (value: bigint, k: bigint) => word((value << k) | (value >> (32n - k)));
  let x = word(BigInt(seed));
  const splitmix32 = () => {
    x = word(x + 0x9e3779b9n);
    let z = word((x ^ (x >> 16n)) * 0x85ebca6bn);
    z = word((z ^ (z >> 13n)) * 0xc2b2ae35n);
    return z ^ (z >> 16n);
  };
  const s = [splitmix32(), splitmix32(), splitmix32(), splitmix32()];
  for (;;) {
    yield Number(word(rotateLeft(word(s[1] * 5n), 7n) * 9n));
    const t = word(s[1] << 9n);
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotateLeft(s[3], 11n);
  }
}

const take = (next: () => number, count: number) => Array.from({ length: count }, next);
const plainValues = (seed: number, count: number) => {
  const stream = plainStream(seed);
  return take(() => stream.next().value, count);
};

describe('the streams of given seeds', () => {
  it.each([
    // seed, its first four values, its thousandth
    [0, [3809008728, 1133695204, 53579671, 2891528803], 3855962975],
    [1, [2442144158, 3238099751, 3819917871, 2104621829], 4020342576],
    [42, [2837322924, 544945897, 479756282, 3500138142], 3502085780],
    [TWO_32 - 1, [835879718, 1921286648, 2356205009, 1885780724], 1166679599],
  ])('seed %d: pinned, and what a plain xoshiro128** gives', (seed, first, thousandth) => {
    const random = new Random(seed);
    const values = take(() => random.nextUint32(), 1000);
    expect(values.slice(0, 4)).toEqual(first);
    expect(values[999]).toBe(thousandth);
    expect(values).toEqual(plainValues(seed, 1000));
  });

  it.each([
    ['-1 is 2^32 - 1', -1, TWO_32 - 1],
    ['2^32 is 0', TWO_32, 0],
  ])('seeds are taken as 32-bit words: %s', (_, seed, same) => {
    const random = new Random(seed);
    expect(take(() => random.nextUint32(), 4)).toEqual(plainValues(same, 4));
  });

  it('nextFloat is the next value over 2^32', () => {
    expect(new Random(1).nextFloat()).toBe(2442144158 / TWO_32);
  });
});

describe('integers below n (Lemire): a draw whose low part is under the threshold is drawn again', () => {
  it.each([
    [1, 0],
    [2, 0],
    [3, 1],
    [7, 4],
    [150_001, 138_664],
    [2 ** 21, 0],
  ])('rejectionThreshold(%d) = %d = 2^32 mod n', (n, threshold) => {
    expect(rejectionThreshold(n)).toBe(threshold);
    expect(BigInt(threshold)).toBe(2n ** 32n % BigInt(n));
  });

  // Seed 171133's first value 2690149149 times 150001 is 93953 * 2^32 + 138061: a low part under the
  // threshold 138664, so that draw is rejected and the second (172605641: 6028 * 2^32 + 955895353) kept.
  const n = 150_001;
  const seed = 171_133;
  it.each([
    ['the threshold of n (2^32 mod n = 138664): the first draw rejected', 138_664, 6028, 2],
    ['a threshold exactly the low part: kept', 138_061, 93_953, 1],
    ['one above the low part: rejected', 138_062, 6028, 2],
    ['no threshold: kept', 0, 93_953, 1],
  ])('%s', (_, threshold, index, draws) => {
    const [first, second] = plainValues(seed, 2);
    expect(BigInt(first) * BigInt(n)).toBe(93_953n * 2n ** 32n + 138_061n);
    expect(BigInt(second) * BigInt(n)).toBe(6028n * 2n ** 32n + 955_895_353n);
    const after = plainValues(seed, draws + 1)[draws];

    const one = new Random(seed);
    expect(one.nextBelow(n, threshold)).toBe(index);
    expect(one.nextUint32()).toBe(after);

    const fused = new Random(seed);
    const counts = new Float64Array(n);
    fused.addUniform(counts, 1, n, threshold);
    expect(counts[index]).toBe(1);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(fused.nextUint32()).toBe(after);
  });

  it('the threshold of n is the default', () => {
    expect(new Random(seed).nextBelow(n)).toBe(6028);
  });
});

/** The draw for u by a plain scan of the sampler's table from 0: the smallest k with F(k) * 2^32 > u. */
function scanned(sampler: PoissonSampler, u: number): number {
  let k = 0;
  while (sampler.scaledCumulative[k] <= u) k++;
  return k;
}

describe('the Poisson sampler', () => {
  it.each([
    // mean, entries of F (ceil(mean + 40 sqrt(mean) + 40) + 1), guide slots (2^(ceil(log2(entries)) + 1)), guide shift
    [0, 41, 128, 25],
    [0.32968797084072526, 65, 256, 24], // 64 + 1 entries: one more would take 512 slots
    [4, 125, 256, 24],
    [100, 541, 2048, 21],
  ])('mean %d: %d entries of F, %d guide slots', (mean, entries, slots, shift) => {
    const sampler = new PoissonSampler(mean);
    expect(sampler.scaledCumulative.length).toBe(entries);
    expect(sampler.guide.length).toBe(slots);
    expect(sampler.guideShift).toBe(shift);
  });

  it.each([0.5, 3, 38.7, 100])('mean %d: F rises to 1 at the last entry before the end, which is Infinity', (mean) => {
    const cumulative = Array.from(new PoissonSampler(mean).scaledCumulative);
    const last = cumulative.length - 1;
    expect(cumulative[last]).toBe(Infinity);
    expect(cumulative.slice(0, last).every((value, k) => Number.isFinite(value) && (k === 0 || value >= cumulative[k - 1]))).toBe(true);
    expect(Math.abs(cumulative[last - 1] / TWO_32 - 1)).toBeLessThan(1e-12);
  });

  it('mean 0: F is 1 from k = 0, and every draw is 0', () => {
    const sampler = new PoissonSampler(0);
    expect(Array.from(sampler.scaledCumulative)).toEqual([...new Array(40).fill(TWO_32), Infinity]);
    expect([0, 2 ** 31, TWO_32 - 1].map((u) => sampler.drawFor(u))).toEqual([0, 0, 0]);
    const counts = new Float64Array(5).fill(7);
    expect(new Random(1).addPoisson(sampler, counts, 5)).toBe(0);
    expect(Array.from(counts)).toEqual([0, 0, 0, 0, 0]);
  });

  it.each([0, Math.LN2, 0.32968797084072526, 3, 38.7])('mean %d: each guide slot starts at the draw for its first u', (mean) => {
    const sampler = new PoissonSampler(mean);
    const expected = Array.from(sampler.guide, (_, slot) => scanned(sampler, slot * 2 ** sampler.guideShift));
    expect(Array.from(sampler.guide)).toEqual(expected);
  });

  // F(k) * 2^32 is a whole number in two cases found for these tests: u equal to it is not below F(k),
  // so its draw is k + 1 (the smallest k with F(k) > u / 2^32).
  it('mean ln 2: F(0) = 1/2 exactly, the start of guide slot 128', () => {
    const sampler = new PoissonSampler(Math.LN2);
    expect(sampler.scaledCumulative[0]).toBe(2 ** 31);
    expect((2 ** 31) >>> sampler.guideShift).toBe(128);
    expect(sampler.guide[128]).toBe(1);
    expect([sampler.drawFor(2 ** 31 - 1), sampler.drawFor(2 ** 31)]).toEqual([0, 1]);
  });

  it("mean 0.3296...: F(0) * 2^32 is seed 3's first value, inside its guide slot", () => {
    const mean = 0.32968797084072526;
    const [u] = plainValues(3, 1);
    const sampler = new PoissonSampler(mean);
    expect(sampler.scaledCumulative[0]).toBe(u);
    expect(u % 2 ** sampler.guideShift).not.toBe(0);
    expect([sampler.drawFor(u - 1), sampler.drawFor(u)]).toEqual([0, 1]);
    expect(sampler.draw(new Random(3))).toBe(1);
    const counts = new Float64Array(1);
    expect(new Random(3).addPoisson(sampler, counts, 1)).toBe(1);
    expect(counts[0]).toBe(1);
  });

  it.each([0.5, 3])('mean %d: the draws on either side of each F(k), F computed plainly here', (mean) => {
    const sampler = new PoissonSampler(mean);
    let probability = Math.exp(-mean);
    let cumulative = probability;
    const seen: Array<[number, number]> = [];
    const expected: Array<[number, number]> = [];
    for (let k = 0; cumulative < 1 - 1e-9; k++) {
      // the last u below F(k) draws k, the first at or above it k + 1 (F(k) * 2^32 is not near a whole number here)
      const edge = cumulative * TWO_32;
      expect(Math.abs(edge - Math.round(edge))).toBeGreaterThan(1e-4);
      seen.push([sampler.drawFor(Math.floor(edge)), sampler.drawFor(Math.ceil(edge))]);
      expected.push([k, k + 1]);
      probability *= mean / (k + 1);
      cumulative += probability;
    }
    expect(seen.length).toBeGreaterThan(5);
    expect(seen).toEqual(expected);
  });
});

describe('the keys of decimal values', () => {
  const keysOf = (values: number[], maxKey: number) => {
    const keyed = decimalKeys(
      Float64Array.from(values),
      Int32Array.from(values, (_, row) => row),
      maxKey,
    );
    return keyed && { keys: Array.from(keyed.keys), largest: keyed.largest };
  };

  it.each([
    ['0 is a key', [0, 0.5], 10, { keys: [0, 5], largest: 5 }],
    ['-0 is the key 0', [-0], 10, { keys: [0], largest: 0 }],
    ['six places (MAX_DECIMALS)', [0.000001, 0.5], 1e7, { keys: [1, 500000], largest: 500000 }],
    ['six places, all significant', [0.123456], 1e7, { keys: [123456], largest: 123456 }],
    ['seven places: none', [0.0000001, 0.5], 1e7, undefined],
    ['seven places, all significant: none', [0.1234567], 1e8, undefined],
    ['the largest key exactly maxKey', [0.5, 2], 20, { keys: [5, 20], largest: 20 }],
    ['the largest key one past maxKey: none', [0.5, 2], 19, undefined],
    ['places found later apply to the values before', [3, 0.25, 0.5], 1000, { keys: [300, 25, 50], largest: 300 }],
  ])('%s', (_, values, maxKey, expected) => {
    expect(keysOf(values, maxKey)).toEqual(expected);
  });
});

describe('positions ordered by key', () => {
  /** Positions ordered by a plain stable sort: by key, equal keys in position order. */
  const plainOrder = (keys: Int32Array) => Array.from(keys, (_, position) => position).sort((a, b) => keys[a] - keys[b] || a - b);

  // The keys are drawn from a generator made in each test: Stryker counts code run outside every test static.
  const below = (bound: number) => (_: number, random: Random) => random.nextBelow(bound);
  const cases: Array<[string, number, number, (position: number, random: Random) => number]> = [
    ['none', 0, 1, () => 0],
    ['one', 1, 1, () => 0],
    ['two, out of order', 2, 2, (position) => 1 - position],
    ['32 (INSERTION_SORT_MAX), descending', 32, 32, (position) => 31 - position],
    ['32 (INSERTION_SORT_MAX), many ties', 32, 5, below(5)],
    ['33 (one past), many ties', 33, 5, below(5)],
    ['33, descending', 33, 33, (position) => 32 - position],
    ['keyBound 1: every key 0, no pass', 40, 1, () => 0],
    ['keyBound 2048 = 2^11: one pass', 300, 2048, below(2048)],
    [
      'keyBound 2049: two passes, the second for key 2048',
      300,
      2049,
      (position, random) => (position % 7 === 0 ? 2048 : random.nextBelow(2049)),
    ],
    ['keys sharing their low digit (multiples of 2048)', 300, 2 ** 20, (position) => 2048 * ((position * 37) % 300)],
    ['keyBound 2^22: two passes', 300, 2 ** 22, below(2 ** 21)],
    [
      'keyBound 2^22 + 1: three passes, the third for key 2^22',
      300,
      2 ** 22 + 1,
      (position, random) => (position % 5 === 0 ? 2 ** 22 : random.nextBelow(2 ** 21) * 2),
    ],
    ['5000 keys below a million', 5000, 1e6, below(1e6)],
  ];

  it.each(cases)('%s: a plain stable sort', (_, n, keyBound, key) => {
    const random = new Random(11);
    const keys = Int32Array.from({ length: n }, (__, position) => key(position, random));
    expect(keys.every((value) => value >= 0 && value < keyBound)).toBe(true);
    expect(Array.from(sortPositionsByKey(keys, keyBound))).toEqual(plainOrder(keys));
  });
});
