// Issue 21's regression rules, measured in-process through the engine's own paired bootstrap
// (RunComparer, src/gate/compare.ts: what `evalgate gate` compares with) on records of
// bench/population21.ts. Run by `node bench/run.mjs --only simulation21` (--part gate).
//
// The rules proposed (a prototype of the decision; docs/statistics-design-21.md):
//   budget test    p_b = (#{r : w*_r <= b*_r} + 1) / (B + 1), b*_r the budget on resample r's baseline
//                  (a number is the same on every resample); fail iff Holm's p_b' < alpha. Budget 0 is
//                  today's test.
//   power          MDE80 = b + (z(1 - alpha / m) + z(0.8)) sigma, sigma the comparison's planned spread
//                  (src/gate/power.ts plannedSpread); inconclusive iff not failed and MDE80 > detect.
//   default detect max(3 b, 0.05) for a metric in [0, 1] with a budget in its units; 3 x a relative budget;
//                  10% of the baseline for a budget of 0 on a metric outside [0, 1].
// Today's rule, beside it: fail iff w > b and Holm's p(w > 0)' < alpha; underpowered iff
// max(b, z sigma) + z(0.8) sigma > detect.
import { budgetValue, MetricsMemo, RunComparer } from '../src/gate/compare.js';
import { adjustPValues } from '../src/gate/multiplicity.js';
import { plannedSpread } from '../src/gate/power.js';
import { lookupMetric } from '../src/metrics/registry.js';
import { buildTable } from '../src/metrics/table.js';
import type { Budget } from '../src/policy/schema.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { normalCdf, normalQuantile } from '../src/stats/normal.js';
import { Random } from '../src/stats/random.js';
import { proposedOf } from './estimators21.js';
import { accuracyOf, EQUAL_GROUPS, Generator } from './population21.js';
import { meanOf, rate } from './sim21-common.js';

const ALPHA = 0.05;
const Z_POWER = normalQuantile(0.8);

export interface RegressionCheck {
  metric: string;
  budget: Budget;
  /** Absent: the default (proposed) detect. */
  detect?: Budget;
}

export interface CheckOutcome {
  metric: string;
  worsening: number;
  sd: number;
  /** Proposed. */
  pBudget: number;
  mde: number;
  detect: number;
  proposed: 'fail' | 'inconclusive' | 'pass';
  /** Today's. */
  pWorse: number;
  today: 'fail' | 'underpowered' | 'pass';
}

const run = (records: EvalRecord[]): RunInput => ({ kind: 'records', file: 'simulated', table: buildTable(records) });

/**
 * The proposed default detect: max(3 b, 0.05) for [0, 1] metrics with an absolute budget, 3 x a relative
 * budget, and 10% of the baseline for a budget of 0 on a metric outside [0, 1] (no scale to multiply).
 */
export function defaultDetect(metric: string, budget: Budget): Budget {
  if (typeof budget === 'string') return `${3 * Number.parseFloat(budget)}%`;
  if (lookupMetric(metric)?.range[1] === 1) return Math.max(3 * budget, 0.05);
  return budget > 0 ? 3 * budget : '10%';
}

/** Both rules on every check of a family of blocking regression checks (one scope: overall). */
export function decide(candidate: RunInput, baseline: RunInput, checks: RegressionCheck[], resamples = 2000): CheckOutcome[] {
  const comparer = new RunComparer(candidate, baseline, { resamples, seed: 1, minGroupSize: 10 }, new MetricsMemo());
  const m = checks.length;
  const z = normalQuantile(1 - ALPHA / m);
  const found = checks.map((check) => {
    const meta = lookupMetric(check.metric)!;
    const comparison = comparer.compare(check.metric, undefined, meta.direction)!;
    const { worsenings, baselines } = comparer.samples(check.metric, undefined)!;
    let within = 0;
    worsenings.forEach((w, r) => {
      if (w <= budgetValue(check.budget, baselines[r])) within++;
    });
    const b = budgetValue(check.budget, comparison.baseline);
    const detect = budgetValue(check.detect ?? defaultDetect(check.metric, check.budget), comparison.baseline);
    const basis = Math.min(comparison.shared ?? 0, comparison.population ?? Infinity);
    const sigma = plannedSpread(comparison.sd!, meta.range[1] === 1, detect, basis);
    return {
      metric: check.metric,
      worsening: comparison.worsening,
      sd: comparison.sd!,
      b,
      detect,
      stated: check.detect !== undefined,
      sigma,
      pBudget: (within + 1) / (worsenings.length + 1),
      pWorse: comparison.pWorse!,
    };
  });
  const adjustedBudget = adjustPValues(
    'holm',
    found.map((f) => f.pBudget),
  );
  const adjustedWorse = adjustPValues(
    'holm',
    found.map((f) => f.pWorse),
  );
  return found.map((f, k) => {
    const mde = f.b + (z + Z_POWER) * f.sigma;
    const mdeToday = Math.max(f.b, z * f.sigma) + Z_POWER * f.sigma;
    const failedToday = f.worsening > f.b && adjustedWorse[k] < ALPHA;
    return {
      metric: f.metric,
      worsening: f.worsening,
      sd: f.sd,
      pBudget: f.pBudget,
      mde,
      detect: f.detect,
      proposed: adjustedBudget[k] < ALPHA ? 'fail' : mde > f.detect ? 'inconclusive' : 'pass',
      pWorse: f.pWorse,
      // Today a check without detect has no power statement.
      today: failedToday ? 'fail' : f.stated && mdeToday > f.detect ? 'underpowered' : 'pass',
    };
  });
}

const FIVE = (detects: Partial<Record<string, number>> = {}): RegressionCheck[] =>
  (
    [
      ['accuracy', 0.01],
      ['ece', 0.01],
      ['accuracy_robust', 0.01],
      ['accuracy_fair', 0.01],
      ['latency_p95_ms', '5%'],
    ] as Array<[string, Budget]>
  ).map(([metric, budget]) => ({ metric, budget, ...(detects[metric] !== undefined ? { detect: detects[metric] } : {}) }));

/** A/A pairs: the same instances answered twice (or, deterministic, the same records twice). */
function aaPair(seed: number, n: number, deterministic = false): [RunInput, RunInput] {
  const generator = new Generator(new Random(seed), EQUAL_GROUPS);
  const instances = generator.instances(n);
  const baseline = generator.records(instances);
  return [run(deterministic ? baseline : generator.records(instances)), run(baseline)];
}

/** The Done-when: A/A at 600 instances, three variants, five checks, a detect the design can see. */
function doneWhenAA(trials: number) {
  // What `evalgate plan` would report: the median MDE80 of a pilot of 20 pairs, per check.
  const pilot = Array.from({ length: 20 }, (_, t) => decide(...aaPair(70000 + t, 600), FIVE()));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const planned = Object.fromEntries(FIVE().map(({ metric }, k) => [metric, median(pilot.map((checks) => checks[k].mde))]));
  const margins = [1.05, 1.1, 1.2];
  const outcomes = Array.from({ length: trials }, (_, t) => {
    const checks = decide(...aaPair(71000 + t, 600), FIVE(planned));
    // The same comparisons judged against detect = margin x the planned MDE80 (sigma does not depend on it here).
    return margins.map((margin) =>
      checks.map((c) => ({
        ...c,
        proposed: c.proposed === 'fail' ? 'fail' : c.mde > planned[c.metric] * margin ? 'inconclusive' : 'pass',
      })),
    );
  });
  return {
    instances: 600,
    planned,
    rows: margins.map((margin, k) => ({
      margin,
      blocked: rate(outcomes.filter((o) => o[k].some((c) => c.proposed === 'fail')).length, trials),
      inconclusive: rate(outcomes.filter((o) => o[k].some((c) => c.proposed === 'inconclusive')).length, trials),
      blockedToday: rate(outcomes.filter((o) => o[k].some((c) => c.today === 'fail')).length, trials),
    })),
  };
}

/** The default detect against suite size: the share of A/A comparisons each check calls inconclusive. */
function defaultDetectBySize(trials: number, sizes: number[]) {
  return sizes.map((n) => {
    const random = Array.from({ length: trials }, (_, t) => decide(...aaPair(72000 + 31 * n + t, n), FIVE()));
    const deterministic = Array.from({ length: Math.min(trials, 5) }, (_, t) => decide(...aaPair(73000 + 31 * n + t, n, true), FIVE()));
    return {
      instances: n,
      checks: FIVE().map(({ metric }, k) => ({
        metric,
        inconclusive: rate(random.filter((o) => o[k].proposed === 'inconclusive').length, trials),
        mde: meanOf(random.map((o) => o[k].mde)).mean,
        deterministicInconclusive: rate(deterministic.filter((o) => o[k].proposed === 'inconclusive').length, deterministic.length),
      })),
      anyInconclusive: rate(random.filter((o) => o.some((c) => c.proposed === 'inconclusive')).length, trials),
    };
  });
}

/** Issue point 1 under both rules: 40 instances, a true 15-point drop, budget 0.02, no detect. */
function smallSuite(trials: number) {
  const outcomes = Array.from({ length: trials }, (_, t) => {
    const generator = new Generator(new Random(74000 + t), EQUAL_GROUPS);
    const instances = generator.instances(40);
    const baseline = run(generator.records(instances, { variants: 1 }));
    const candidate = run(generator.records(instances, { variants: 1, drop: 0.15 }));
    return decide(candidate, baseline, [{ metric: 'accuracy', budget: 0.02 }])[0];
  });
  return {
    proposed: {
      fail: rate(outcomes.filter((o) => o.proposed === 'fail').length, trials),
      inconclusive: rate(outcomes.filter((o) => o.proposed === 'inconclusive').length, trials),
      pass: rate(outcomes.filter((o) => o.proposed === 'pass').length, trials),
    },
    todayCleanPass: rate(outcomes.filter((o) => o.today === 'pass').length, trials),
  };
}

/**
 * A candidate truly at its budget (accuracy 0.02 worse, budget 0.02; latency 5% slower, budget 5%),
 * and truly at the MDE80 the proposed formula gives: the share blocked by each rule.
 */
function atBudget(trials: number, n: number) {
  const cases: Array<{ label: string; check: RegressionCheck; drop?: (sigma: number) => number; latency?: number }> = [
    { label: 'accuracy 0.02 worse, budget 0.02', check: { metric: 'accuracy', budget: 0.02 }, drop: () => 0.02 },
    { label: 'latency 5% slower, budget 5%', check: { metric: 'latency_p95_ms', budget: '5%' }, latency: 1.05 },
    {
      label: 'accuracy worse by the proposed MDE80, budget 0.02',
      check: { metric: 'accuracy', budget: 0.02 },
      drop: (sigma) => 0.02 + (normalQuantile(1 - ALPHA) + Z_POWER) * sigma,
    },
  ];
  // The paired spread of accuracy at n: its mean over a pilot.
  const sigma = meanOf(
    Array.from({ length: 20 }, (_, t) => {
      const [c, b] = aaPair(75000 + t, n);
      return decide(c, b, [{ metric: 'accuracy', budget: 0.02 }])[0].sd;
    }),
  ).mean;
  return {
    instances: n,
    sigma,
    rows: cases.map(({ label, check, drop, latency }, c) => {
      const outcomes = Array.from({ length: trials }, (_, t) => {
        const generator = new Generator(new Random(76000 + 1000 * c + t), EQUAL_GROUPS);
        const instances = generator.instances(n);
        const baseline = run(generator.records(instances, { variants: 1 }));
        const candidate = run(generator.records(instances, { variants: 1, drop: drop?.(sigma) ?? 0, latencyScale: latency ?? 1 }));
        return decide(candidate, baseline, [check])[0];
      });
      return {
        label,
        trueWorsening: drop ? drop(sigma) : 'p95 x 1.05',
        blockedToday: rate(outcomes.filter((o) => o.today === 'fail').length, trials),
        blockedProposed: rate(outcomes.filter((o) => o.proposed === 'fail').length, trials),
        expectedProposed: drop ? 1 - normalCdf(normalQuantile(1 - ALPHA) - (drop(sigma) - 0.02) / sigma) : undefined,
      };
    }),
  };
}

/**
 * The issue's realistic lenient policy under the proposed rules, A/A at 300 instances: ece_10_bin max
 * 0.04, gap max 0.08, worst group min 0.70 (lenient: the proposed tests' p-values), and the five
 * regression checks (budget test), all eight in one Holm family; beside it `point` bounds judged on the
 * corrected estimates (no error control).
 */
export function realisticProposed(trials: number) {
  const random = new Random(77);
  const outcomes = Array.from({ length: trials }, (_, t) => {
    const generator = new Generator(new Random(77000 + t), EQUAL_GROUPS);
    const instances = generator.instances(300);
    const baselineRecords = generator.records(instances);
    const candidateRecords = generator.records(instances);
    const regression = decide(run(candidateRecords), run(baselineRecords), FIVE());
    const originals = candidateRecords.filter((record) => !record.perturbation);
    const bounds = proposedOf(instances, originals, EQUAL_GROUPS.groups.length, 1000, random);
    const boundP = [
      bounds.ece_10_bin.tests.pAbove(0.04),
      bounds.group_accuracy_gap.tests.pAbove(0.08),
      bounds.worst_group_accuracy.tests.pBelow(0.7),
    ];
    const adjusted = adjustPValues('holm', [...regression.map((c) => c.pBudget), ...boundP]);
    const pointCrossed =
      bounds.ece_10_bin.point > 0.04 || bounds.group_accuracy_gap.point > 0.08 || bounds.worst_group_accuracy.point < 0.7;
    const regressionFailed = adjusted.slice(0, regression.length).some((p) => p < ALPHA);
    return {
      lenient: adjusted.some((p) => p < ALPHA),
      point: regressionFailed || pointCrossed,
    };
  });
  const count = (key: 'lenient' | 'point') => rate(outcomes.filter((o) => o[key]).length, trials);
  return { instances: 300, lenient: count('lenient'), point: count('point') };
}

export function gateStudies(trials: number) {
  return {
    smallSuite: smallSuite(trials),
    atBudget: atBudget(trials, 2000),
    doneWhenAA: doneWhenAA(trials),
    defaultDetect: defaultDetectBySize(Math.max(5, Math.round(trials / 15)), [40, 100, 300, 600, 1000, 2000, 4000]),
    populationAccuracy: accuracyOf(EQUAL_GROUPS),
  };
}
