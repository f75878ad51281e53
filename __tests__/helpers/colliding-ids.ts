/*
 * Ids that all hash alike under evalgate's instance hash with seed 0 (src/metrics/instance-index.ts;
 * seed 0 is the unseeded hash of its first version). FNV-1a keeps two texts that reach the same state
 * in step whatever follows, so k pairs of texts that collide one after the other give 2^k ids with one
 * hash. The pairs were found by a birthday search over the texts "<n in base 36>." from each pair's
 * starting state (about 80,000 tries each): what an attacker who knew the seed could write into a
 * records file. instance-index.test.ts checks that they collide.
 */
const SEED_0_PAIRS = [
  ['35zx.', 'apcd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
  ['abj.', '4c00.'],
  ['65zx.', 'dpcd.'],
  ['7wzx.', 'a6cd.'],
  ['7wzx.', 'a6cd.'],
];

/** 2^pairs ids of scenario number 0 with one hash under seed 0 (pairs up to 16). */
export function collidingIds(pairs: number): string[] {
  let ids = [''];
  for (const texts of SEED_0_PAIRS.slice(0, pairs)) ids = ids.flatMap((prefix) => texts.map((text) => prefix + text));
  return ids;
}
