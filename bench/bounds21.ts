// Issue 21's bounds on biased metrics, measured through the gate (evaluateGate in-process, the
// decision `evalgate gate` makes): records of bench/population21.ts (equal groups, a calibrated model),
// policies parsed as policy files are. Run by `node bench/run.mjs --only bounds21` (not in the default
// run), or alone: node bench/out/bounds21.mjs '{"trials": 100}'.
//   lenient     one run of 300 instances, a lenient bound at each metric's population value, each in a
//               policy of its own: the share blocked (target: at most 5%, plus noise).
//   realistic   A/A pairs of 300 instances, ece_10_bin max 0.04, group_accuracy_gap max 0.08,
//               worst_group_accuracy min 0.70 (lenient) and five regression checks (budgets 0.01, 5% on
//               latency): the share of pairs blocked (target: at most 5%); and the same bounds in `point`.
//   coverage    one run of 200 and of 2,000 instances (the little bootstrap): whether the interval the
//               bounds are judged on (boundJudgedOn.interval) covers the population value (target: 90%).
import { evaluateGate } from '../src/gate/evaluate.js';
import { MetricsMemo } from '../src/gate/compare.js';
import type { GateResult } from '../src/gate/types.js';
import { buildTable } from '../src/metrics/table.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { Random } from '../src/stats/random.js';
import { EQUAL_GROUPS, Generator, populationValues } from './population21.js';
import { rate, type Rate } from './sim21-common.js';

export const BOUNDED = [
  ['ece', 'ece', 'max'],
  ['ece_10_bin', 'ece_10_bin', 'max'],
  ['worst_group_accuracy:region', 'worst_group_accuracy', 'min'],
  ['group_accuracy_gap:region', 'group_accuracy_gap', 'max'],
] as const;

const REGRESSIONS = [
  ['accuracy', '0.01'],
  ['ece', '0.01'],
  ['accuracy_robust', '0.01'],
  ['accuracy_fair', '0.01'],
  ['latency_p95_ms', '5%'],
];

const run = (records: EvalRecord[]): RunInput => ({ kind: 'records', file: 'simulated', table: buildTable(records) });

const policyOf = (settings: string, checks: string[]) =>
  parsePolicy(`version: 1\nname: bounds21\nsettings:\n${settings}checks:\n${checks.join('')}`, 'bounds21.yml').policy;

const boundCheck = (metric: string, bound: string, limit: number) => `  - metric: ${metric}\n    ${bound}: ${limit}\n`;

/** One run's gate under each bound's own lenient policy: which bounds blocked, and their judged intervals. */
export function lenientAtTruth(records: EvalRecord[], truth: Record<string, number>, resamples: number) {
  const candidate = run(records);
  const memo = new MetricsMemo();
  return BOUNDED.map(([metric, family, bound]) => {
    const policy = policyOf(`  bounds: lenient\n  resamples: ${resamples}\n`, [boundCheck(metric, bound, truth[family])]);
    const result = evaluateGate({ policy, candidate }, memo);
    const interval = result.checks[0].boundJudgedOn?.interval;
    return {
      metric,
      blocked: result.verdict === 'fail',
      covers: interval ? interval[0] <= truth[family] && truth[family] <= interval[1] : false,
    };
  });
}

/** The realistic policy on an A/A pair, in one bounds mode. */
export function realistic(candidate: RunInput, baseline: RunInput, mode: 'lenient' | 'point', resamples: number): GateResult {
  const checks = [
    boundCheck('ece_10_bin', 'max', 0.04),
    boundCheck('group_accuracy_gap:region', 'max', 0.08),
    boundCheck('worst_group_accuracy:region', 'min', 0.7),
    ...REGRESSIONS.map(
      ([metric, budget]) => `  - metric: ${metric}\n    max_regression: ${budget.endsWith('%') ? `"${budget}"` : budget}\n`,
    ),
  ];
  return evaluateGate({ policy: policyOf(`  bounds: ${mode}\n  resamples: ${resamples}\n`, checks), candidate, baseline });
}

interface Options {
  trials: number;
  resamples: number;
}

function main({ trials, resamples }: Options) {
  const truth = populationValues(EQUAL_GROUPS) as unknown as Record<string, number>;
  const blocked: Record<string, number> = {};
  const covered: Record<string, Record<number, number>> = {};
  let lenientPairs = 0;
  let pointPairs = 0;
  for (let t = 0; t < trials; t++) {
    const generator = new Generator(new Random(21000 + t), EQUAL_GROUPS);
    const instances = generator.instances(300);
    const baselineRecords = generator.records(instances);
    const candidateRecords = generator.records(instances);
    for (const { metric, blocked: b } of lenientAtTruth(candidateRecords, truth, resamples))
      blocked[metric] = (blocked[metric] ?? 0) + (b ? 1 : 0);
    const [candidate, baseline] = [run(candidateRecords), run(baselineRecords)];
    if (realistic(candidate, baseline, 'lenient', resamples).verdict === 'fail') lenientPairs++;
    if (realistic(candidate, baseline, 'point', resamples).verdict === 'fail') pointPairs++;
    for (const size of [200, 2000]) {
      const sized = new Generator(new Random(22000 + t + size), EQUAL_GROUPS);
      for (const { metric, covers } of lenientAtTruth(sized.records(sized.instances(size), { variants: 1 }), truth, resamples)) {
        covered[metric] ??= {};
        covered[metric][size] = (covered[metric][size] ?? 0) + (covers ? 1 : 0);
      }
    }
  }
  const rates = (counts: Record<string, number>): Record<string, Rate> =>
    Object.fromEntries(Object.entries(counts).map(([key, count]) => [key, rate(count, trials)]));
  return {
    trials,
    resamples,
    truth: Object.fromEntries(BOUNDED.map(([metric, family]) => [metric, truth[family]])),
    lenientBlocked: rates(blocked),
    realisticLenient: rate(lenientPairs, trials),
    realisticPoint: rate(pointPairs, trials),
    covers: Object.fromEntries(Object.entries(covered).map(([metric, bySize]) => [metric, rates(bySize)])),
  };
}

if (process.argv[2] !== undefined) process.stdout.write(`${JSON.stringify(main(JSON.parse(process.argv[2]) as Options))}\n`);
