import type { MetricSamples, MetricsReport } from '../metrics/compute.js';
import { OVERALL } from '../metrics/scope.js';
import { boundsOf, correctionFactor, familyKey, familyOf, testOf, type FamilyName } from '../policy/family.js';
import type { Check, Policy } from '../policy/schema.js';
import { scopeMetric, scopeMetrics } from '../runs/metrics-file.js';
import { boundEvidence, judgeBounds, type BoundEvidence, type Finding } from './bounds.js';
import { metricMeta, type RunComparer } from './compare.js';
import { adjustPValues } from './multiplicity.js';
import { judgeRegression, powerOf, regressionEvidence, type RegressionEvidence } from './regression.js';
import type { RelaxedBudgets } from './tradeoffs.js';
import type { CheckResult, CheckStatus } from './types.js';

/*
 * Every check of the policy, in three steps: each check's evidence (its value, its bounds' tests, its
 * comparison with the baseline); then each family's p-values corrected together (settings.multiplicity:
 * the blocking checks' regression and lenient bound tests, and apart from them the warn checks'); then
 * each check's decision.
 */

export interface CheckContext {
  policy: Policy;
  candidateMetrics: MetricsReport;
  /** The bootstrap values behind the candidate's intervals (a records file). */
  candidateSamples: MetricSamples | undefined;
  /** Undefined without a baseline. */
  comparer: RunComparer | undefined;
  relaxed: RelaxedBudgets;
}

/** A check with its evidence gathered, before the correction. */
interface Pending {
  result: CheckResult;
  bounds?: BoundEvidence;
  regression?: RegressionEvidence;
  /** Set when the check is already decided (off, or no value). */
  decided?: boolean;
}

function gather(check: Check, { policy, candidateMetrics, candidateSamples, comparer, relaxed }: CheckContext): Pending {
  const { direction, dimension } = metricMeta(policy, check.metric, check.direction);
  const result: CheckResult = { check, scope: check.scenario ?? OVERALL, dimension, direction, status: 'pass', reasons: [], flags: [] };
  if (check.severity === 'off') return { result: { ...result, status: 'off', reasons: ['turned off'] }, decided: true };
  const value = scopeMetric(candidateMetrics, check.scenario, check.metric);
  if (!value) {
    return { result: { ...result, status: 'error', reasons: [`the candidate has no ${check.metric} for ${result.scope}`] }, decided: true };
  }
  result.candidate = value;
  const pending: Pending = { result };
  if (check.min !== undefined || check.max !== undefined) {
    const samples = candidateSamples && scopeMetric(candidateSamples, check.scenario, check.metric);
    pending.bounds = boundEvidence(check, boundsOf(check, policy), value, samples);
    result.bounds = pending.bounds.mode;
    if (pending.bounds.borderline) result.flags.push('borderline');
  }
  if (check.max_regression !== undefined) {
    pending.regression = regressionEvidence(check, result, testOf(check, policy), policy, comparer, relaxed);
    result.test = pending.regression.test;
    result.comparison = pending.regression.comparison;
    result.budget = pending.regression.budget;
  }
  return pending;
}

/** The p-value of each corrected test a pending check has, by family key. */
function familyTests(pending: Pending): Array<{ key: string; p: number; apply: (adjusted: number) => void }> {
  const { check } = pending.result;
  const tests: Array<{ key: string; p: number; apply: (adjusted: number) => void }> = [];
  const comparison = pending.regression?.comparison;
  if (pending.regression?.test === 'regression' && !pending.regression.early && comparison?.pWorse !== undefined) {
    tests.push({
      key: familyKey('regression', check.metric, check.scenario),
      p: comparison.pWorse,
      apply: (p) => (comparison.pWorseAdjusted = p),
    });
  }
  for (const test of pending.bounds?.mode === 'lenient' ? pending.bounds.tests : []) {
    const limit = test.bound === 'min' ? check.min : check.max;
    tests.push({ key: familyKey(test.bound, check.metric, check.scenario, limit), p: test.p, apply: (p) => (test.pAdjusted = p) });
  }
  return tests;
}

/** Corrects each family's tests together; returns each family's size (distinct tests). */
function correctFamilies(policy: Policy, pendings: Pending[]): Record<FamilyName, number> {
  const sizes: Record<FamilyName, number> = { block: 0, warn: 0 };
  for (const family of ['block', 'warn'] as const) {
    const members = pendings.filter((pending) => !pending.decided && familyOf(pending.result.check) === family).flatMap(familyTests);
    // A (metric, scope) tested by two checks is one test: its smallest p stands for it.
    const byKey = new Map<string, number>();
    for (const { key, p } of members) byKey.set(key, Math.min(p, byKey.get(key) ?? Infinity));
    const keys = [...byKey.keys()];
    const adjusted = adjustPValues(policy.settings.multiplicity, [...byKey.values()]);
    for (const member of members) member.apply(adjusted[keys.indexOf(member.key)]);
    sizes[family] = keys.length;
  }
  return sizes;
}

/**
 * For a worst-group or gap metric, how many records each group had: both lean toward worse on small
 * groups, so a reader needs the sizes to judge them.
 */
function groupSizes(check: Check, metrics: MetricsReport): string | undefined {
  const [family, attribute] = check.metric.split(':');
  if (attribute === undefined || (family !== 'worst_group_accuracy' && family !== 'group_accuracy_gap')) return undefined;
  const prefix = `group_accuracy:${attribute}=`;
  const sizes = Object.entries(scopeMetrics(metrics, check.scenario) ?? {})
    .filter(([name]) => name.startsWith(prefix))
    .map(([name, value]) => `${name.slice(prefix.length)} ${value.n}`);
  return sizes.length > 0 ? `groups of ${attribute} (records): ${sizes.join(', ')}` : undefined;
}

function statusOf(severity: Check['severity'], findings: Finding[]): CheckStatus {
  if (findings.some((finding) => finding.errored)) return 'error';
  if (findings.some((finding) => finding.failed)) return severity === 'warn' ? 'warn' : 'fail';
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

function regressionShortfall(pending: Pending, policy: Policy, familySize: number): Finding | undefined {
  const evidence = pending.regression!;
  if (evidence.early) return undefined;
  const factor = evidence.test === 'regression' ? correctionFactor(policy, familySize) : 1;
  return shortfall('regression', evidence.comparison?.resamples, factor, policy);
}

function boundsShortfall(pending: Pending, policy: Policy, familySize: number): Finding | undefined {
  const evidence = pending.bounds!;
  const factor = evidence.mode === 'lenient' ? correctionFactor(policy, familySize) : 1;
  const fewest = Math.min(...evidence.tests.map((test) => test.resamples ?? Infinity));
  return shortfall('bound', Number.isFinite(fewest) ? fewest : undefined, factor, policy);
}

function decide(pending: Pending, policy: Policy, familySizes: Record<FamilyName, number>): CheckResult {
  const { result } = pending;
  if (pending.decided) return result;
  const { check } = result;
  const familySize = familySizes[familyOf(check) ?? 'block'];
  const findings: Finding[] = [];
  if (pending.bounds) {
    findings.push(
      boundsShortfall(pending, policy, familySize) ?? judgeBounds(check, result.candidate!, pending.bounds, policy.settings.significance),
    );
  }
  if (pending.bounds?.tests.length) result.boundTest = pending.bounds.tests[0];
  if (pending.regression) {
    findings.push(regressionShortfall(pending, policy, familySize) ?? judgeRegression(pending.regression, policy));
    const alpha = policy.settings.significance === 'off' ? 0.05 : policy.settings.significance;
    result.power = powerOf(check, pending.regression, alpha / correctionFactor(policy, familySize));
  }
  result.reasons = findings.flatMap((finding) => finding.reasons);
  result.status = statusOf(check.severity, findings);
  if (result.power?.underpowered) result.flags.push('underpowered');
  if (result.power?.underpowered && policy.settings.power !== 'off' && result.status === 'pass') {
    const { mde, detect } = result.power;
    const sees = mde === null ? 'point estimates show no spread' : `it sees a worsening of ${mde.toPrecision(3)} at 80% power`;
    result.reasons.push(`underpowered: must detect ${detect!.toPrecision(3)}, ${sees}`);
    result.status = policy.settings.power === 'block' && check.severity === 'block' ? 'fail' : 'warn';
  }
  return result;
}

export function evaluateChecks(context: CheckContext): CheckResult[] {
  const pendings = context.policy.checks.map((check) => gather(check, context));
  const familySizes = correctFamilies(context.policy, pendings);
  return pendings.map((pending) => {
    const result = decide(pending, context.policy, familySizes);
    const sizes = result.candidate && groupSizes(result.check, context.candidateMetrics);
    return sizes ? { ...result, reasons: [...result.reasons, sizes] } : result;
  });
}
