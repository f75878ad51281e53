import { z } from 'zod';
import {
  boundJudgedOnSchema,
  boundTestSchema,
  budgetInEffectSchema,
  checkFlagSchema,
  checkStatusSchema,
  comparisonSchema,
  coverageSchema,
  outcomeSchema,
  powerSchema,
  tradeoffResultSchema,
  verdictSchema,
  type CheckResult,
  type GateResult,
} from '../gate/types.js';
import { countOutcomes, decideOutcome, decideVerdict } from '../gate/verdict.js';
import { finiteNumber, metricsReportSchema, metricValueSchema, probability } from '../metrics/report.js';
import { groupOf, SCOPE_KINDS, scopeName, type GroupRef } from '../metrics/names.js';
import { OVERALL } from '../metrics/scope.js';
import { DIMENSIONS, type Dimension } from '../metrics/registry.js';
import type { RunInput } from '../runs/load.js';
import type { LoadedPolicy } from '../policy/load.js';
import { BOUNDS, TESTS } from '../policy/schema.js';
import { InputError } from '../errors.js';
import { instanceChangesSchema, type InstanceChangesReport } from './changes.js';
import { chartData, chartDataSchema } from './chart-data.js';
import { evidenceSchema } from './evidence.js';
import { comparabilitySchema, runsComparability } from './comparability.js';
import { writeJsonFile } from './json-file.js';

/*
 * The JSON report of a gate run (`evalgate gate --json`, the action's `report` output). Versioned:
 * fields are only ever added within a version. Its schema is the one source of its type, and reads a
 * report back (the action's `report` input). In the fork-safe pair the report comes from a run of the
 * fork's own code, so it is untrusted: every field is checked for its type before any of it is shown,
 * and the verdict must follow from the checks.
 */

const runSummarySchema = z.object({
  file: z.string(),
  /** records: per-example data, compared instance by instance; metrics: summary numbers only. */
  kind: z.enum(['records', 'metrics']),
  records: z.int().nonnegative().nullable(),
  instances: z.int().nonnegative().nullable(),
  /** The commit the baseline was saved at, when it came from the Actions cache (the baseline's only). */
  commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
  /** Added within version 1: the SHA-256 of the suite files the records say they were run from (`provenance.suite_hash`); absent when none. */
  suites: z.array(z.string().regex(/^[0-9a-f]{64}$/)).optional(),
  /**
   * Added within version 1: set by the action when it judged these records again with the suite's judge
   * before the gate (a baseline judged by another judge; on workflow_run, a fork's records): how many
   * records, and the judges' fingerprints they carried before.
   */
  rejudged: z.object({ records: z.int().nonnegative(), judgedBefore: z.array(z.string()) }).optional(),
});

/** A check's min, max and max_regression as the policy states them (a number in the metric's unit, or "N%" of the baseline). */
const limitsSchema = z.object({
  min: finiteNumber.optional(),
  max: finiteNumber.optional(),
  maxRegression: z.union([finiteNumber, z.string().regex(/^\d+(\.\d+)?%$/)]).optional(),
});

const groupSchema = z.object({ attribute: z.string(), value: z.string().optional() });

const sameGroup = (a: GroupRef | null, b: GroupRef | undefined) => a?.attribute === b?.attribute && a?.value === b?.value;

const checkReportSchema = z
  .object({
    metric: z.string(),
    scope: z.string(),
    /** Added within version 1: the pooled scope (its `scope` "overall"), or a scenario (which may be called "overall" too). */
    scopeKind: z.enum(SCOPE_KINDS).optional(),
    /** Added within version 1: the group a per-group metric's name names (metrics/names.ts), else null. */
    group: groupSchema.nullable().optional(),
    dimension: z.enum(DIMENSIONS as [Dimension, ...Dimension[]]),
    direction: z.enum(['higher', 'lower']),
    severity: z.enum(['block', 'warn', 'off']),
    status: checkStatusSchema,
    threshold: z.string(),
    candidate: metricValueSchema.nullable(), // as metrics files have them: a report gated from one must read back
    comparison: comparisonSchema.nullable(),
    budget: budgetInEffectSchema.nullable(),
    reasons: z.array(z.string()),
    // Added within version 1 (absent from older reports): how the check was judged, and its power.
    test: z.enum(TESTS).nullable().optional(),
    bounds: z.enum(BOUNDS).nullable().optional(),
    boundTest: boundTestSchema.nullable().optional(),
    /** Added within version 1: what a bound on ece, ece_10_bin, a worst group or a gap was judged on (absent otherwise). */
    boundJudgedOn: boundJudgedOnSchema.nullable().optional(),
    power: powerSchema.nullable().optional(),
    flags: z.array(checkFlagSchema).optional(),
    /** Added within version 1: true for a check the gate adds whatever the policy says (the failure-rate check). */
    builtin: z.boolean().optional(),
    /** Added within version 1: the check's bounds and budget as the policy states them (the budget in effect is `budget`). */
    limits: limitsSchema.optional(),
  })
  .refine(
    (check) => (check.flags ?? []).includes('underpowered') === (check.power?.underpowered ?? false),
    'the underpowered flag does not follow from power',
  )
  .refine((check) => check.scopeKind !== 'pooled' || check.scope === OVERALL, `the pooled scope is called ${OVERALL}`)
  .refine(
    (check) => check.group === undefined || sameGroup(check.group, groupOf(check.metric)),
    'the group is not the one the metric names',
  );

export const gateReportSchema = z.object({
  version: z.literal(1),
  verdict: verdictSchema,
  /**
   * Added within version 1 (absent from older reports): pass | warn | inconclusive | fail | error, finer
   * than the verdict (gate/verdict.ts decideOutcome: error > fail > inconclusive > warn > pass).
   */
  outcome: outcomeSchema.optional(),
  /** Added within version 1: how many checks did not run (skipped, error, or inconclusive for want of a comparison: gate/verdict.ts didNotRun). */
  notRun: z.int().nonnegative().optional(),
  /** source: where the policy was read (the action reads it at the pull request's base commit). */
  policy: z.object({
    name: z.string(),
    file: z.string(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    source: z.string().optional(),
    /** Added within version 1: settings.significance and settings.multiplicity, what the tests were judged at. */
    significance: z.union([probability, z.literal('off')]).optional(),
    multiplicity: z.enum(['holm', 'bonferroni', 'none']).optional(),
  }),
  /** Set by the action: the event and, on a pull request, its number and commits. */
  github: z
    .object({
      event: z.string(),
      sha: z.string(),
      pullRequest: z.object({ number: z.int().positive(), baseSha: z.string(), headSha: z.string() }).nullable(),
    })
    .optional(),
  candidate: runSummarySchema.omit({ commit: true }),
  baseline: runSummarySchema.nullable(),
  checks: z.array(checkReportSchema),
  tradeoffs: z.array(tradeoffResultSchema),
  /** How many of the baseline's instances the candidate has (both runs records files), else null (absent from older reports). */
  coverage: coverageSchema.nullable().default(null),
  /** Added within version 1: what changed instance by instance (both runs records files; else null, absent from older reports). */
  changes: instanceChangesSchema.nullable().optional(),
  /** Added within version 1: the candidate's runs pooled (a re-run, or `gate --prior-run`) and which run this is; absent when it decided on one run outside a pull request. */
  evidence: evidenceSchema.optional(),
  /** Added within version 1: whether the instances both runs have asked the same (both runs records files; else null, absent from older reports). */
  comparability: comparabilitySchema.nullable().optional(),
  /** The candidate's metrics per scenario, for the details. */
  scenarios: metricsReportSchema.shape.scenarios,
  /** Added within version 1: how many of `scenarios` have point estimates only (over the limit on intervals); absent when none. */
  scenariosWithoutIntervals: metricsReportSchema.shape.scenariosWithoutIntervals,
  // Added within version 1 (absent from older reports): what the charts draw, checked like the rest.
  ...chartDataSchema.partial().shape,
});

export type GateReport = z.output<typeof gateReportSchema>;
export type RunSummary = z.output<typeof runSummarySchema>;
type CheckReport = z.output<typeof checkReportSchema>;

function summarizeRun(run: RunInput): RunSummary {
  if (run.kind === 'metrics') return { file: run.file, kind: 'metrics', records: null, instances: null };
  const suites = run.table.provenance?.suites ?? [];
  return {
    file: run.file,
    kind: 'records',
    records: run.table.size,
    instances: run.table.instanceCount,
    ...(suites.length > 0 ? { suites } : {}),
  };
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
  if (result.builtin) parts.push('built-in');
  return parts.join(', ');
}

function limitsOf({ check }: CheckResult): z.output<typeof limitsSchema> {
  return {
    ...(check.min !== undefined ? { min: check.min } : {}),
    ...(check.max !== undefined ? { max: check.max } : {}),
    ...(check.max_regression !== undefined ? { maxRegression: check.max_regression } : {}),
  };
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
    outcome: result.outcome,
    notRun: countOutcomes(result.checks.map(({ check, status, comparison }) => ({ severity: check.severity, status, comparison }))).notRun,
    policy: {
      name: policy.policy.name,
      file: policy.file,
      sha256: policy.sha256,
      significance: policy.policy.settings.significance,
      multiplicity: policy.policy.settings.multiplicity,
    },
    candidate: summarizeRun(candidate),
    baseline: baseline ? summarizeRun(baseline) : null,
    checks: result.checks.map((check): CheckReport => ({
      metric: check.check.metric,
      scope: scopeName(check.scope),
      scopeKind: check.scope.kind,
      group: groupOf(check.check.metric) ?? null,
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
      ...(check.boundJudgedOn ? { boundJudgedOn: check.boundJudgedOn } : {}),
      power: check.power ?? null,
      flags: check.flags,
      builtin: check.builtin ?? false,
      limits: limitsOf(check),
    })),
    tradeoffs: result.tradeoffs,
    coverage: result.coverage ?? null,
    changes,
    comparability: runsComparability(candidate, baseline),
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
  const report = parsed.data;
  // Inconclusive blocking checks fail the verdict under settings.inconclusive: block, else warn: either follows.
  const verdicts = [decideVerdict(report.checks, report.coverage?.status), decideVerdict(report.checks, report.coverage?.status, 'block')];
  if (!verdicts.includes(report.verdict)) {
    throw new InputError(file, undefined, `the verdict "${report.verdict}" does not follow from the checks (they give "${verdicts[0]}")`);
  }
  const outcome = decideOutcome(report.checks, report.coverage?.status);
  if (report.outcome !== undefined && report.outcome !== outcome) {
    throw new InputError(file, undefined, `the outcome "${report.outcome}" does not follow from the checks (they give "${outcome}")`);
  }
  const { notRun } = countOutcomes(report.checks);
  if (report.notRun !== undefined && report.notRun !== notRun) {
    throw new InputError(file, undefined, `notRun ${report.notRun} does not follow from the checks (${notRun} did not run)`);
  }
  return report;
}
