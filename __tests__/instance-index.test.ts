import { describe, expect, it } from '@jest/globals';
import { InstanceIndex } from '../src/metrics/instance-index.js';
import { buildTable, instanceKeyOf, instanceMatch } from '../src/metrics/table.js';
import { Random } from '../src/stats/random.js';
import { collidingIds } from './helpers/colliding-ids.js';

/*
 * The table numbers instances (scenario, id) with its own hash table over code units
 * (src/metrics/instance-index.ts). Checked against a Map of the joined keys: the same numbers in the
 * same order, and the ids given back unchanged, for ids that share prefixes, differ only by scenario,
 * or hold characters outside the Basic Multilingual Plane.
 */
describe('instance numbering', () => {
  it('numbers (scenario, id) in order of first appearance and gives the ids back', () => {
    const random = new Random(4);
    const alphabet = ['a', 'b', 'é', '日', '\u{1F600}', '\u0000', '"', ' '];
    const pool = Array.from({ length: 3000 }, () =>
      Array.from({ length: 1 + random.nextBelow(6) }, () => alphabet[random.nextBelow(alphabet.length)]).join(''),
    );
    const index = new InstanceIndex();
    const expected = new Map<string, number>();
    const got: number[] = [];
    const wanted: number[] = [];
    for (let draw = 0; draw < 40000; draw++) {
      const scenario = random.nextBelow(3);
      const id = pool[random.nextBelow(pool.length)];
      const key = `${scenario}\u0001${id}`;
      if (!expected.has(key)) expected.set(key, expected.size);
      wanted.push(expected.get(key)!);
      got.push(index.numberOf(scenario, id));
    }
    expect(got).toEqual(wanted);
    expect(index.size).toBe(expected.size);
    const ids = index.ids();
    const scenarios = index.scenarioNumbers();
    expect([...expected.keys()]).toEqual(ids.map((id, instance) => `${scenarios[instance]}\u0001${id}`));
  });

  it('numbers alike when room was made ahead, for fewer instances than expected or more, and ids longer than expected', () => {
    const random = new Random(5);
    const ids = Array.from({ length: 5000 }, (_, k) => `${'x'.repeat(random.nextBelow(40))}${k % 1700}`);
    // Room made before the first id, or after `after` ids (the slots then hashed again).
    const numbered = (expected?: number, after = 0) => {
      const index = new InstanceIndex(7);
      const numbers = ids.map((id, k) => {
        if (k === after && expected !== undefined) index.expect(expected);
        return index.numberOf(k % 2, id);
      });
      return { numbers, ids: index.ids(), size: index.size };
    };
    const plain = numbered();
    for (const expected of [0, 10, 3000, 20000]) expect(numbered(expected)).toEqual(plain);
    expect(numbered(20000, 2500)).toEqual(plain);
  });

  it('tells ids apart whose hashes are equal, and hands a long run of them over to a Map', () => {
    const index = new InstanceIndex(0);
    const ids = collidingIds(9); // 512 ids with one hash under seed 0
    const numbers = ids.map((_, number) => number);
    expect(ids.map((id) => index.numberOf(0, id))).toEqual(numbers);
    expect(index.collided).toBe(true);
    expect(ids.map((id) => index.numberOf(0, id))).toEqual(numbers);
    expect(index.numberOf(1, ids[0])).toBe(ids.length); // the same id in another scenario: another instance
    expect(index.ids().slice(0, ids.length)).toEqual(ids);
    // Under another seed the same ids spread out as any others do.
    const seeded = new InstanceIndex(12345);
    ids.forEach((id) => seeded.numberOf(0, id));
    expect(seeded.collided).toBe(false);
  });

  it('keeps consecutive records of one id in different scenarios apart', () => {
    const table = buildTable([
      { scenario: 'a', id: 'x', correct: 1 },
      { scenario: 'b', id: 'x', correct: 0 },
      { scenario: 'b', id: 'x', correct: 1, perturbation: { name: 'typos', kind: 'robustness' } },
      { scenario: 'a', id: 'x', correct: 1, perturbation: { name: 'typos', kind: 'robustness' } },
    ]);
    expect(table.instanceCount).toBe(2);
    expect(Array.from(table.instanceOf)).toEqual([0, 1, 1, 0]);
    expect(table.instanceKeys).toEqual(['a\u0000x', 'b\u0000x']);
  });

  it('matches the instances of two tables by key without making the keys, hashed apart or handed over to a Map', () => {
    const ids = collidingIds(9);
    const candidate = new InstanceIndex(0); // collided: looked up through its Map
    const baseline = new InstanceIndex(7);
    ids.forEach((id, number) => candidate.numberOf(number % 2, id));
    ids.slice(100).forEach((id, number) => baseline.numberOf((number + 100) % 2, id));
    baseline.numberOf(0, 'only in the baseline');
    const expected = ids.map((_, number) => (number < 100 ? -1 : number - 100));
    expect(Array.from(baseline.numbersOf(candidate, Int32Array.of(0, 1)))).toEqual(expected);
    expect(Array.from(candidate.numbersOf(baseline, Int32Array.of(0, 1))).slice(0, 3)).toEqual([100, 101, 102]);
    // A scenario the other index lacks matches nothing.
    expect(Array.from(baseline.numbersOf(candidate, Int32Array.of(0, -1))).filter((number) => number >= 0)).toHaveLength(206);

    const a = buildTable([
      { scenario: 's', id: 'x', correct: 1 },
      { scenario: 't', id: 'x', correct: 1 },
      { scenario: 's', id: 'y', correct: 1 },
    ]);
    const b = buildTable([
      { scenario: 't', id: 'x', correct: 0 },
      { scenario: 's', id: 'y', correct: 0 },
      { scenario: 'u', id: 'x', correct: 0 },
    ]);
    expect(Array.from(instanceMatch(a, b))).toEqual([-1, 0, 1]);
    expect(instanceMatch(a, b)).toBe(instanceMatch(a, b)); // kept
    expect([0, 1, 2].map((instance) => instanceKeyOf(b, instance))).toEqual(b.instanceKeys);
  });
});
