import type { MetricsReport, MetricValue } from '../metrics/compute.js';
import type { Dimension, Direction } from '../metrics/registry.js';
import type { Bounds, Test } from '../policy/family.js';
import type { Check } from '../policy/schema.js';

/*
 * The decision's data. Each check ends pass, fail, warn (a failed check of severity warn), skipped (a
 * regression budget without a baseline to compare with; absolute bounds still apply), error (the
 * metric is missing from the candidate, or a baseline shares no instance with it in the check's scope)
 * or off.
 */

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skipped' | 'error' | 'off';
export type Verdict = 'pass' | 'warn' | 'fail';

/** How the candidate was compared with the baseline. */
export interface Comparison {
  /** paired: bootstrap over shared instance ids; summary: point estimates of metrics files. */
  method: 'paired' | 'summary';
  candidate: number;
  baseline: number;
  /** candidate - baseline */
  change: number;
  /** The change in the bad direction (positive = worse). */
  worsening: number;
  /** One-sided p-value that the worsening is above 0 (paired only). */
  pWorse?: number;
  /** pWorse corrected for the other tests of its family (settings.multiplicity). */
  pWorseAdjusted?: number;
  /** Non-inferiority: the p-value that the worsening is below the budget (paired only). */
  pNotInferior?: number;
  /** The standard error of the change: the standard deviation of its bootstrap (paired only). */
  sd?: number;
  /** Valid bootstrap resamples behind the p-values (paired only). */
  resamples?: number;
  /** One-sided p-value that the improvement is above 0 (paired only). */
  pBetter?: number;
  /** Instances compared (paired only). */
  shared?: number;
  /** The fewer of the two runs' records (or instances) the metric rests on there: a group metric's group (paired only). */
  population?: number;
  /** 95% interval of the change (paired only). */
  ci?: [number, number];
}

export interface CheckResult {
  check: Check;
  scope: string;
  dimension: Dimension;
  direction: Direction;
  status: CheckStatus;
  candidate?: MetricValue;
  comparison?: Comparison;
  /** The regression budget in effect, in the metric's unit, and where it came from. */
  budget?: { value: number; from: string };
  /** How the comparison with the baseline was judged (budgeted checks). */
  test?: Test;
  /** How min and max were judged (bounded checks), and the bound's test when it had one. */
  bounds?: Bounds;
  boundTest?: BoundTest;
  /** The smallest worsening the comparison sees at 80% power, and what the check must detect (paired regression tests). */
  power?: PowerResult;
  /** borderline: the interval straddles a bound; underpowered: cannot see what the check must detect. */
  flags: CheckFlag[];
  /** Why the check ended as it did, one short sentence each. */
  reasons: string[];
}

export type CheckFlag = 'borderline' | 'underpowered';

/** A bound judged with confidence: the p-value of its claim (crossed: lenient; inside: strict). */
export interface BoundTest {
  bound: 'min' | 'max';
  claim: 'crossed' | 'inside';
  p: number;
  /** Corrected for the family (lenient bounds only). */
  pAdjusted?: number;
  /** bootstrap: the candidate's resampled values; normal: from its interval (a metrics file). */
  method: 'bootstrap' | 'normal';
  /** Valid resamples behind the p-value (bootstrap only). */
  resamples?: number;
}

export interface PowerResult {
  /** MDE80, in the metric's unit; null when the comparison has no spread (point estimates). */
  mde: number | null;
  /** What the check must detect (detect), in the metric's unit, if it says. */
  detect: number | null;
  underpowered: boolean;
}

export interface TradeoffResult {
  name: string;
  applied: boolean;
  reasons: string[];
}

/** How many of the baseline's instances (scenario and id) the candidate answered (its original record, not a failed call). */
export interface CoverageResult {
  status: 'pass' | 'warn' | 'fail';
  baselineInstances: number;
  covered: number;
  /** The policy's least share. */
  min: number;
  /** A few of the instances the candidate lacks, "scenario/id". */
  missing: string[];
  reason: string;
}

export interface GateResult {
  verdict: Verdict;
  checks: CheckResult[];
  tradeoffs: TradeoffResult[];
  /** Present when both runs are records files and the policy checks coverage. */
  coverage?: CoverageResult;
  /** False when there was no baseline: regression budgets were skipped. */
  hasBaseline: boolean;
  /** Every metric of the candidate, with intervals. */
  candidateMetrics: MetricsReport;
  /** The baseline's metrics, point estimates (no resampling), as the comparisons read them; null without a baseline. */
  baselineMetrics: MetricsReport | null;
}
