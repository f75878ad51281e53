import type { MetricValue } from '../metrics/compute.js';
import type { Bounds } from '../policy/family.js';
import type { Check, Policy } from '../policy/schema.js';
import { normalCdf } from '../stats/normal.js';
import type { BoundTest } from './types.js';

/*
 * A check's min and max. `point` judges the estimate; `lenient` fails only when the bound is crossed
 * with one-sided confidence 1 - alpha (the test joins its family's correction); `strict` passes only
 * when the value is inside the bound with that confidence. The p-value of a claim counts the
 * candidate's bootstrap values against it, (#{against} + 1) / (B + 1); a metrics file's value has no
 * resamples: its interval gives a normal one, Phi(-distance / se) with se = (high - low) / (2 z(0.975)).
 */

/** What a part of a check found: failed (or errored, or skipped) and why. */
export interface Finding {
  failed: boolean;
  skipped?: boolean;
  errored?: boolean;
  reasons: string[];
}

export interface BoundEvidence {
  mode: Bounds;
  /** One test per bound the check has, in lenient and strict mode, when the value has an interval. */
  tests: BoundTest[];
  borderline: boolean;
}

const Z_975 = 1.959963984540054;

/** The p-value of a claim about the candidate's value against `bound`: below it, or above it. */
function claimP(
  claimBelow: boolean,
  bound: number,
  value: MetricValue,
  samples: Float64Array | undefined,
): Pick<BoundTest, 'p' | 'method' | 'resamples'> | undefined {
  if (samples && samples.length > 0) {
    let against = 0;
    for (const sample of samples) if (claimBelow ? sample >= bound : sample <= bound) against++;
    return { p: (against + 1) / (samples.length + 1), method: 'bootstrap', resamples: samples.length };
  }
  if (!value.ci || value.ci[1] <= value.ci[0]) return undefined;
  const se = (value.ci[1] - value.ci[0]) / (2 * Z_975);
  return { p: normalCdf((claimBelow ? value.value - bound : bound - value.value) / se), method: 'normal' };
}

export function boundEvidence(check: Check, mode: Bounds, value: MetricValue, samples: Float64Array | undefined): BoundEvidence {
  const straddles = (bound: number) => value.ci !== null && value.ci[0] < bound && bound < value.ci[1];
  const borderline = (check.min !== undefined && straddles(check.min)) || (check.max !== undefined && straddles(check.max));
  const tests: BoundTest[] = [];
  if (mode !== 'point') {
    for (const [bound, limit] of [
      ['min', check.min],
      ['max', check.max],
    ] as const) {
      if (limit === undefined) continue;
      // lenient claims the bound is crossed (below a min); strict that the value is inside (above a min).
      const claim = mode === 'lenient' ? 'crossed' : 'inside';
      const found = claimP((bound === 'min') === (claim === 'crossed'), limit, value, samples);
      if (found) tests.push({ bound, claim, ...found });
    }
  }
  return { mode, tests, borderline };
}

/** Judges the bounds; `significance` off, or a value without an interval in lenient mode, judges the estimate. */
export function judgeBounds(
  check: Check,
  value: MetricValue,
  evidence: BoundEvidence,
  significance: Policy['settings']['significance'],
): Finding {
  const reasons: string[] = [];
  let failed = false;
  for (const [bound, limit] of [
    ['min', check.min],
    ['max', check.max],
  ] as const) {
    if (limit === undefined) continue;
    const crossed = bound === 'min' ? value.value < limit : value.value > limit;
    const words = bound === 'min' ? `below the minimum ${limit}` : `above the maximum ${limit}`;
    const test = evidence.tests.find((entry) => entry.bound === bound);
    const alpha = significance === 'off' ? undefined : significance;
    if (evidence.mode === 'point' || alpha === undefined || (evidence.mode === 'lenient' && !test)) {
      if (crossed) {
        failed = true;
        reasons.push(words);
      }
    } else if (evidence.mode === 'lenient') {
      const p = test!.pAdjusted ?? test!.p;
      if (crossed && p < alpha) {
        failed = true;
        reasons.push(`${words} with confidence (p = ${formatP(test!)})`);
      } else if (crossed) {
        reasons.push(`${words}, but not with confidence (p = ${formatP(test!)})`);
      }
    } else if (!test) {
      failed = true;
      reasons.push(`a strict ${bound} needs an interval: the value ${+value.value.toPrecision(4)} has none`);
    } else if (!(test.p < alpha)) {
      failed = true;
      reasons.push(`not shown to be ${bound === 'min' ? 'at least' : 'at most'} ${limit} with confidence (p = ${formatP(test)})`);
    }
  }
  return { failed, reasons };
}

function formatP(test: BoundTest): string {
  return test.pAdjusted === undefined || test.pAdjusted === test.p
    ? test.p.toPrecision(2)
    : `${test.p.toPrecision(2)}, adjusted ${test.pAdjusted.toPrecision(2)}`;
}
