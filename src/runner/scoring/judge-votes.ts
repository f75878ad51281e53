import type { JudgeSample } from '../../records/types.js';
import type { JudgeSampling, Verdict } from './judge-prompt.js';

/*
 * A completion judged K times (`judge_samples: K`, docs/suites.md#judge-samples): its grade from the K
 * verdicts. Either way, a sample without a verdict (unknown, or its call failed) can only take a grade
 * away, never give one: dropping it could raise a score.
 */

/** A sample's grade: its score, else 1 for a pass and 0 for a fail. */
const sampleCorrect = (sample: JudgeSample) => sample.score ?? (sample.verdict === 'pass' ? 1 : 0);

/**
 * The grade of K samples. `majority`: the verdict more than half of the K samples gave (correct 1 or 0);
 * no such verdict (a tie, or too many without one) is unknown. `mean`: the mean of the K samples' grades
 * (the score, else 1 or 0), a pass at 0.5 or more; unknown unless every sample gave a verdict.
 */
export function aggregateSamples(samples: JudgeSample[], aggregate: JudgeSampling['aggregate']): Verdict {
  const count = samples.length;
  const passes = samples.filter((sample) => sample.verdict === 'pass').length;
  const fails = samples.filter((sample) => sample.verdict === 'fail').length;
  const without = count - passes - fails;
  if (aggregate === 'mean') {
    if (without > 0) return { verdict: 'unknown', problem: `the mean needs all ${count} samples' grades: ${without} gave none` };
    const score = samples.reduce((total, sample) => total + sampleCorrect(sample), 0) / count;
    return { verdict: score >= 0.5 ? 'pass' : 'fail', correct: score, score };
  }
  if (passes * 2 > count) return { verdict: 'pass', correct: 1 };
  if (fails * 2 > count) return { verdict: 'fail', correct: 0 };
  return {
    verdict: 'unknown',
    problem: `no verdict of more than half of the ${count} samples: ${passes} pass, ${fails} fail, ${without} without a verdict`,
  };
}
