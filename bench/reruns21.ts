// Issue 21 point 6: re-running a failed commit. In-process through the engine's paired comparison
// (RunComparer, via bench/gate21.ts decide: the comparison `evalgate gate` makes) on records of bench/population21.ts: an accuracy check (budget 0, detect 0.08) at the
// size `evalgate plan` recommends (planSuite on a pilot pair), a candidate truly `detect` worse (and, for
// the false blocks, one truly unchanged). The baseline is fixed (the main branch's run); every re-run of
// the pull request draws the candidate anew. Rules, each judged at looks 1..6 (the first run, 5 re-runs):
//   independent  each run decides alone (today);
//   pooled       run k decides on the records of runs 1..k, run j's records as sample j of each example
//                (the engine's repeated samples: each example's samples averaged), the usual test;
//   msprt        an always-valid test over the looks (Johari, Pekelis and Walsh 2022): the pooled
//                comparison's worsening w_k and spread s_k give the one-sided normal-mixture likelihood
//                ratio L_k (mixture N(0, tau^2) on w > 0, tau = detect); fail from the first look with
//                L_k >= 1 / alpha on, for good.
import { buildTable } from '../src/metrics/table.js';
import { planSuite } from '../src/pipeline/plan.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';
import { normalCdf } from '../src/stats/normal.js';
import { Random } from '../src/stats/random.js';
import { decide } from './gate21.js';
import { EQUAL_GROUPS, Generator } from './population21.js';
import { rate } from './sim21-common.js';

const DETECT = 0.08;
const LOOKS = 6;
const ALPHA = 0.05;
/** Resamples per comparison: 1,000 keep the p-value's resolution (1 / 1,001) far below alpha for one test, at half the time. */
const RESAMPLES = 1000;
const loaded = parsePolicy(
  `version: 1\nname: reruns\nchecks:\n  - metric: accuracy\n    max_regression: 0\n    detect: ${DETECT}\n`,
  'reruns.yml',
);

/** The check alone (budget 0: today's rule and the proposed one agree); decide() is the engine's paired comparison. */
const CHECK = [{ metric: 'accuracy', budget: 0, detect: DETECT }];
const run = (records: EvalRecord[]): RunInput => ({ kind: 'records', file: 'simulated', table: buildTable(records) });

/**
 * The one-sided normal-mixture likelihood ratio of "w > 0" for an estimate x ~ N(w, V): the likelihood
 * ratio exp(w x / V - w^2 / (2 V)) integrated over a half-normal mixture (density 2 N(0, tau^2) on
 * w > 0): (2 / (tau sqrt(a))) exp(x^2 / (2 V^2 a)) Phi(x / (V sqrt(a))), a = 1 / V + 1 / tau^2.
 * The runs' pooled estimate is a Gaussian sufficient statistic of the likelihood of w given all runs
 * (the fixed baseline's noise is in V), so L_k is a mixture of likelihood ratios: a martingale under
 * w = 0, and P(some L_k >= 1 / alpha) <= alpha (Ville's inequality).
 */
export function oneSidedMixture(x: number, variance: number, tau: number): number {
  const a = 1 / variance + 1 / (tau * tau);
  return (2 / (tau * Math.sqrt(a))) * Math.exp((x * x) / (2 * variance * variance * a)) * normalCdf(x / (variance * Math.sqrt(a)));
}

export function plannedSize(): number {
  const generator = new Generator(new Random(5000), EQUAL_GROUPS);
  const instances = generator.instances(300);
  const baseline = run(generator.records(instances, { variants: 1 }));
  const candidate = run(generator.records(instances, { variants: 1 }));
  return planSuite(loaded, baseline, candidate).rows[0].needed!;
}

interface Look {
  independent: boolean;
  pooled: boolean;
  msprt: boolean;
}

function pullRequest(seed: number, n: number, drop: number): Look[] {
  const generator = new Generator(new Random(seed), EQUAL_GROUPS);
  const instances = generator.instances(n);
  const baseline = run(generator.records(instances, { variants: 1 }));
  const runs: EvalRecord[][] = [];
  const looks: Look[] = [];
  let rejected = false;
  for (let k = 1; k <= LOOKS; k++) {
    runs.push(generator.records(instances, { variants: 1, drop }));
    const alone = decide(run(runs[k - 1]), baseline, CHECK, RESAMPLES)[0];
    const pooledRecords = runs.flatMap((records, j) => records.map((record) => ({ ...record, sample: j })));
    const all = decide(run(pooledRecords), baseline, CHECK, RESAMPLES)[0];
    if (oneSidedMixture(all.worsening, all.sd ** 2, DETECT) >= 1 / ALPHA) rejected = true;
    looks.push({ independent: alone.today === 'fail', pooled: all.today === 'fail', msprt: rejected });
  }
  return looks;
}

const RULES = ['independent', 'pooled', 'msprt'] as const;

/** Escapes (a later look passes after a failed first run) and, for A/A, false blocks that stay. */
export function rerunsStudy(trials: number) {
  const n = plannedSize();
  const summarize = (prs: Look[][]) =>
    Object.fromEntries(
      RULES.map((rule) => {
        const failedFirst = prs.filter((looks) => looks[0][rule]);
        const passesWithin = (within: number) =>
          failedFirst.filter((looks) => looks.slice(1, within + 1).some((look) => !look[rule])).length;
        return [
          rule,
          {
            firstBlocks: rate(failedFirst.length, prs.length),
            escapeWithin: [1, 2, 3, 5].map((within) => ({ within, escaped: rate(passesWithin(within), failedFirst.length) })),
            /** Of all pull requests: the first run failed and a later one passed (within 5 re-runs). */
            escapedOfAll: rate(passesWithin(5), prs.length),
            /** Blocked on every one of the 6 looks: a block re-running does not clear. */
            blockedThroughout: rate(prs.filter((looks) => looks.every((look) => look[rule])).length, prs.length),
            /** Blocked on at least one of 6 looks (pushes of unchanged code). */
            blockedAtSomeLook: rate(prs.filter((looks) => looks.some((look) => look[rule])).length, prs.length),
          },
        ];
      }),
    );
  return {
    instances: n,
    detect: DETECT,
    atDetect: summarize(Array.from({ length: trials }, (_, t) => pullRequest(90000 + t, n, DETECT))),
    unchanged: summarize(Array.from({ length: trials }, (_, t) => pullRequest(91000 + t, n, 0))),
  };
}
