import type { Policy } from '../policy/schema.js';

/*
 * Adjusted p-values for a family of m tests, so that rejecting every test whose adjusted p is below
 * alpha keeps the chance of any false rejection at most alpha, whatever the dependence between tests.
 *   Bonferroni: p'(i) = min(1, m p(i)).
 *   Holm (1979), step-down: with p(1) <= ... <= p(m) sorted, p'(j) = max over k <= j of min(1, (m - k + 1) p(k)).
 */

export type Multiplicity = Policy['settings']['multiplicity'];

export function adjustPValues(method: Multiplicity, pValues: readonly number[]): number[] {
  const m = pValues.length;
  if (method === 'none') return [...pValues];
  if (method === 'bonferroni') return pValues.map((p) => Math.min(1, m * p));
  const order = pValues.map((_, index) => index).sort((a, b) => pValues[a] - pValues[b]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]));
    adjusted[index] = running;
  });
  return adjusted;
}
