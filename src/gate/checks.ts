import { amountText } from '../metrics/units.js';
import type { MetricComponents, MetricSamples, MetricsReport, MetricValue } from '../metrics/compute.js';
import type { Dimension, Direction } from '../metrics/registry.js';
import { GROUP_FAMILY, isAttributeFamily, parseMetricName, scopeLabel, scopeOf, type ScopeRef } from '../metrics/names.js';
import { boundsOf, correctionFactor, familyKey, familyOf, testOf, type FamilyName } from '../policy/family.js';
import type { Check, Policy } from '../policy/schema.js';
import { scopeMetric, scopeMetrics } from '../runs/metrics-file.js';
import { boundEvidence, judgeBounds, type BoundEvidence, type Finding } from './bounds.js';
import { metricMeta, type RunComparer } from './compare.js';
import { adjustPValues, type Multiplicity } from './multiplicity.js';
import { judgeRegression, powerOf, regressionEvidence, type RegressionEvidence } from './regression.js';
import type { MissingBaseline } from './not-compared.js';
import type { RelaxedBudgets } from './tradeoffs.js';
import { SAMPLES_CANNOT_REACH, type BoundTest, type CheckResult, type CheckStatus, type PowerResult } from './types.js';

/*
 * Every check of the policy, in three phases, each a value of the one before: each check's evidence
 * (its value, its bounds' tests, its comparison with the baseline); then each family's p-values
 * corrected together (settings.multiplicity: the blocking checks' regression and lenient bound tests,
 * and apart from them the warn checks'); then each check's findings and result.
 */

export interface CheckContext {
  policy: Policy;
  candidateMetrics: MetricsReport;
  /** The bootstrap values behind the candidate's intervals (a records file). */
  candidateSamples: MetricSamples | undefined;
  /** The components of a metric with a biased plug-in (a records file), for its bounds' tests. */
  candidateComponents?: (scenario: string | undefined, metric: string) => MetricComponents | undefined;
  /** Undefined without a baseline. */
  comparer: RunComparer | undefined;
  relaxed: RelaxedBudgets;
  /** What a regression budget ends as without a baseline (skipped by default). */
  missingBaseline?: MissingBaseline;
}

/** Phase 1: what a check found, before the correction; or its result already (off, or no value). */
type Evidence =
  | { decided: CheckResult }
  | {
      decided?: undefined;
      check: Check;
      meta: { scope: ScopeRef; dimension: Dimension; direction: Direction };
      value: MetricValue;
      bounds?: BoundEvidence;
      regression?: RegressionEvidence;
    };
type Gathered = Exclude<Evidence, { decided: CheckResult }>;

function gather(
  check: Check,
  { policy, candidateMetrics, candidateSamples, candidateComponents, comparer, relaxed, missingBaseline }: CheckContext,
): Evidence {
  const { direction, dimension } = metricMeta(policy, check.metric, check.direction);
  const meta = { scope: scopeOf(check.scenario), dimension, direction };
  const unjudged = (status: CheckStatus, reason: string): Evidence => ({
    decided: { check, ...meta, status, reasons: [reason], flags: [] },
  });
  if (check.severity === 'off') return unjudged('off', 'turned off');
  const value = scopeMetric(candidateMetrics, check.scenario, check.metric);
  if (!value) return unjudged('error', `the candidate has no ${check.metric} for ${scopeLabel(meta.scope)}`);
  const samples = candidateSamples && scopeMetric(candidateSamples, check.scenario, check.metric);
  const bounded = check.min !== undefined || check.max !== undefined;
  const budget = check.max_regression;
  return {
    check,
    meta,
    value,
    bounds: bounded
      ? boundEvidence(check, boundsOf(check, policy), value, samples, candidateComponents?.(check.scenario, check.metric))
      : undefined,
    regression:
      budget === undefined
        ? undefined
        : regressionEvidence(check, budget, direction, testOf(check, policy), policy, comparer, relaxed, missingBaseline),
  };
}

/** A test its family corrects: a check's paired regression test, or the test of one of its lenient bounds. */
interface FamilyTest {
  of: 'regression' | BoundTest['bound'];
  key: string;
  p: number;
}

/** The family a check's corrected tests belong to (a decided check has none), and those tests. */
function familyTests(evidence: Evidence): { family: FamilyName; tests: FamilyTest[] } {
  const check = evidence.decided ? evidence.decided.check : evidence.check;
  const family = familyOf(check) ?? 'block';
  if (evidence.decided) return { family, tests: [] };
  const { regression, bounds } = evidence;
  const tests: FamilyTest[] = [];
  // A positive budget is tested as a budget (pOverBudget); budget 0 by pWorse.
  const p =
    regression?.test === 'regression' && !regression.early
      ? (regression.comparison.pOverBudget ?? regression.comparison.pWorse)
      : undefined;
  if (p !== undefined) tests.push({ of: 'regression', key: familyKey('regression', check.metric, check.scenario), p });
  for (const test of bounds?.mode === 'lenient' ? bounds.tests : []) {
    const limit = test.bound === 'min' ? check.min : check.max;
    tests.push({ of: test.bound, key: familyKey(test.bound, check.metric, check.scenario, limit), p: test.p });
  }
  return { family, tests };
}

/** Phase 2, for one check: the adjusted p-value of each of its corrected tests, and the size of its family. */
interface Correction {
  adjusted: Partial<Record<FamilyTest['of'], number>>;
  familySize: number;
}

/**
 * Each family's tests corrected together, given check by check; returns each check's correction. A
 * (metric, scope) tested by two checks is one test: its smallest p stands for it.
 */
function correctFamilies(method: Multiplicity, checks: Array<{ family: FamilyName; tests: FamilyTest[] }>): Correction[] {
  const correct = (family: FamilyName) => {
    const smallest = new Map<string, number>();
    for (const { key, p } of checks.flatMap((check) => (check.family === family ? check.tests : []))) {
      smallest.set(key, Math.min(p, smallest.get(key) ?? Infinity));
    }
    return { keys: [...smallest.keys()], adjusted: adjustPValues(method, [...smallest.values()]) };
  };
  const families = { block: correct('block'), warn: correct('warn') };
  return checks.map(({ family, tests }) => {
    const { keys, adjusted } = families[family];
    return { adjusted: Object.fromEntries(tests.map(({ of, key }) => [of, adjusted[keys.indexOf(key)]])), familySize: keys.length };
  });
}

/**
 * For a worst-group or gap metric, how many records each group had: both lean toward worse on small
 * groups, so a reader needs the sizes to judge them.
 */
function groupSizes(check: Check, metrics: MetricsReport): string | undefined {
  const { family, group } = parseMetricName(check.metric) ?? { family: check.metric };
  if (!group || !isAttributeFamily(family)) return undefined;
  const { attribute } = group;
  const sizes = Object.entries(scopeMetrics(metrics, check.scenario) ?? {}).flatMap(([name, value]) => {
    const parsed = parseMetricName(name);
    return parsed?.family === GROUP_FAMILY && parsed.group?.attribute === attribute ? [`${parsed.group.value} ${value.n}`] : [];
  });
  return sizes.length > 0 ? `groups of ${attribute} (records): ${sizes.join(', ')}` : undefined;
}

function statusOf(severity: Check['severity'], findings: Finding[]): CheckStatus {
  if (findings.some((finding) => finding.errored)) return 'error';
  if (findings.some((finding) => finding.failed)) return severity === 'warn' ? 'warn' : 'fail';
  if (findings.some((finding) => finding.inconclusive)) return 'inconclusive';
  return findings.some((finding) => finding.skipped) ? 'skipped' : 'pass';
}

/** Why `resamples` valid resamples cannot reach the (corrected) level, if they cannot: the test cannot decide, so it errors. */
function shortfall(what: string, resamples: number | undefined, factor: number, policy: Policy): Finding | undefined {
  const { significance } = policy.settings;
  if (significance === 'off' || resamples === undefined || factor / (resamples + 1) < significance) return undefined;
  const over = factor > 1 ? ` over ${factor} tests` : '';
  return {
    failed: true,
    errored: true,
    reasons: [`${what} not checked: ${resamples} valid resamples cannot reach significance ${significance}${over}`],
  };
}

/** The bounds' tests with their corrected p-values, and what they find. */
function boundsFindings(evidence: Gathered, bounds: BoundEvidence, { adjusted, familySize }: Correction, policy: Policy) {
  const tests = bounds.tests.map((test) => {
    const pAdjusted = adjusted[test.bound];
    return pAdjusted === undefined ? test : { ...test, pAdjusted };
  });
  const factor = bounds.mode === 'lenient' ? correctionFactor(policy, familySize) : 1;
  const fewest = Math.min(...tests.map((test) => test.resamples ?? Infinity));
  const finding =
    shortfall('bound', Number.isFinite(fewest) ? fewest : undefined, factor, policy) ??
    judgeBounds(evidence.check, evidence.value, { ...bounds, tests }, policy.settings.significance);
  const judgedOn = bounds.judgedOn ? { boundJudgedOn: bounds.judgedOn } : {};
  return { fields: { bounds: bounds.mode, ...(tests.length > 0 ? { boundTest: tests[0] } : {}), ...judgedOn }, finding };
}

/** The comparison with its corrected p-value, what it finds, and the test's power at its family's level. */
function regressionFindings(
  evidence: Gathered,
  regression: RegressionEvidence,
  { adjusted, familySize }: Correction,
  { policy, comparer }: CheckContext,
) {
  const pAdjusted = adjusted.regression;
  const field = regression.comparison?.pOverBudget === undefined ? 'pWorseAdjusted' : 'pOverBudgetAdjusted';
  const corrected: RegressionEvidence =
    pAdjusted === undefined || regression.early
      ? regression
      : { ...regression, comparison: { ...regression.comparison, [field]: pAdjusted } };
  const factor = corrected.test === 'regression' ? correctionFactor(policy, familySize) : 1;
  const finding =
    (corrected.early ? undefined : shortfall('regression', corrected.comparison.resamples, factor, policy)) ??
    judgeRegression(corrected, policy, evidence.check.metric);
  const alpha = policy.settings.significance === 'off' ? 0.05 : policy.settings.significance;
  const { check } = evidence;
  const split = () => comparer?.samplesSplit(check.metric, check.scenario);
  const power = powerOf(check, corrected, alpha / correctionFactor(policy, familySize), policy.settings.min_shared_instances, split);
  return { fields: { test: corrected.test, comparison: corrected.comparison, budget: corrected.budget }, finding, power };
}

/**
 * A regression check that would pass but cannot see what it must detect (MDE80 > detect) is
 * inconclusive: its pass would not be earned. What it sees, and the instances that would settle it.
 */
function inconclusive(metric: string, power: PowerResult | undefined, status: CheckStatus): string | undefined {
  if (!power?.underpowered || power.detect === null || status !== 'pass') return undefined;
  const must = `must detect ${amountText(metric, power.detect)}${power.detectFrom === 'default' ? ' (the default detect)' : ''}`;
  const sees =
    power.mde === null ? 'the comparison shows no spread' : `it sees a worsening of ${amountText(metric, power.mde)} at 80% power`;
  return `inconclusive: ${must}, ${sees}${settleWords(power)}`;
}

/** What would settle an inconclusive check: the shared instances, or the samples per example (as `evalgate plan` sizes them). */
function settleWords({ instancesNeeded, samplesNeeded, samplesNote }: PowerResult): string {
  if (!instancesNeeded) return '';
  if (samplesNeeded) {
    return `; about ${instancesNeeded} shared instances, or ${samplesNeeded} samples per example at today's instances, would settle it (evalgate plan)`;
  }
  if (samplesNote === SAMPLES_CANNOT_REACH) {
    return `; only more instances would settle it, about ${instancesNeeded} shared: more samples per example cannot (evalgate plan)`;
  }
  return `; about ${instancesNeeded} shared instances would settle it (evalgate plan)`;
}

/** Phase 3: a check's findings, and its result. */
function decide(evidence: Gathered, correction: Correction, context: CheckContext): CheckResult {
  const { policy, candidateMetrics: metrics } = context;
  const { check, meta, value, bounds, regression } = evidence;
  const bounded = bounds && boundsFindings(evidence, bounds, correction, policy);
  const budgeted = regression && regressionFindings(evidence, regression, correction, context);
  const power = budgeted?.power;
  const findings = [bounded?.finding, budgeted?.finding].filter((finding) => finding !== undefined);
  const judged = statusOf(check.severity, findings);
  const unsure = inconclusive(check.metric, power, judged);
  const sizes = groupSizes(check, metrics);
  return {
    check,
    ...meta,
    status: unsure ? 'inconclusive' : judged,
    reasons: [...findings.flatMap((finding) => finding.reasons), ...(unsure ? [unsure] : []), ...(sizes ? [sizes] : [])],
    flags: [...(bounds?.borderline ? ['borderline' as const] : []), ...(power?.underpowered ? ['underpowered' as const] : [])],
    candidate: value,
    ...bounded?.fields,
    ...budgeted?.fields,
    ...(power ? { power } : {}),
  };
}

export function evaluateChecks(context: CheckContext): CheckResult[] {
  const { policy } = context;
  const evidence = policy.checks.map((check) => gather(check, context));
  const corrections = correctFamilies(policy.settings.multiplicity, evidence.map(familyTests));
  return evidence.map((found, index) => found.decided ?? decide(found, corrections[index], context));
}
