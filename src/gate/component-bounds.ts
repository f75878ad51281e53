import type { MetricComponents, MetricValue } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';
import {
  absoluteSumTests,
  biasCorrected,
  debiasedCalibrationError,
  minimumTests,
  rangeTests,
  type BoundTests,
} from '../stats/bound-estimators.js';
import type { BoundJudgedOn } from './types.js';

/*
 * Bounds on the metrics whose plug-in estimate is biased (ece, ece_10_bin, a worst group, a gap),
 * judged on their components (docs/statistics.md, "Bounds on biased metrics"): the tests of
 * src/stats/bound-estimators.ts for lenient and strict bounds, and for point bounds Kumar, Liang and
 * Ma's debiased calibration error or the bootstrap-bias-corrected worst group and gap.
 */

/** The tests of a metric's components. */
export function componentTests(components: MetricComponents): BoundTests {
  const { shape, values, deviations, sizes } = components;
  if (shape === 'calibration') return absoluteSumTests(values, deviations);
  return shape === 'minimum' ? minimumTests(values, deviations, sizes) : rangeTests(values, deviations, sizes);
}

/** The two-sided level of the interval shown, as the metrics' own intervals. */
const INTERVAL_LEVEL = 0.95;

/**
 * What a bound on the metric is judged on: the corrected estimate (what `point` judges) and the
 * interval made of the tests' one-sided bounds, each at (1 - INTERVAL_LEVEL) / 2, within the metric's range.
 */
export function judgedOn(
  metric: string,
  components: MetricComponents,
  tests: BoundTests,
  value: MetricValue,
  samples: Float64Array | undefined,
): BoundJudgedOn {
  const { bins } = components;
  const estimate = bins
    ? debiasedCalibrationError(bins.weight, bins.correct, bins.confidence)
    : samples && samples.length > 0
      ? biasCorrected(value.value, samples)
      : value.value;
  const [low, high] = lookupMetric(metric)?.range ?? [-Infinity, Infinity];
  const within = (x: number) => Math.min(Math.max(x, low), high);
  const { lower, upper } = tests.bounds((1 - INTERVAL_LEVEL) / 2);
  return {
    estimate: within(estimate),
    estimator: bins ? 'debiased-calibration-error' : 'bootstrap-bias-corrected',
    interval: Number.isFinite(lower) && Number.isFinite(upper) ? [within(lower), within(upper)] : null,
    method: components.shape === 'calibration' ? 'bin-deviations' : 'max-t',
    resamples: components.deviations.length,
  };
}
