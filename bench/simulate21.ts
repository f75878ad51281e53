// Issue 21's in-process simulations, one JSON object on stdout (run by `node bench/run.mjs --only
// simulation21`; alone: node bench/out/simulate21.mjs '{"parts": ["gate"], "scale": 0.1}').
//   population  the population values (bench/population21.ts)
//   estimators  estimates and bounds for biased metrics (bench/estimators21.ts)
//   gate        budgets as budgets, power, the default detect (bench/gate21.ts)
//   realistic   the realistic lenient policy under the proposed rules (bench/gate21.ts)
//   resamples   the little bootstrap with few resamples (bench/resamples21.ts)
//   reruns      re-running a failed commit (bench/reruns21.ts)
// scale multiplies every trial count (1: the counts the docs' tables were measured with).
import { CONFIGURATIONS, runConfiguration } from './estimators21.js';
import { gateStudies, realisticProposed } from './gate21.js';
import { EQUAL_GROUPS, populationValues, UNEQUAL_GROUPS } from './population21.js';
import { rerunsStudy } from './reruns21.js';
import { resamplesStudy } from './resamples21.js';

const ALL = ['population', 'estimators', 'gate', 'realistic', 'resamples', 'reruns'];
const given = JSON.parse(process.argv[2] ?? '{}') as { parts?: string[]; scale?: number };
const parts = given.parts ?? ALL;
const scale = given.scale ?? 1;
const trials = (count: number) => Math.max(5, Math.round(count * scale));

const RESAMPLES = 1000;
const results: Record<string, unknown> = { scale };
const timed = (name: string, run: () => unknown) => {
  if (!parts.includes(name)) return;
  const started = Date.now();
  process.stderr.write(`simulation21: ${name}...\n`);
  results[name] = { result: run(), seconds: (Date.now() - started) / 1000 };
};

timed('population', () => ({
  equal: populationValues(EQUAL_GROUPS),
  unequal: populationValues(UNEQUAL_GROUPS),
  groups: { equal: EQUAL_GROUPS, unequal: UNEQUAL_GROUPS },
}));
timed('estimators', () =>
  CONFIGURATIONS.map((configuration, k) => {
    const count = trials(configuration.n > 500 ? 150 : 400);
    process.stderr.write(`  ${configuration.name}: ${count} trials\n`);
    return {
      name: configuration.name,
      n: configuration.n,
      trials: count,
      resamples: RESAMPLES,
      metrics: runConfiguration(configuration, count, RESAMPLES, 2100 + k),
    };
  }),
);
timed('gate', () => gateStudies(trials(300)));
timed('realistic', () => realisticProposed(trials(300)));
timed('resamples', () => resamplesStudy(trials(400)));
timed('reruns', () => rerunsStudy(trials(500)));
console.log(JSON.stringify(results));
