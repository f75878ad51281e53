import type { MetricComponents, MetricValue } from '../metrics/compute.js';
import type { Bounds } from '../policy/family.js';
import type { Check, Policy } from '../policy/schema.js';
import { valueText } from '../metrics/units.js';
import { normalCdf } from '../stats/normal.js';
import { pValueText } from './compare.js';
import { componentTests, judgedOn } from './component-bounds.js';
import type { BoundJudgedOn, BoundTest } from './types.js';

/*
 * A check's min and max. `point` judges the estimate; `lenient` fails only when the bound is crossed
 * with one-sided confidence 1 - alpha (the test joins its family's correction); `strict` passes only
 * when the value is inside the bound with that confidence. The p-value of a claim counts the
 * candidate's bootstrap values against it, (#{against} + 1) / (B + 1); a metrics file's value has no
 * resamples: its interval gives a normal one, Phi(-distance / se) with se = (high - low) / (2 z(0.975)).
 * The metrics whose plug-in is biased (ece, ece_10_bin, a worst group, a gap) are tested on their
 * components instead, and `point` judges their corrected estimate (component-bounds.ts).
 */

/** What a part of a check found: failed (or errored, or skipped, or inconclusive: the data could not tell) and why. */
export interface Finding {
  failed: boolean;
  skipped?: boolean;
  errored?: boolean;
  inconclusive?: boolean;
  reasons: string[];
}

export interface BoundEvidence {
  mode: Bounds;
  /** One test per bound the check has, in lenient and strict mode, when the value has an interval. */
  tests: BoundTest[];
  borderline: boolean;
  /** A metric with a biased plug-in: the corrected estimate and interval its bounds are judged on. */
  judgedOn?: BoundJudgedOn;
}

const Z_975 = 1.959963984540054;

const ESTIMATOR_WORDS: Record<BoundJudgedOn['estimator'], string> = {
  'debiased-calibration-error': 'debiased estimate',
  'bootstrap-bias-corrected': 'bias-corrected estimate',
};

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

/** The bounds a check states, min before max. */
export function limitsOf(check: Check): Array<{ bound: BoundTest['bound']; limit: number }> {
  return [
    ...(check.min === undefined ? [] : [{ bound: 'min' as const, limit: check.min }]),
    ...(check.max === undefined ? [] : [{ bound: 'max' as const, limit: check.max }]),
  ];
}

/**
 * The bounds' tests. A metric with a biased plug-in (given its components) is tested on them and judged
 * on its corrected estimate and interval; any other on its resampled values, or its interval.
 */
export function boundEvidence(
  check: Check,
  mode: Bounds,
  value: MetricValue,
  samples: Float64Array | undefined,
  components?: MetricComponents,
): BoundEvidence {
  const componentTested = components && componentTests(components);
  const judged = componentTested && judgedOn(check.metric, components, componentTested, value, samples);
  const interval = judged ? judged.interval : value.ci;
  const straddles = (bound: number) => interval !== null && interval[0] < bound && bound < interval[1];
  const limits = limitsOf(check);
  // lenient claims the bound is crossed (below a min); strict that the value is inside (above a min).
  const claim = mode === 'lenient' ? 'crossed' : 'inside';
  const tests = (mode === 'point' ? [] : limits).flatMap(({ bound, limit }): BoundTest[] => {
    const claimBelow = (bound === 'min') === (claim === 'crossed');
    const found = componentTested
      ? {
          p: claimBelow ? componentTested.pBelow(limit) : componentTested.pAbove(limit),
          method: 'bootstrap' as const,
          resamples: judged!.resamples,
        }
      : claimP(claimBelow, limit, value, samples);
    return found ? [{ bound, claim, ...found }] : [];
  });
  return { mode, tests, borderline: limits.some(({ limit }) => straddles(limit)), ...(judged ? { judgedOn: judged } : {}) };
}

/** One bound judged, with its test if it has one; `alpha` undefined when significance is off. */
function judgeBound(
  metric: string,
  bound: BoundTest['bound'],
  limit: number,
  test: BoundTest | undefined,
  mode: Bounds,
  value: MetricValue,
  alpha?: number,
  judged?: BoundJudgedOn,
): Finding {
  const crossed = bound === 'min' ? value.value < limit : value.value > limit;
  // The limit as the policy states it; a value judged against it to 4 digits (as the table shows, with one more).
  const shown = (number: number) => valueText(metric, number, 4);
  const stated = valueText(metric, limit, 10);
  const words = bound === 'min' ? `below the minimum ${stated}` : `above the maximum ${stated}`;
  const passed: Finding = { failed: false, reasons: [] };
  if (mode === 'point' || alpha === undefined || (mode === 'lenient' && !test)) {
    if (!judged) return crossed ? { failed: true, reasons: [words] } : passed;
    // The plug-in's bias would decide: the corrected estimate is judged instead (no error control).
    const estimate = judged.estimate;
    const estimateCrossed = bound === 'min' ? estimate < limit : estimate > limit;
    return estimateCrossed ? { failed: true, reasons: [`${words} (the ${ESTIMATOR_WORDS[judged.estimator]} ${shown(estimate)})`] } : passed;
  }
  if (!test) return { failed: true, reasons: [`a strict ${bound} needs an interval: the value ${shown(value.value)} has none`] };
  if (mode === 'lenient') {
    if (!crossed) return passed;
    return (test.pAdjusted ?? test.p) < alpha
      ? { failed: true, reasons: [`${words} with confidence (${pValueText(test.p, test.pAdjusted)})`] }
      : { failed: false, reasons: [`${words}, but not with confidence (${pValueText(test.p, test.pAdjusted)})`] };
  }
  const claim = `${bound === 'min' ? 'at least' : 'at most'} ${stated}`;
  return test.p < alpha
    ? passed
    : { failed: true, reasons: [`not shown to be ${claim} with confidence (${pValueText(test.p, test.pAdjusted)})`] };
}

/** Judges the bounds; `significance` off, or a value without an interval in lenient mode, judges the estimate. */
export function judgeBounds(
  check: Check,
  value: MetricValue,
  evidence: BoundEvidence,
  significance: Policy['settings']['significance'],
): Finding {
  const alpha = significance === 'off' ? undefined : significance;
  const findings = limitsOf(check).map(({ bound, limit }) =>
    judgeBound(
      check.metric,
      bound,
      limit,
      evidence.tests.find((test) => test.bound === bound),
      evidence.mode,
      value,
      alpha,
      evidence.judgedOn,
    ),
  );
  return { failed: findings.some((finding) => finding.failed), reasons: findings.flatMap((finding) => finding.reasons) };
}
