import { describe, expect, it } from '@jest/globals';
import { evaluateGate } from '../src/gate/evaluate.js';
import type { CheckResult, GateResult } from '../src/gate/types.js';
import { buildTable } from '../src/metrics/table.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import type { RunInput } from '../src/runs/load.js';

/*
 * The gate's decision as a whole: multiplicity over the blocking checks, non-inferiority, bounds under
 * uncertainty, power, and the review's fixes. Runs are built so that each outcome can be worked out
 * by hand.
 */

type Wrong = (scenario: string, i: number) => boolean;

/** `n` instances in each scenario; an instance is right unless wrong(scenario, i). */
function run(scenarios: string[], n: number, wrong: Wrong): RunInput {
  const records = scenarios.flatMap((scenario) =>
    Array.from({ length: n }, (_, i) => ({ scenario, id: String(i), correct: wrong(scenario, i) ? 0 : 1 }) as EvalRecord),
  );
  return { kind: 'records', file: 'run.jsonl', table: buildTable(records) };
}

function gate(policyYaml: string, candidate: RunInput, baseline?: RunInput): GateResult {
  const { policy } = parsePolicy(`version: 1\nname: test\n${policyYaml}`, 'policy.yml');
  return evaluateGate({ policy, candidate, baseline });
}

const statuses = (result: GateResult) => result.checks.map((check) => check.status);

describe('family-wise control of false blocks', () => {
  // Four scenarios of 100 instances; the candidate loses 4 in each and gains none. A resample keeps
  // none of the 4 with probability (1 - 4/100)^100 = 0.017: each raw p is about 0.017, each change -0.04.
  const scenarios = ['s0', 's1', 's2', 's3'];
  const baseline = run(scenarios, 100, (_, i) => i % 10 === 0);
  const candidate = run(scenarios, 100, (_, i) => i % 10 === 0 || i % 25 === 1);
  const checks = scenarios.map((scenario) => `  - metric: accuracy\n    scenario: ${scenario}\n    max_regression: 0\n`).join('');
  const policy = (multiplicity: string) => `settings:\n  multiplicity: ${multiplicity}\nchecks:\n${checks}`;

  it('blocks every check uncorrected, none under Holm or Bonferroni (4 x 0.017 > 0.05)', () => {
    // Last, the built-in failure-rate check: neither run failed a call, so it passes without a test (outside the family).
    const none = gate(policy('none'), candidate, baseline);
    expect(statuses(none)).toEqual(['fail', 'fail', 'fail', 'fail', 'pass']);
    for (const check of none.checks.slice(0, 4)) expect(check.comparison!.pWorse!).toBeGreaterThan(0.008);
    for (const multiplicity of ['holm', 'bonferroni']) {
      const corrected = gate(policy(multiplicity), candidate, baseline).checks.slice(0, 4);
      // Not blocked; nor a clean pass: 100 instances a scenario cannot see the default detect 0.05.
      expect(corrected.map((check) => check.status)).toEqual(['inconclusive', 'inconclusive', 'inconclusive', 'inconclusive']);
      for (const check of corrected) {
        const { pWorse, pWorseAdjusted } = check.comparison!;
        expect(pWorseAdjusted!).toBeGreaterThanOrEqual(Math.min(1, 4 * Math.min(...corrected.map((c) => c.comparison!.pWorse!))) - 1e-12);
        expect(pWorseAdjusted!).toBeGreaterThan(pWorse!);
        expect(check.reasons[0]).toMatch(/^worse by 4 pts, over the budget, but not statistically real \(p = 0\.0\d+, adjusted 0\.\d+\)$/);
      }
    }
  });

  it('keeps warn checks in a family of their own, and a lone blocking check uncorrected', () => {
    const mixed = `settings:\n  multiplicity: holm\nchecks:\n${checks.replace(/max_regression: 0\n/g, 'max_regression: 0\n    severity: warn\n')}  - metric: accuracy\n    max_regression: 0\n`;
    const result = gate(mixed, candidate, baseline);
    // Overall: 16 losses of 400, p about e^-16: a family of one blocks on it.
    expect(result.checks[4].comparison!.pWorseAdjusted).toBe(result.checks[4].comparison!.pWorse);
    // The last: the built-in failure-rate check.
    expect(statuses(result)).toEqual(['inconclusive', 'inconclusive', 'inconclusive', 'inconclusive', 'fail', 'pass']);
  });
});

describe('non-inferiority', () => {
  const same = run(['s'], 400, (_, i) => i % 5 === 0);

  it('passes an unchanged model on a large suite: no resample reaches the budget, p = 1/(B+1)', () => {
    const result = gate(
      'settings:\n  resamples: 400\n  test: non-inferiority\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n',
      same,
      same,
    );
    expect(result.checks[0].status).toBe('pass');
    expect(result.checks[0].comparison!.pNotInferior).toBeCloseTo(1 / 401, 12);
  });

  it('fails a budget of 0: every resample reaches it (p = 1)', () => {
    const result = gate(
      'settings:\n  resamples: 400\nchecks:\n  - metric: accuracy\n    max_regression: 0\n    test: non-inferiority\n',
      same,
      same,
    );
    expect(result.checks[0].status).toBe('fail');
    expect(result.checks[0].comparison!.pNotInferior).toBe(1);
    expect(result.checks[0].reasons[0]).toMatch(/^not shown to be within the budget 0 pts of the baseline \(non-inferiority p = 1\.0/);
  });

  it('fails a small suite that cannot show it, where the regression test passes the same data', () => {
    const baseline = run(['s'], 30, (_, i) => i % 5 === 0);
    const candidate = run(['s'], 30, (_, i) => i % 5 === 0 || i === 1 || i === 2);
    const policy = (test: string) =>
      `settings:\n  resamples: 1000\nchecks:\n  - metric: accuracy\n    max_regression: 0.1\n    test: ${test}\n`;
    // The regression test does not block (not a clean pass either: 30 instances cannot see the default detect 0.3).
    expect(gate(policy('regression'), candidate, baseline).checks[0].status).toBe('inconclusive');
    const ni = gate(policy('non-inferiority'), candidate, baseline).checks[0];
    expect(ni.status).toBe('fail');
    // 2 losses in 30 (-0.067): a resample reaches -0.1 whenever it holds 3 or more copies of them.
    expect(ni.comparison!.pNotInferior!).toBeGreaterThan(0.05);
  });

  it('keeps each check its own p-values when two checks test one metric differently', () => {
    const policy =
      'settings:\n  resamples: 400\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n  - metric: accuracy\n    max_regression: 0.02\n    test: non-inferiority\n';
    const [regression, nonInferiority] = gate(policy, same, same).checks;
    expect(regression.comparison!.pNotInferior).toBeUndefined();
    expect(nonInferiority.comparison!.pNotInferior).toBeCloseTo(1 / 401, 12);
    expect(nonInferiority.comparison!.pWorseAdjusted).toBeUndefined();
  });

  it('judges point estimates under significance off', () => {
    const policy = (budget: number) =>
      `settings:\n  significance: off\n  test: non-inferiority\nchecks:\n  - metric: accuracy\n    max_regression: ${budget}\n`;
    const baseline = run(['s'], 100, (_, i) => i % 5 === 0);
    const candidate = run(['s'], 100, (_, i) => i % 5 === 0 || i === 1);
    expect(gate(policy(0.02), candidate, baseline).checks[0].status).toBe('pass');
    expect(gate(policy(0.01), candidate, baseline).checks[0].status).toBe('fail');
  });
});

describe('absolute bounds under uncertainty', () => {
  // 100 instances, 69 right: the point estimate 0.69 is below a min of 0.7, within noise of it.
  const near = run(['s'], 100, (_, i) => i % 100 < 31);
  const far = run(['s'], 100, (_, i) => i % 2 === 0);
  const policy = (bounds: string, min: number) => `settings:\n  bounds: ${bounds}\nchecks:\n  - metric: accuracy\n    min: ${min}\n`;
  const only = (result: GateResult): CheckResult => result.checks[0];

  it('point judges the estimate, and flags an interval that straddles the bound', () => {
    expect(only(gate(policy('point', 0.7), near))).toMatchObject({
      status: 'fail',
      flags: ['borderline'],
      reasons: ['below the minimum 70%'],
    });
    expect(only(gate(policy('point', 0.4), far)).flags).toEqual([]);
  });

  it('lenient fails only when the bound is crossed with confidence', () => {
    const lenient = only(gate(policy('lenient', 0.7), near));
    expect(lenient.status).toBe('pass');
    expect(lenient.boundTest).toMatchObject({ bound: 'min', claim: 'crossed', method: 'bootstrap' });
    expect(lenient.reasons[0]).toMatch(/^below the minimum 70%, but not with confidence \(p = 0\.\d+\)$/);
    expect(only(gate(policy('lenient', 0.7), far)).status).toBe('fail');
  });

  it('strict passes only when inside the bound with confidence', () => {
    expect(only(gate(policy('strict', 0.6), near)).status).toBe('pass');
    const doubtful = only(gate(policy('strict', 0.66), near));
    expect(doubtful.status).toBe('fail');
    expect(doubtful.reasons[0]).toMatch(/^not shown to be at least 66% with confidence/);
  });

  it('a metrics file: the normal approximation from its interval, and strict fails without one', () => {
    const metrics = (ci: [number, number] | null): RunInput => ({
      kind: 'metrics',
      file: 'm.json',
      report: { overall: { accuracy: { value: 0.69, ci, n: 100 } }, scenarios: {} },
    });
    // se = 0.18 / (2 x 1.96) = 0.0459; p(below 0.7) = Phi((0.69 - 0.7) / 0.0459) = Phi(-0.218) = 0.414.
    const lenient = only(gate(policy('lenient', 0.7), metrics([0.6, 0.78])));
    expect(lenient.status).toBe('pass');
    expect(lenient.boundTest!.method).toBe('normal');
    expect(lenient.boundTest!.p).toBeCloseTo(0.4137, 3);
    expect(only(gate(policy('lenient', 0.7), metrics(null))).status).toBe('fail'); // no interval: the estimate
    expect(only(gate(policy('strict', 0.5), metrics(null))).reasons).toEqual(['a strict min needs an interval: the value 69% has none']);
  });
});

describe('group metrics', () => {
  it('say how many records each group had (both lean toward worse on small groups)', () => {
    const records = Array.from(
      { length: 60 },
      (_, i) => ({ scenario: 's', id: String(i), correct: i % 3 === 0 ? 0 : 1, groups: { dialect: i < 45 ? 'sae' : 'aae' } }) as EvalRecord,
    );
    const candidate: RunInput = { kind: 'records', file: 'c.jsonl', table: buildTable(records) };
    const check = gate('checks:\n  - metric: group_accuracy_gap:dialect\n    max: 0.5\n', candidate).checks[0];
    expect(check.reasons).toEqual(['groups of dialect (records): sae 45, aae 15']);
  });
});

describe('power and inconclusive', () => {
  // 150 instances, a 10-point drop (15 losses): the paired spread is about 0.025, so the check cannot see 0.03.
  const baseline = run(['s'], 150, (_, i) => i % 5 === 0);
  const candidate = run(['s'], 150, (_, i) => i % 5 === 0 || i % 10 === 3);
  const policy = (setting: string) =>
    `settings:\n  ${setting}\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n    detect: 0.03\n`;

  it('reports the minimum detectable worsening, and flags a check that cannot see what it must detect', () => {
    const check = gate(policy('inconclusive: warn'), candidate, baseline).checks[0];
    expect(check.power!.detect).toBe(0.03);
    expect(check.power!.mde!).toBeGreaterThan(0.03);
    expect(check.flags).toEqual(['underpowered']);
    // The drop is significantly over the budget 0.02 (3 losses; tested as a budget: p_b, above pWorse): a
    // failed check stays failed, flagged.
    expect(check.comparison!.pOverBudget!).toBeLessThan(0.05);
    expect(check.comparison!.pOverBudget!).toBeGreaterThanOrEqual(check.comparison!.pWorse!);
    expect(check.status).toBe('fail');
    expect(check.reasons).toEqual(['worse than the baseline by 10 pts, over the budget 2 pts']);
  });

  it('an inconclusive gate warns, or fails under inconclusive: block; the deprecated power is read as it', () => {
    const same = run(['s'], 150, (_, i) => i % 5 === 0);
    const warned = gate(policy('inconclusive: warn'), same, same);
    expect(warned).toMatchObject({ verdict: 'warn', outcome: 'inconclusive' });
    expect(warned.checks[0]).toMatchObject({ status: 'inconclusive', flags: ['underpowered'] });
    expect(warned.checks[0].reasons).toEqual([
      expect.stringMatching(
        /^inconclusive: must detect 3 pts, it sees a worsening of \d+(\.\d+)? pts at 80% power; about \d+ shared instances would settle it \(evalgate plan\)$/,
      ),
    ]);
    expect(gate(policy('inconclusive: block'), same, same)).toMatchObject({ verdict: 'fail', outcome: 'inconclusive' });
    expect(gate(policy('power: block'), same, same)).toMatchObject({ verdict: 'fail', outcome: 'inconclusive' });
    // power: off no longer turns it off: a pass must be earned.
    expect(gate(policy('power: off'), same, same)).toMatchObject({ verdict: 'warn', outcome: 'inconclusive' });
    const large = run(['s'], 4000, (_, i) => i % 5 === 0);
    const seen = gate(policy('inconclusive: block'), large, large);
    expect(seen).toMatchObject({ verdict: 'pass', outcome: 'pass' });
    expect(seen.checks[0]).toMatchObject({ status: 'pass', flags: [] });
  });
});

describe('fixes from the review', () => {
  it('a trade-off only relaxes: a smaller allowance than the check keeps the check budget', () => {
    const baseline = run(['s'], 400, (_, i) => i % 5 === 0);
    const policy = `checks:\n  - metric: accuracy\n    max_regression: 0.05\ntradeoffs:\n  - name: t\n    allow: [{ metric: accuracy, max_regression: 0.01 }]\n    when: [{ metric: error_rate, min_improvement: 0, direction: lower }]\n`;
    const candidate = run(['s'], 400, (_, i) => i % 5 === 0 || i % 50 === 1);
    const result = gate(policy, candidate, baseline);
    expect(result.tradeoffs[0].applied).toBe(false); // error_rate is 0 in both: not a real improvement
    expect(result.checks[0].budget).toEqual({ value: 0.05, from: 'the check' });
  });

  it('a paired comparison on too few shared instances errors, failing closed', () => {
    const baseline = run(['s'], 300, (_, i) => i % 5 === 0);
    const records = ['0', '1', ...Array.from({ length: 298 }, (_, i) => `other-${i}`)].map(
      (id) => ({ scenario: 's', id, correct: 0 }) as EvalRecord,
    );
    const candidate: RunInput = { kind: 'records', file: 'c.jsonl', table: buildTable(records) };
    const check = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n', candidate, baseline).checks[0];
    expect(check.status).toBe('error');
    expect(check.reasons[0]).toBe(
      'regression not checked: 2 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
    );
  });
});

describe('fixes from the review of the statistics', () => {
  it('a trade-off improvement seen on a handful of instances does not apply', () => {
    // big: a real 13-point drop; tiny: 3 instances from all wrong to all right.
    const baseline = run(['big', 'tiny'], 300, (scenario, i) => (scenario === 'tiny' ? true : i % 10 === 0));
    const candidate = run(['big', 'tiny'], 300, (scenario, i) => (scenario === 'tiny' ? false : i % 10 === 0 || i % 8 === 1));
    const keep = (input: RunInput): RunInput => {
      if (input.kind !== 'records') return input;
      const records: EvalRecord[] = [];
      for (let row = 0; row < input.table.size; row++) {
        const [scenario, id] = input.table.instanceKeys[input.table.instanceOf[row]].split('\u0000');
        if (scenario === 'tiny' && Number(id) >= 3) continue;
        records.push({ scenario, id, correct: input.table.correct[row] });
      }
      return { kind: 'records', file: input.file, table: buildTable(records) };
    };
    const policy =
      'checks:\n  - metric: accuracy\n    scenario: big\n    max_regression: 0.02\ntradeoffs:\n  - name: t\n' +
      '    allow: [{ metric: accuracy, scenario: big, max_regression: 0.3 }]\n    when: [{ metric: accuracy, scenario: tiny, min_improvement: 0.5 }]\n';
    const result = gate(policy, keep(candidate), keep(baseline));
    expect(result.tradeoffs[0].applied).toBe(false);
    expect(result.tradeoffs[0].reasons[0]).toBe(
      'accuracy (tiny): 3 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
    );
    expect(result.checks[0].status).toBe('fail');
  });

  it('the minimum counts the records a group metric rests on, and the power floor uses them', () => {
    const withGroup = (aae: number, wrong: (i: number) => boolean): RunInput => ({
      kind: 'records',
      file: 'g.jsonl',
      table: buildTable(
        Array.from(
          { length: 1000 },
          (_, i) =>
            ({ scenario: 's', id: String(i), correct: wrong(i) ? 0 : 1, groups: { dialect: i < aae ? 'aae' : 'sae' } }) as EvalRecord,
        ),
      ),
    });
    const three = gate(
      'checks:\n  - metric: group_accuracy:dialect=aae\n    max_regression: 0\n',
      withGroup(3, (i) => i < 3),
      withGroup(3, () => false),
    );
    expect(three.checks[0].status).toBe('error');
    expect(three.checks[0].reasons[0]).toBe(
      'regression not checked: 3 records of the metric on the 1000 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
    );
    // 30 records, identical runs: the floor sqrt(0.05 x 0.95 / 30) = 0.040 cannot see 0.05.
    const same = withGroup(30, (i) => i % 5 === 0);
    const thirty = gate('checks:\n  - metric: group_accuracy:dialect=aae\n    max_regression: 0\n    detect: 0.05\n', same, same).checks[0];
    expect(thirty.power!.mde!).toBeCloseTo(
      Math.max(0, 1.6448536269514715 * Math.sqrt(0.0475 / 30)) + 0.8416212335729144 * Math.sqrt(0.0475 / 30),
      9,
    );
    expect(thirty).toMatchObject({ status: 'inconclusive', flags: ['underpowered'] });
  });

  it('a metric outside [0, 1] with no spread has no known power', () => {
    const records = Array.from(
      { length: 100 },
      (_, i) => ({ scenario: 's', id: String(i), correct: 1, latency_ms: 100 + i }) as EvalRecord,
    );
    const same: RunInput = { kind: 'records', file: 'l.jsonl', table: buildTable(records) };
    const check = gate('checks:\n  - metric: latency_p95_ms\n    max_regression: "10%"\n    detect: "20%"\n', same, same).checks[0];
    expect(check.power).toEqual({
      mde: null,
      detect: expect.closeTo(0.2 * 194.05, 6),
      underpowered: true,
      detectFrom: 'check',
      instancesNeeded: null,
    });
    expect(check.status).toBe('inconclusive');
  });

  it('two lenient bounds of one metric are two tests of the family', () => {
    const near = run(['s'], 100, (_, i) => i % 100 < 22);
    const result = gate(
      'settings:\n  bounds: lenient\nchecks:\n  - metric: accuracy\n    min: 0.9\n  - metric: accuracy\n    min: 0.8\n',
      near,
    );
    for (const check of result.checks) expect(check.boundTest!.pAdjusted!).toBeGreaterThanOrEqual(check.boundTest!.p);
    expect(result.checks[1].status).toBe('pass'); // 0.78 against 0.8: not crossed with confidence
  });

  it('a bound test whose valid resamples cannot reach the level errors, rather than passing', () => {
    // One instance of 100 in the group "rare": about a third of the resamples leave it out, and its
    // accuracy there is no number. 20 resamples reach 0.05 (1/21); the 13 or so valid ones cannot.
    const records = Array.from(
      { length: 100 },
      (_, i) =>
        ({ scenario: 's', id: String(i), correct: i === 0 ? 0 : 1, groups: { dialect: i === 0 ? 'rare' : 'common' } }) as EvalRecord,
    );
    const candidate: RunInput = { kind: 'records', file: 'c.jsonl', table: buildTable(records) };
    // The policy checks error_rate (a point bound, no test) so that no built-in failure-rate test needs a share of the level.
    const policy = (bounds: string) =>
      `settings:\n  bounds: ${bounds}\n  resamples: 20\n  min_group_size: 1\nchecks:\n  - metric: group_accuracy:dialect=rare\n    min: 0.5\n  - metric: error_rate\n    max: 1\n    bounds: point\n`;
    for (const bounds of ['lenient', 'strict']) {
      const check = gate(policy(bounds), candidate).checks[0];
      expect(check.boundTest!.resamples!).toBeLessThan(20);
      expect([check.status, check.reasons[0]]).toEqual([
        'error',
        `bound not checked: ${check.boundTest!.resamples} valid resamples cannot reach significance 0.05`,
      ]);
    }
  });

  it('a detect that comes out at or below the budget on this baseline errors', () => {
    const baseline = run(['s'], 400, (_, i) => i % 5 === 0);
    // 1% of 0.8 is 0.008, below the budget 0.02.
    const check = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n    detect: "1%"\n', baseline, baseline).checks[0];
    expect(check.status).toBe('error');
    expect(check.reasons[0]).toBe('detect 1% is 0.8 pts on this baseline, not above the budget 2 pts');
  });
});
