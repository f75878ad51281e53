import { readJsonLines } from './evalgate.js';

/*
 * An independent count of what changed between two records files, for checking evalgate's: every
 * example's mean `correct` over its answered samples in each run, right at 0.5 or more, counted per
 * scenario and perturbation ("" for the originals) on the examples both runs answered.
 */

export interface FlipCounts {
  compared: number;
  rightToWrong: number;
  wrongToRight: number;
}

function meanScores(file: string): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const record of readJsonLines(file)) {
    if (typeof record.correct !== 'number') continue; // a failed call
    const perturbation = (record.perturbation as { name: string } | undefined)?.name ?? '';
    const key = JSON.stringify([record.scenario, perturbation, record.id]);
    const entry = sums.get(key) ?? { sum: 0, n: 0 };
    entry.sum += record.correct;
    entry.n++;
    sums.set(key, entry);
  }
  return new Map([...sums].map(([key, { sum, n }]) => [key, sum / n]));
}

/** Per "scenario/perturbation": the examples both runs answered and how many flipped each way. */
export function countFlips(candidateFile: string, baselineFile: string): Record<string, FlipCounts> {
  const before = meanScores(baselineFile);
  const counts: Record<string, FlipCounts> = {};
  for (const [key, now] of meanScores(candidateFile)) {
    const then = before.get(key);
    if (then === undefined) continue;
    const [scenario, perturbation] = JSON.parse(key) as string[];
    const entry = (counts[`${scenario}/${perturbation}`] ??= { compared: 0, rightToWrong: 0, wrongToRight: 0 });
    entry.compared++;
    if (then >= 0.5 && now < 0.5) entry.rightToWrong++;
    if (then < 0.5 && now >= 0.5) entry.wrongToRight++;
  }
  return counts;
}

/** The totals over every scenario and perturbation. */
export function totalFlips(counts: Record<string, FlipCounts>): FlipCounts {
  const total = { compared: 0, rightToWrong: 0, wrongToRight: 0 };
  for (const entry of Object.values(counts)) {
    total.compared += entry.compared;
    total.rightToWrong += entry.rightToWrong;
    total.wrongToRight += entry.wrongToRight;
  }
  return total;
}
