// The gate's error rates, measured by simulation (run by `npm run bench`, or alone:
//   node bench/run.mjs --only simulation [--trials N]).
//
// Each trial evaluates shared instances twice, each with a robustness and a fairness variant. Instance
// i has its own chance q_i of being answered right, drawn from Beta(1.5, 0.5) (mean 0.75, most
// questions clearly easy or hard, as evaluation questions are); its variants are a little harder
// (0.9 q_i, 0.95 q_i). Each run answers every record with its own independent draw, states a
// calibrated confidence (its chance, blurred), and takes a log-normal latency. The policy gates five
// metrics at once, every check blocking with a budget of 0 (noise alone decides):
// accuracy, ece, accuracy_robust, accuracy_fair, latency_p95_ms.
// - A/A (1,000 instances): the same model twice. A blocked gate is a false alarm; their share must be at
//   most 5% under the default Holm correction; today's rule (no correction) measured on the same pairs.
// - Power (1,000 instances): the candidate is truly 5 points worse on every record (q * 0.70 / 0.75);
//   the share of trials that block must be at least 80%.
// - Small suite (150 instances, a true 6-point drop): the gate must never say a clean pass (it blocks,
//   or warns that a check is underpowered) in at least 95% of trials.
import { MetricsMemo } from '../src/gate/compare.js';
import { evaluateGate } from '../src/gate/evaluate.js';
import type { GateResult } from '../src/gate/types.js';
import { buildTable } from '../src/metrics/table.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { Random } from '../src/stats/random.js';
import { betaSampler } from './beta.js';

const trials = Number(process.argv[2] ?? 500);
const resamples = Number(process.argv[3] ?? 1000);
const random = new Random(2026);

const normal = () => Math.sqrt(-2 * Math.log(1 - random.nextFloat())) * Math.cos(2 * Math.PI * random.nextFloat());

const beta = betaSampler(random);

const VARIANTS = [
  { perturbation: undefined, harder: 1 },
  { perturbation: { name: 'typos', kind: 'robustness' as const }, harder: 0.9 },
  { perturbation: { name: 'dialect', kind: 'fairness' as const }, harder: 0.95 },
];

/** One run over the instances' chances, each scaled by `skill` (1: the baseline model). */
function run(chances: number[], skill: number): RunInput {
  const records: EvalRecord[] = chances.flatMap((chance, i) =>
    VARIANTS.map(({ perturbation, harder }) => {
      const q = chance * harder * skill;
      return {
        scenario: 'qa',
        id: String(i),
        ...(perturbation ? { perturbation } : {}),
        correct: random.nextFloat() < q ? 1 : 0,
        confidence: Math.min(0.99, Math.max(0.01, q + 0.05 * normal())),
        latency_ms: 400 * Math.exp(0.3 * normal()),
      };
    }),
  );
  return { kind: 'records', file: 'simulated', table: buildTable(records) };
}

const checks = ['accuracy', 'ece', 'accuracy_robust', 'accuracy_fair']
  .map((metric) => `  - metric: ${metric}\n    max_regression: 0\n    detect: 0.05\n`)
  .join('');
const policyFor = (multiplicity: string) =>
  parsePolicy(
    `version: 1\nname: simulation\nsettings:\n  resamples: ${resamples}\n  multiplicity: ${multiplicity}\nchecks:\n${checks}` +
      '  - metric: latency_p95_ms\n    max_regression: 0\n',
    'simulation.yml',
  ).policy;
const holm = policyFor('holm');
const uncorrected = policyFor('none');

const instances = (count: number) => Array.from({ length: count }, () => beta(1.5, 0.5));
const gate = (policy: typeof holm, candidate: RunInput, baseline: RunInput, memo?: MetricsMemo): GateResult =>
  evaluateGate({ policy, candidate, baseline }, memo);

const counts = { falseBlocks: 0, falseBlocksUncorrected: 0, detections: 0, smallCleanPasses: 0, smallBlocks: 0 };
for (let trial = 0; trial < trials; trial++) {
  const chances = instances(1000);
  const baseline = run(chances, 1);
  const same = run(chances, 1);
  const memo = new MetricsMemo();
  if (gate(holm, same, baseline, memo).verdict === 'fail') counts.falseBlocks++;
  if (gate(uncorrected, same, baseline, memo).verdict === 'fail') counts.falseBlocksUncorrected++;
  if (gate(holm, run(chances, 0.7 / 0.75), baseline).verdict === 'fail') counts.detections++;
  const small = instances(150);
  const verdict = gate(holm, run(small, 0.69 / 0.75), run(small, 1)).verdict;
  if (verdict === 'pass') counts.smallCleanPasses++;
  if (verdict === 'fail') counts.smallBlocks++;
}
const rate = (count: number) => count / trials;
const margin = (count: number) => 1.96 * Math.sqrt((rate(count) * (1 - rate(count))) / trials);
const measured = (count: number) => ({ rate: rate(count), margin95: margin(count) });
console.log(
  JSON.stringify({
    trials,
    resamples,
    significance: holm.settings.significance,
    falseBlocks: measured(counts.falseBlocks),
    falseBlocksUncorrected: measured(counts.falseBlocksUncorrected),
    power: measured(counts.detections),
    smallNotCleanPass: measured(trials - counts.smallCleanPasses),
    smallBlocks: measured(counts.smallBlocks),
  }),
);
