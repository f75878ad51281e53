import { z } from 'zod';
import type { MetricsReport, MetricValue } from '../metrics/compute.js';
import type { ScopeRef } from '../metrics/names.js';
import type { Dimension, Direction } from '../metrics/registry.js';
import { finiteNumber as finite, nonNegative, probability } from '../metrics/report.js';
import type { Bounds, Test } from '../policy/family.js';
import type { Check } from '../policy/schema.js';

/*
 * The decision's data. Each check ends pass, fail, warn (a failed check of severity warn), skipped (a
 * regression budget without a baseline to compare with; absolute bounds still apply), error (the
 * metric is missing from the candidate or cannot be computed on the instances it shares with the
 * baseline, or a baseline shares no instance with it, or answered none of them, in the check's scope),
 * off, or inconclusive (the data could not tell: a regression check that did not fail but cannot see
 * what it must detect, MDE80 > detect, so a pass would not be earned; the baseline lacks the metric; or a
 * change is gated without a baseline).
 *
 * What a report carries of it is typed by its schema, the one a report read back is checked with
 * (report/json.ts): a field cannot be added to the type without the schema, nor the other way round.
 */

export const checkStatusSchema = z.enum(['pass', 'fail', 'warn', 'skipped', 'error', 'off', 'inconclusive']);
export const verdictSchema = z.enum(['pass', 'warn', 'fail']);
/** The gate's outcome, finer than the verdict (gate/verdict.ts decideOutcome): error > fail > inconclusive > warn > pass. */
export const outcomeSchema = z.enum(['pass', 'warn', 'inconclusive', 'fail', 'error']);
export type CheckStatus = z.output<typeof checkStatusSchema>;
export type Verdict = z.output<typeof verdictSchema>;
export type Outcome = z.output<typeof outcomeSchema>;

/** How the candidate was compared with the baseline. The numbers must agree: see the refinements. */
export const comparisonSchema = z
  .object({
    /** paired: bootstrap over shared instance ids; summary: point estimates of metrics files. */
    method: z.enum(['paired', 'summary']),
    candidate: finite,
    baseline: finite,
    /** candidate - baseline */
    change: finite,
    /** The change in the bad direction (positive = worse). */
    worsening: finite,
    /** One-sided p-value that the worsening is above 0 (paired only). */
    pWorse: probability.optional(),
    /**
     * One-sided p-value that the worsening is above the budget (H0: worsening <= budget; paired
     * regression tests with a positive budget only): what such a check decides with. At budget 0 the
     * test is pWorse's, and this field is absent.
     */
    pOverBudget: probability.optional(),
    /** pOverBudget corrected for the other tests of its family (settings.multiplicity). */
    pOverBudgetAdjusted: probability.optional(),
    /** One-sided p-value that the improvement is above 0 (paired only). */
    pBetter: probability.optional(),
    /** pWorse corrected for the other tests of its family (settings.multiplicity); budget-0 regression tests only (else see pOverBudgetAdjusted). */
    pWorseAdjusted: probability.optional(),
    /** Non-inferiority: the p-value that the worsening is below the budget (paired only). */
    pNotInferior: probability.optional(),
    /** The standard error of the change: the standard deviation of its bootstrap (paired only). */
    sd: nonNegative.optional(),
    /** Valid bootstrap resamples behind the p-values (paired only). */
    resamples: z.int().nonnegative().optional(),
    /** Instances compared (paired only). */
    shared: z.int().nonnegative().optional(),
    /** The fewer of the two runs' records (or instances) the metric rests on there: a group metric's group (paired only). */
    population: nonNegative.optional(),
    /** 95% interval of the change (paired only). */
    ci: z.tuple([finite, finite]).optional(),
  })
  // A worsening is the change, signed by direction; a correction only raises p.
  .refine(
    (c) => Math.abs(Math.abs(c.worsening) - Math.abs(c.change)) <= 1e-9 * Math.max(1, Math.abs(c.change)),
    'worsening is not the change',
  )
  .refine(
    (c) => c.pWorseAdjusted === undefined || (c.pWorse !== undefined && c.pWorseAdjusted >= c.pWorse),
    'pWorseAdjusted is below pWorse',
  )
  .refine(
    (c) => c.pOverBudgetAdjusted === undefined || (c.pOverBudget !== undefined && c.pOverBudgetAdjusted >= c.pOverBudget),
    'pOverBudgetAdjusted is below pOverBudget',
  );
export type Comparison = z.output<typeof comparisonSchema>;

/** The regression budget in effect, in the metric's unit, and where it came from ("the check", a trade-off). */
export const budgetInEffectSchema = z.object({ value: finite, from: z.string() });
export type BudgetInEffect = z.output<typeof budgetInEffectSchema>;

/** A bound judged with confidence: the p-value of its claim (crossed: lenient; inside: strict). */
export const boundTestSchema = z
  .object({
    bound: z.enum(['min', 'max']),
    claim: z.enum(['crossed', 'inside']),
    p: probability,
    /** Corrected for the family (lenient bounds only). */
    pAdjusted: probability.optional(),
    /** bootstrap: the candidate's resampled values; normal: from its interval (a metrics file). */
    method: z.enum(['bootstrap', 'normal']),
    /** Valid resamples behind the p-value (bootstrap only). */
    resamples: z.int().nonnegative().optional(),
  })
  .refine((test) => test.pAdjusted === undefined || test.pAdjusted >= test.p, 'pAdjusted is below p');
export type BoundTest = z.output<typeof boundTestSchema>;

/**
 * What a bound on a metric with a biased plug-in (ece, ece_10_bin, a worst group, a gap) is judged on:
 * the corrected estimate (what `point` judges; the metric's own value stays the plug-in) and the 95%
 * interval made of the component tests' one-sided bounds (docs/statistics.md).
 */
export const boundJudgedOnSchema = z.object({
  estimate: finite,
  /** Kumar, Liang and Ma's debiased calibration error, or the bootstrap bias correction 2 v - mean(v*). */
  estimator: z.enum(['debiased-calibration-error', 'bootstrap-bias-corrected']),
  interval: z.tuple([finite, finite]).nullable(),
  /** bin-deviations: the bins' bootstrap deviations; max-t: the groups' studentized maximum. */
  method: z.enum(['bin-deviations', 'max-t']),
  resamples: z.int().nonnegative(),
});
export type BoundJudgedOn = z.output<typeof boundJudgedOnSchema>;

/** Why no number of samples per example settles a check (power.samplesNote, plan's samplesNote): only more instances can. */
export const SAMPLES_CANNOT_REACH = 'more samples cannot reach it at this size: needs more instances';

export const powerSchema = z
  .object({
    /** MDE80, in the metric's unit; null when the comparison has no spread (point estimates). */
    mde: nonNegative.nullable(),
    /** What the check must detect, in the metric's unit: its detect, or the default (null in older reports, and for a summary comparison whose check states none). */
    detect: finite.nullable(),
    underpowered: z.boolean(),
    /** Added within version 1: whether detect is the check's or the default (gate/power.ts defaultDetect). */
    detectFrom: z.enum(['check', 'default']).optional(),
    /** Added within version 1: the instances at which the check would see its detect, as `evalgate plan` sizes (null: no spread to scale). */
    instancesNeeded: z.int().positive().nullable().optional(),
    /**
     * Added within version 1: the samples per example at which the check would see its detect at today's
     * instances, as `evalgate plan` sizes them (null: see samplesNote). Present on an underpowered check
     * with an instances estimate when a run has more than one sample per example.
     */
    samplesNeeded: z.int().positive().nullable().optional(),
    /** Added within version 1: why samplesNeeded is null (present only then). */
    samplesNote: z.string().optional(),
  })
  .refine(
    (power) => power.underpowered === (power.detect !== null && (power.mde === null || power.mde > power.detect)),
    'underpowered does not follow from mde and detect',
  );
export type PowerResult = z.output<typeof powerSchema>;

/** borderline: the interval straddles a bound; underpowered: cannot see what the check must detect. */
export const checkFlagSchema = z.enum(['borderline', 'underpowered']);
export type CheckFlag = z.output<typeof checkFlagSchema>;

export const tradeoffResultSchema = z.object({ name: z.string(), applied: z.boolean(), reasons: z.array(z.string()) });
export type TradeoffResult = z.output<typeof tradeoffResultSchema>;

/**
 * How many of the baseline's instances (scenario and id) the candidate answered (its original record,
 * not a failed call), and of their samples: the status judges the samples' share (src/gate/coverage.ts).
 */
export const coverageSchema = z.object({
  status: verdictSchema,
  baselineInstances: z.int().nonnegative(),
  /** Instances with at least one answered sample. */
  covered: z.int().nonnegative(),
  /** Added within version 1 (absent from older reports): the samples of the baseline's originals, and those the candidate answered. */
  baselineSamples: z.int().nonnegative().optional(),
  coveredSamples: z.int().nonnegative().optional(),
  /** The policy's least share. */
  min: finite,
  /** A few of the instances the candidate lacks, "scenario/id". */
  missing: z.array(z.string()),
  reason: z.string(),
});
export type CoverageResult = z.output<typeof coverageSchema>;

export interface CheckResult {
  check: Check;
  scope: ScopeRef;
  dimension: Dimension;
  direction: Direction;
  status: CheckStatus;
  candidate?: MetricValue;
  comparison?: Comparison;
  budget?: BudgetInEffect;
  /** How the comparison with the baseline was judged (budgeted checks). */
  test?: Test;
  /** How min and max were judged (bounded checks), and the bound's test when it had one. */
  bounds?: Bounds;
  boundTest?: BoundTest;
  /** A bound on a metric with a biased plug-in: the estimate and interval it was judged on. */
  boundJudgedOn?: BoundJudgedOn;
  /** The smallest worsening the comparison sees at 80% power, and what the check must detect (paired regression tests). */
  power?: PowerResult;
  flags: CheckFlag[];
  /** Why the check ended as it did, one short sentence each. */
  reasons: string[];
  /** A check the gate adds whatever the policy says (src/policy/builtin.ts: the failure-rate check). */
  builtin?: boolean;
}

export interface GateResult {
  verdict: Verdict;
  outcome: Outcome;
  checks: CheckResult[];
  tradeoffs: TradeoffResult[];
  /** Present when both runs are records files and the policy checks coverage. */
  coverage?: CoverageResult;
  /** False when there was no baseline: regression budgets were skipped, or inconclusive (GateInputs.missingBaseline). */
  hasBaseline: boolean;
  /** Every metric of the candidate, with intervals. */
  candidateMetrics: MetricsReport;
  /** The baseline's metrics, point estimates (no resampling), as the comparisons read them; null without a baseline. */
  baselineMetrics: MetricsReport | null;
}
