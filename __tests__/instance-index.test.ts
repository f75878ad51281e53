import { describe, expect, it } from '@jest/globals';
import { InstanceIndex } from '../src/metrics/instance-index.js';
import { Random } from '../src/stats/random.js';

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
    for (let draw = 0; draw < 40000; draw++) {
      const scenario = random.nextBelow(3);
      const id = pool[random.nextBelow(pool.length)];
      const key = `${scenario}\u0001${id}`;
      if (!expected.has(key)) expected.set(key, expected.size);
      expect(index.numberOf(scenario, id)).toBe(expected.get(key));
    }
    expect(index.size).toBe(expected.size);
    const ids = index.ids();
    const scenarios = index.scenarioNumbers();
    expect([...expected.keys()]).toEqual(ids.map((id, instance) => `${scenarios[instance]}\u0001${id}`));
  });
});
