import type { EvalRecord } from '../records/types.js';

/*
 * What a judged record says of its judge beyond the verdict, as the bits of the table's `judgeProbes`
 * column (0: nothing): whether its K verdicts agree (judge_samples), its pairwise comparison with the
 * baseline (judge_pairwise), and with the length-bias probe whether the longer completion won.
 */

/** Its K verdicts (judge.samples, K > 1) all agree, or do not. */
export const SAMPLES_AGREE = 1;
export const SAMPLES_DISAGREE = 2;
/** Its pairwise comparison with the baseline (judge_pairwise): the outcome, and whether the verdict flipped with the order. */
export const PAIR_WIN = 4;
export const PAIR_LOSS = 8;
export const PAIR_TIE = 16;
export const PAIR_UNKNOWN = 32;
export const PAIR_FLIPPED = 64;
/** Of a win or loss, with the length-bias probe: the longer completion won (else the shorter; equal lengths: neither bit). */
export const LONGER_WON = 128;
export const SHORTER_WON = 256;

const PAIR_CODES: Record<string, number> = { win: PAIR_WIN, loss: PAIR_LOSS, tie: PAIR_TIE, unknown: PAIR_UNKNOWN };

/** The judgeProbes bits of a record. */
export function judgeProbesOf(record: EvalRecord): number {
  let bits = 0;
  const samples = record.judge?.samples;
  if (samples && samples.length > 1) {
    const first = samples[0].verdict;
    const agree = first !== 'unknown' && samples.every((sample) => sample.verdict === first);
    bits |= agree ? SAMPLES_AGREE : SAMPLES_DISAGREE;
  }
  const pairwise = record.judge_pairwise;
  if (pairwise) {
    bits |= PAIR_CODES[pairwise.outcome] | (pairwise.flipped === true ? PAIR_FLIPPED : 0);
    const decided = pairwise.outcome === 'win' || pairwise.outcome === 'loss';
    if (decided && (pairwise.longer === 'candidate' || pairwise.longer === 'baseline')) {
      bits |= (pairwise.longer === 'candidate') === (pairwise.outcome === 'win') ? LONGER_WON : SHORTER_WON;
    }
  }
  return bits;
}
