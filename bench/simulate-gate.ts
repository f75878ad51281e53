// The gate's error rates, measured by simulation (run by `npm run bench`, or alone:
//   node bench/run.mjs --only simulation).
//
// Each trial evaluates 1,000 shared instances twice. Instance i has its own chance q_i of being
// answered right, drawn from Beta(1.5, 0.5) (mean 0.75, most questions clearly easy or hard, as
// evaluation questions are); each run answers it right with its own independent draw.
// - A/A: candidate and baseline are the same model (same q_i). Policy: accuracy max_regression 0 at
//   significance 0.05. A block is a false alarm; their share must be at most 0.05.
// - Power: the candidate is truly 5 points worse (q_i * 0.70 / 0.75); the share of trials that block
//   is the power (target: at least 0.9).
import { evaluateGate } from '../src/gate/evaluate.js';
import type { RunInput } from '../src/runs/load.js';
import { buildTable } from '../src/metrics/table.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { Random } from '../src/stats/random.js';

const INSTANCES = 1000;
const trials = Number(process.argv[2] ?? 500);
const random = new Random(2026);

/** Beta(a, b) for a, b < 1 or not: by the ratio of two gamma draws (Marsaglia-Tsang, boosted below 1). */
function gamma(shape: number): number {
  if (shape < 1) return gamma(shape + 1) * random.nextFloat() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = Math.sqrt(-2 * Math.log(1 - random.nextFloat())) * Math.cos(2 * Math.PI * random.nextFloat());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random.nextFloat();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}
const beta = (a: number, b: number) => {
  const x = gamma(a);
  return x / (x + gamma(b));
};

function run(chances: number[]): RunInput {
  const records: EvalRecord[] = chances.map((chance, i) => ({
    scenario: 'qa',
    id: String(i),
    correct: random.nextFloat() < chance ? 1 : 0,
  }));
  return { kind: 'records', file: 'simulated', table: buildTable(records) };
}

const { policy } = parsePolicy('version: 1\nname: simulation\nchecks:\n  - metric: accuracy\n    max_regression: 0\n', 'simulation.yml');

let falseAlarms = 0;
let detections = 0;
for (let trial = 0; trial < trials; trial++) {
  const chances = Array.from({ length: INSTANCES }, () => beta(1.5, 0.5));
  const baseline = run(chances);
  if (evaluateGate({ policy, candidate: run(chances), baseline }).verdict === 'fail') falseAlarms++;
  if (evaluateGate({ policy, candidate: run(chances.map((q) => (q * 0.7) / 0.75)), baseline }).verdict === 'fail') detections++;
}
const rate = (count: number) => count / trials;
const margin = (p: number) => 1.96 * Math.sqrt((p * (1 - p)) / trials);
console.log(
  JSON.stringify({
    trials,
    instances: INSTANCES,
    significance: policy.settings.significance,
    resamples: policy.settings.resamples,
    falseAlarmRate: rate(falseAlarms),
    falseAlarmMargin95: margin(rate(falseAlarms)),
    power: rate(detections),
    powerMargin95: margin(rate(detections)),
  }),
);
