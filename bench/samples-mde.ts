// How much repeated samples shrink what a regression check can see (run by `npm run bench`, or alone:
//   node bench/run.mjs --only samples).
//
// A non-deterministic model answers 300 instances; instance i has its own chance q_i of being right,
// drawn from Beta(1.5, 0.5), and every answer is its own draw. Baseline and candidate are the same
// model, each run asks every example K times (records carry `sample`), and the gate's accuracy check
// (max_regression 0.01, detect 0.03) reports the minimum detectable worsening at 80% power. Averaging
// K samples removes sampling noise from each instance's score, so the paired spread, and with it MDE80,
// shrinks about as 1 / sqrt(K) (the instances' own difficulty is shared by both runs and cancels).
import { evaluateGate } from '../src/gate/evaluate.js';
import { buildTable } from '../src/metrics/table.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { Random } from '../src/stats/random.js';
import { betaSampler } from './beta.js';

const INSTANCES = 300;
const trials = Number(process.argv[2] ?? 20);
const random = new Random(7);

const beta = betaSampler(random);

function run(chances: number[], samples: number): RunInput {
  const records: EvalRecord[] = chances.flatMap((chance, i) =>
    Array.from({ length: samples }, (_, sample) => ({
      scenario: 'qa',
      id: String(i),
      ...(samples > 1 ? { sample } : {}),
      correct: random.nextFloat() < chance ? 1 : 0,
    })),
  );
  return { kind: 'records', file: 'simulated', table: buildTable(records) };
}

const { policy } = parsePolicy(
  'version: 1\nname: samples\nsettings:\n  resamples: 1000\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n    detect: 0.03\n',
  'samples.yml',
);
const rows = [1, 2, 4, 8].map((samples) => {
  let mde = 0;
  let underpowered = 0;
  for (let trial = 0; trial < trials; trial++) {
    const chances = Array.from({ length: INSTANCES }, () => beta(1.5, 0.5));
    const power = evaluateGate({ policy, candidate: run(chances, samples), baseline: run(chances, samples) }).checks[0].power!;
    mde += power.mde! / trials;
    if (power.underpowered) underpowered++;
  }
  return { samples, mde, underpowered: underpowered / trials };
});
console.log(JSON.stringify({ trials, instances: INSTANCES, rows }));
