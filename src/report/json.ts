import { z } from 'zod';
import type { CheckResult, CheckStatus, CoverageResult, GateResult } from '../gate/types.js';
import { decideVerdict } from '../gate/verdict.js';
import type { RunInput } from '../runs/load.js';
import { finiteNumber as finite, metricsReportSchema, metricValueSchema } from '../runs/metrics-file.js';
import type { MetricsReport } from '../metrics/compute.js';
import { DIMENSIONS, type Dimension } from '../metrics/registry.js';
import type { LoadedPolicy } from '../policy/load.js';
import { BOUNDS, TESTS } from '../policy/schema.js';
import { InputError } from '../errors.js';
import { instanceChangesSchema, type InstanceChangesReport } from './changes.js';
import { chartData, CONFIDENCE_BINS, LATENCY_BINS, type ChartData } from './chart-data.js';
import { writeJsonFile } from './json-file.js';

/**
 * The JSON report of a gate run (`evalgate gate --json`, the action's `report` output). Versioned:
 * fields are only ever added within a version.
 */
export interface GateReport {
  version: 1;
  verdict: GateResult['verdict'];
  /** source: where the policy was read (the action reads it at the pull request's base commit). */
  policy: { name: string; file: string; sha256: string; source?: string };
  /** Set by the action: the event and, on a pull request, its number and commits. */
  github?: { event: string; sha: string; pullRequest: { number: number; baseSha: string; headSha: string } | null };
  candidate: RunSummary;
  baseline: RunSummary | null;
  checks: Array<{
    metric: string;
    scope: string;
    dimension: string;
    direction: string;
    severity: string;
    status: CheckStatus;
    threshold: string;
    candidate: { value: number; ci: [number, number] | null; n: number } | null;
    comparison: CheckResult['comparison'] | null;
    budget: CheckResult['budget'] | null;
    reasons: string[];
    /** Added within version 1 (absent from older reports): how the check was judged, and its power. */
    test?: CheckResult['test'] | null;
    bounds?: CheckResult['bounds'] | null;
    boundTest?: CheckResult['boundTest'] | null;
    power?: CheckResult['power'] | null;
    flags?: CheckResult['flags'];
  }>;
  tradeoffs: GateResult['tradeoffs'];
  /** How many of the baseline's instances the candidate has (both runs records files), else null. */
  coverage: CoverageResult | null;
  /** Added within version 1: what changed instance by instance (both runs records files; else null, absent from older reports). */
  changes?: InstanceChangesReport | null;
  /** The candidate's metrics per scenario, for the details. */
  scenarios: MetricsReport['scenarios'];
  /** Added within version 1: how many of `scenarios` have point estimates only (over the limit on intervals); absent when none. */
  scenariosWithoutIntervals?: number;
  /** Added within version 1 (absent from older reports): the candidate's metrics over all scenarios. */
  overall?: ChartData['overall'];
  /** Added within version 1: the baseline's metrics, point estimates (null without a baseline). */
  baselineMetrics?: ChartData['baselineMetrics'];
  /** Added within version 1: the confidence bins of each gated calibration scope (records runs). */
  calibration?: ChartData['calibration'];
  /** Added within version 1: the latency distributions (records runs), null without latencies. */
  latency?: ChartData['latency'];
}

export interface RunSummary {
  file: string;
  /** records: per-example data, compared instance by instance; metrics: summary numbers only. */
  kind: RunInput['kind'];
  records: number | null;
  instances: number | null;
  /** The commit the baseline was saved at, when it came from the Actions cache. */
  commit?: string;
}

function summarizeRun(run: RunInput): RunSummary {
  return run.kind === 'records'
    ? { file: run.file, kind: 'records', records: run.table.size, instances: run.table.instanceCount }
    : { file: run.file, kind: 'metrics', records: null, instances: null };
}

/** "min 0.7, max 0.9, regression <= 0.02" */
function thresholdText(result: CheckResult): string {
  const { check } = result;
  const parts: string[] = [];
  const bounds = result.bounds && result.bounds !== 'point' ? ` (${result.bounds})` : '';
  if (check.min !== undefined) parts.push(`>= ${check.min}${bounds}`);
  if (check.max !== undefined) parts.push(`<= ${check.max}${bounds}`);
  if (check.max_regression !== undefined) {
    const relaxed =
      result.budget && result.budget.from !== 'the check' ? ` (${result.budget.value.toPrecision(3)} by ${result.budget.from})` : '';
    const test = result.test === 'non-inferiority' ? ' (non-inferiority)' : '';
    parts.push(`regression <= ${check.max_regression}${relaxed}${test}`);
  }
  if (check.detect !== undefined) parts.push(`detect ${check.detect}`);
  return parts.join(', ');
}

/** The report of a gate's result: what it decided and on which inputs. */
export function buildGateReport(
  result: GateResult,
  policy: LoadedPolicy,
  candidate: RunInput,
  baseline: RunInput | undefined,
  changes: InstanceChangesReport | null = null,
): GateReport {
  return {
    version: 1,
    verdict: result.verdict,
    policy: { name: policy.policy.name, file: policy.file, sha256: policy.sha256 },
    candidate: summarizeRun(candidate),
    baseline: baseline ? summarizeRun(baseline) : null,
    checks: result.checks.map((check) => ({
      metric: check.check.metric,
      scope: check.scope,
      dimension: check.dimension,
      direction: check.direction,
      severity: check.check.severity,
      status: check.status,
      threshold: thresholdText(check),
      candidate: check.candidate ?? null,
      comparison: check.comparison ?? null,
      budget: check.budget ?? null,
      reasons: check.reasons,
      test: check.test ?? null,
      bounds: check.bounds ?? null,
      boundTest: check.boundTest ?? null,
      power: check.power ?? null,
      flags: check.flags,
    })),
    tradeoffs: result.tradeoffs,
    coverage: result.coverage ?? null,
    changes,
    scenarios: result.candidateMetrics.scenarios,
    ...(result.candidateMetrics.scenariosWithoutIntervals
      ? { scenariosWithoutIntervals: result.candidateMetrics.scenariosWithoutIntervals }
      : {}),
    ...chartData(result, candidate, baseline),
  };
}

/** Writes the report as JSON (`evalgate gate --json`, the action's `report` output), a scenario at a time. */
export async function writeGateReport(file: string, report: GateReport): Promise<void> {
  await writeJsonFile(file, report);
}

/*
 * Reading a report back (the action's `report` input). In the fork-safe pair the report comes from a
 * run of the fork's own code, so it is untrusted: every field is checked for its type before any of it
 * is shown, and the verdict must follow from the checks.
 */
const runSummary = z.object({
  file: z.string(),
  kind: z.enum(['records', 'metrics']),
  records: z.int().nonnegative().nullable(),
  instances: z.int().nonnegative().nullable(),
  commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
});
const probability = finite.refine((p) => p >= 0 && p <= 1, 'expected a probability in [0, 1]');
const nonNegative = finite.refine((x) => x >= 0, 'expected a number >= 0');
const calibrationBins = z
  .array(z.object({ low: probability, count: nonNegative, accuracy: probability, confidence: probability }))
  .max(CONFIDENCE_BINS);
const latencyCounts = z.array(nonNegative).max(LATENCY_BINS);
const gateReportSchema = z.object({
  version: z.literal(1),
  verdict: z.enum(['pass', 'warn', 'fail']),
  policy: z.object({ name: z.string(), file: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), source: z.string().optional() }),
  github: z
    .object({
      event: z.string(),
      sha: z.string(),
      pullRequest: z.object({ number: z.int().positive(), baseSha: z.string(), headSha: z.string() }).nullable(),
    })
    .optional(),
  candidate: runSummary,
  baseline: runSummary.nullable(),
  checks: z.array(
    z
      .object({
        metric: z.string(),
        scope: z.string(),
        dimension: z.enum(DIMENSIONS as [Dimension, ...Dimension[]]),
        direction: z.enum(['higher', 'lower']),
        severity: z.enum(['block', 'warn', 'off']),
        status: z.enum(['pass', 'fail', 'warn', 'skipped', 'error', 'off']),
        threshold: z.string(),
        candidate: metricValueSchema.nullable(), // as metrics files have them: a report gated from one must read back
        comparison: z
          .object({
            method: z.enum(['paired', 'summary']),
            candidate: finite,
            baseline: finite,
            change: finite,
            worsening: finite,
            pWorse: probability.optional(),
            pBetter: probability.optional(),
            pWorseAdjusted: probability.optional(),
            pNotInferior: probability.optional(),
            sd: nonNegative.optional(),
            resamples: z.int().nonnegative().optional(),
            shared: z.int().nonnegative().optional(),
            population: nonNegative.optional(),
            ci: z.tuple([finite, finite]).optional(),
          })
          // The numbers must agree: a worsening is the change, signed by direction; a correction only raises p.
          .refine(
            (c) => Math.abs(Math.abs(c.worsening) - Math.abs(c.change)) <= 1e-9 * Math.max(1, Math.abs(c.change)),
            'worsening is not the change',
          )
          .refine(
            (c) => c.pWorseAdjusted === undefined || (c.pWorse !== undefined && c.pWorseAdjusted >= c.pWorse),
            'pWorseAdjusted is below pWorse',
          )
          .nullable(),
        budget: z.object({ value: finite, from: z.string() }).nullable(),
        reasons: z.array(z.string()),
        test: z.enum(TESTS).nullable().optional(),
        bounds: z.enum(BOUNDS).nullable().optional(),
        boundTest: z
          .object({
            bound: z.enum(['min', 'max']),
            claim: z.enum(['crossed', 'inside']),
            p: probability,
            pAdjusted: probability.optional(),
            method: z.enum(['bootstrap', 'normal']),
            resamples: z.int().nonnegative().optional(),
          })
          .refine((test) => test.pAdjusted === undefined || test.pAdjusted >= test.p, 'pAdjusted is below p')
          .nullable()
          .optional(),
        power: z
          .object({ mde: nonNegative.nullable(), detect: finite.nullable(), underpowered: z.boolean() })
          .refine(
            (power) => power.underpowered === (power.detect !== null && (power.mde === null || power.mde > power.detect)),
            'underpowered does not follow from mde and detect',
          )
          .nullable()
          .optional(),
        flags: z.array(z.enum(['borderline', 'underpowered'])).optional(),
      })
      .refine(
        (check) => (check.flags ?? []).includes('underpowered') === (check.power?.underpowered ?? false),
        'the underpowered flag does not follow from power',
      ),
  ),
  tradeoffs: z.array(z.object({ name: z.string(), applied: z.boolean(), reasons: z.array(z.string()) })),
  coverage: z
    .object({
      status: z.enum(['pass', 'warn', 'fail']),
      baselineInstances: z.int().nonnegative(),
      covered: z.int().nonnegative(),
      min: finite,
      missing: z.array(z.string()),
      reason: z.string(),
    })
    .nullable()
    .default(null),
  changes: instanceChangesSchema.nullable().optional(),
  scenarios: metricsReportSchema.shape.scenarios,
  scenariosWithoutIntervals: metricsReportSchema.shape.scenariosWithoutIntervals,
  // What the charts draw (added within version 1), checked like the rest: a fork's report draws only numbers.
  overall: metricsReportSchema.shape.overall.optional(),
  baselineMetrics: metricsReportSchema.nullable().optional(),
  calibration: z.array(z.object({ scope: z.string(), candidate: calibrationBins, baseline: calibrationBins.nullable() })).optional(),
  latency: z
    .object({ edges: z.array(finite).max(LATENCY_BINS + 1), candidate: latencyCounts, baseline: latencyCounts.nullable() })
    .nullable()
    .optional(),
});

/** A gate report read from a file, checked field by field; bad input names the file and the field. */
export function parseGateReport(text: string, file: string): GateReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, undefined, `not valid JSON: ${(error as Error).message}`);
  }
  const parsed = gateReportSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.map(String).join('.') || '(top)'}: ${issue.message}`);
    throw new InputError(file, undefined, `not an evalgate report: ${problems.join('; ')}`);
  }
  const report = parsed.data as GateReport;
  const verdict = decideVerdict(report.checks, report.coverage?.status);
  if (verdict !== report.verdict) {
    throw new InputError(file, undefined, `the verdict "${report.verdict}" does not follow from the checks (they give "${verdict}")`);
  }
  return report;
}
