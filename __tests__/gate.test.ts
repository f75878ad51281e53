import { describe, expect, it } from '@jest/globals';
import { computeMetrics } from '../src/metrics/compute.js';
import { buildTable } from '../src/metrics/table.js';
import { evaluateGate } from '../src/gate/evaluate.js';
import type { GateResult } from '../src/gate/types.js';
import { countOutcomes, decideVerdict } from '../src/gate/verdict.js';
import type { RunInput } from '../src/runs/load.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';

/** n instances of scenario "s"; instance i is right unless wrong(i); every record gets `extra`. */
function run(n: number, wrong: (i: number) => boolean, extra: (i: number) => Partial<EvalRecord> = () => ({})): RunInput {
  const records = Array.from(
    { length: n },
    (_, i) => ({ scenario: 's', id: String(i), correct: wrong(i) ? 0 : 1, ...extra(i) }) as EvalRecord,
  );
  return { kind: 'records', file: 'run.jsonl', table: buildTable(records) };
}

function gate(policyYaml: string, candidate: RunInput, baseline?: RunInput): GateResult {
  const { policy } = parsePolicy(`version: 1\nname: test\nsettings:\n  resamples: 400\n${policyYaml}`, 'policy.yml');
  return evaluateGate({ policy, candidate, baseline });
}

const statuses = (result: GateResult) => result.checks.map((check) => check.status);

// Baseline: 80% right (every 5th wrong). Candidate: also wrong on 3 in every 100 (-3 points, paired).
const baseline = run(400, (i) => i % 5 === 0);
const worse = run(400, (i) => i % 5 === 0 || i % 100 === 1 || i % 100 === 2 || i % 100 === 3);

describe('absolute bounds', () => {
  it('hold on the candidate, with or without a baseline', () => {
    const result = gate('checks:\n  - metric: accuracy\n    min: 0.85\n  - metric: error_rate\n    max: 0.01\n', baseline);
    expect(statuses(result)).toEqual(['fail', 'pass']);
    expect(result.checks[0].reasons).toEqual(['below the minimum 85%']);
    expect(result.verdict).toBe('fail');
    expect(result.hasBaseline).toBe(false);
  });
});

describe('regression budgets', () => {
  it('fail a real regression over the budget, compared on shared instances', () => {
    // -5 points: 20 losses, where the budget allows 8; a resample has at most 8 with probability about 0.002.
    const muchWorse = run(400, (i) => i % 5 === 0 || (i % 100 >= 1 && i % 100 <= 4) || i % 100 === 6);
    const result = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n', muchWorse, baseline);
    const [check] = result.checks;
    expect(check.status).toBe('fail');
    expect(check.comparison?.method).toBe('paired');
    expect(check.comparison?.shared).toBe(400);
    expect(check.comparison?.change).toBeCloseTo(0.75 - 0.8, 12);
    expect(check.comparison?.pWorse).toBeLessThan(0.01);
    expect(check.comparison?.pOverBudget).toBeLessThan(0.01);
    expect(result.verdict).toBe('fail');
  });

  it('pass a regression within the budget', () => {
    // The second: the built-in failure-rate check (no failed call in either run).
    expect(statuses(gate('checks:\n  - metric: accuracy\n    max_regression: 0.04\n', worse, baseline))).toEqual(['pass', 'pass']);
  });

  it('do not block on noise: over the budget but not statistically real', () => {
    // 20 instances; the candidate loses one and gains none: -5 points, p well above 0.05.
    const small = run(20, (i) => i % 5 === 0);
    const noisy = run(20, (i) => i % 5 === 0 || i === 1);
    const result = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n', noisy, small);
    // Not blocked, and not a clean pass either: 20 instances cannot see the default detect 0.06.
    expect(result.checks[0].status).toBe('inconclusive');
    expect(result.checks[0].reasons[0]).toMatch(/not significantly over it \(p = /);
    // With significance off, point estimates decide.
    const strict = gate('  significance: off\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n', noisy, small);
    expect(strict.checks[0].status).toBe('fail');
  });

  it('read "N%" relative to the baseline, in the metric\'s own direction', () => {
    const slow = run(
      300,
      () => false,
      (i) => ({ latency_ms: 100 + i }),
    );
    const slower = run(
      300,
      () => false,
      (i) => ({ latency_ms: 1.2 * (100 + i) }),
    );
    const result = gate('checks:\n  - metric: latency_p50_ms\n    max_regression: 10%\n', slower, slow);
    expect(result.checks[0].budget?.value).toBeCloseTo(0.1 * 249.5, 9);
    expect(result.checks[0].status).toBe('fail');
    // Faster is an improvement, never a regression.
    expect(gate('checks:\n  - metric: latency_p50_ms\n    max_regression: 10%\n', slow, slower).checks[0].status).toBe('pass');
  });

  it('are skipped without a baseline, which the result says', () => {
    const result = gate('checks:\n  - metric: accuracy\n    min: 0.5\n    max_regression: 0.01\n', worse);
    expect(result.checks[0].status).toBe('skipped');
    expect(result.checks[0].reasons).toEqual(['regression not checked: no baseline']);
    expect(result.verdict).toBe('pass');
    expect(result.hasBaseline).toBe(false);
  });
});

describe('severities and missing metrics', () => {
  it('turn a failed warn check into a warning and fail closed on a missing metric', () => {
    const result = gate(
      'checks:\n  - metric: accuracy\n    min: 0.9\n    severity: warn\n  - metric: ece\n    max: 0.1\n  - metric: brier\n    max: 0.1\n    severity: off\n',
      baseline,
    );
    expect(statuses(result)).toEqual(['warn', 'error', 'off']);
    expect(result.checks[1].reasons).toEqual(['the candidate has no ece for overall']);
    expect(result.verdict).toBe('fail');
    expect(gate('checks:\n  - metric: accuracy\n    min: 0.9\n    severity: warn\n', baseline).verdict).toBe('warn');
  });

  it('scopes a check to a scenario', () => {
    const result = gate(
      'checks:\n  - metric: accuracy\n    scenario: s\n    min: 0.5\n  - metric: accuracy\n    scenario: nope\n    min: 0.5\n',
      baseline,
    );
    expect(statuses(result)).toEqual(['pass', 'error']);
    expect(result.checks[1].scope).toEqual({ kind: 'scenario', scenario: 'nope' });
  });
});

describe('trade-offs', () => {
  // The baseline is overconfident (0.99 on everything); the candidate is 3 points less accurate but calibrated.
  const overconfident = run(
    400,
    (i) => i % 5 === 0,
    () => ({ confidence: 0.99 }),
  );
  const calibrated = run(
    400,
    (i) => i % 5 === 0 || i % 100 === 1 || i % 100 === 2 || i % 100 === 3,
    () => ({ confidence: 0.77 }),
  );
  const policy = (needed: number) =>
    `checks:\n  - metric: accuracy\n    min: 0.7\n    max_regression: 0\n  - metric: ece\n    max: 0.3\ntradeoffs:\n  - name: calibration buys accuracy\n    allow: [{ metric: accuracy, max_regression: 0.04 }]\n    when: [{ metric: ece, min_improvement: ${needed} }]\n`;

  it('relax a regression budget when every improvement is large enough and real', () => {
    const result = gate(policy(0.02), calibrated, overconfident);
    expect(result.tradeoffs).toEqual([
      {
        name: 'calibration buys accuracy',
        applied: true,
        reasons: [expect.stringMatching(/^ece \(overall\) improved by 19(\.\d+)? pts \(needs an improvement of 2 pts, p = /)],
      },
    ]);
    expect(result.checks[0].budget).toEqual({ value: 0.04, from: 'trade-off "calibration buys accuracy"' });
    expect(result.verdict).toBe('pass');
  });

  it('do not apply when an improvement falls short, and never relax absolute bounds', () => {
    const result = gate(policy(0.5), calibrated, overconfident);
    expect(result.tradeoffs[0].applied).toBe(false);
    expect(result.tradeoffs[0].reasons[0]).toMatch(/: not enough$/);
    expect(result.checks[0].status).toBe('fail');
    const bounded = gate(policy(0.02).replace('min: 0.7', 'min: 0.78'), calibrated, overconfident);
    expect(bounded.tradeoffs[0].applied).toBe(true);
    expect(bounded.checks[0].status).toBe('fail');
    expect(bounded.checks[0].reasons).toEqual(['below the minimum 78%']);
  });
});

describe('trade-offs on little evidence', () => {
  it('do not apply when an improvement is large enough but not statistically real', () => {
    // 12 instances: the candidate is calibrated on 3 more of them; ece falls a lot, on noise.
    const before = run(
      12,
      (i) => i % 3 === 0,
      (i) => ({ confidence: i < 6 ? 0.9 : 0.6 }),
    );
    const after = run(
      12,
      (i) => i % 3 === 0,
      (i) => ({ confidence: i < 3 ? 0.9 : 0.65 }),
    );
    const result = gate(
      '  min_shared_instances: 10\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\ntradeoffs:\n  - name: t\n    allow: [{ metric: accuracy, max_regression: 0.1 }]\n    when: [{ metric: ece, min_improvement: 0.01 }]\n',
      after,
      before,
    );
    expect(result.tradeoffs[0].applied).toBe(false);
    expect(result.tradeoffs[0].reasons[0]).toMatch(/: not statistically real$/);
    // Under the default minimum, 12 shared instances are too few to weigh at all.
    const defaults = gate(
      'checks:\n  - metric: accuracy\n    max_regression: 0.02\ntradeoffs:\n  - name: t\n    allow: [{ metric: accuracy, max_regression: 0.1 }]\n    when: [{ metric: ece, min_improvement: 0.01 }]\n',
      after,
      before,
    );
    expect(defaults.tradeoffs[0].reasons[0]).toMatch(/12 shared instances, fewer than the 20/);
  });
});

describe('summary inputs', () => {
  it('compare point estimates of metrics reports and say so', () => {
    const summary = (input: RunInput): RunInput => ({
      kind: 'metrics',
      file: 'metrics.json',
      report: computeMetrics((input as Extract<RunInput, { kind: 'records' }>).table, { resamples: 0, seed: 1, minGroupSize: 10 }),
    });
    const result = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n', summary(worse), summary(baseline));
    expect(result.checks[0].comparison).toEqual({
      method: 'summary',
      candidate: 0.77,
      baseline: 0.8,
      change: 0.77 - 0.8,
      worsening: 0.8 - 0.77,
    });
    expect(result.checks[0].status).toBe('fail');
    expect(result.coverage).toBeUndefined(); // summaries name no instances
  });
});

describe('coverage of the baseline', () => {
  const check = 'checks:\n  - metric: accuracy\n    max_regression: 0.05\n';
  // The candidate answered the first 390 of the baseline's 400 instances only.
  const partial: RunInput = {
    kind: 'records',
    file: 'partial.jsonl',
    table: buildTable(Array.from({ length: 390 }, (_, i) => ({ scenario: 's', id: String(i), correct: i % 5 === 0 ? 0 : 1 }))),
  };

  it('passes quietly when the candidate has every instance of the baseline', () => {
    const result = gate(check, worse, baseline);
    expect(result.coverage).toMatchObject({ status: 'pass', baselineInstances: 400, covered: 400, missing: [] });
    expect(result.verdict).toBe('pass');
  });

  it('warns by default when instances are missing, naming some, though every check passes', () => {
    const result = gate(check, partial, baseline);
    expect(statuses(result)).toEqual(['pass', 'pass']); // the policy's check and the built-in failure-rate check
    expect(result.coverage).toMatchObject({
      status: 'warn',
      baselineInstances: 400,
      covered: 390,
      min: 1,
      missing: ['s/390', 's/391', 's/392', 's/393', 's/394'],
    });
    expect(result.coverage?.reason).toBe(
      "the candidate answered 390 of the baseline's 400 instances (97.5%, the policy asks at least 100%); missing or failed: s/390, s/391, s/392, s/393, s/394 and 5 more",
    );
    expect(result.verdict).toBe('warn');
  });

  it('fails with severity block, passes above a lower minimum, and can be turned off', () => {
    expect(gate(`  coverage: { severity: block }\n${check}`, partial, baseline).verdict).toBe('fail');
    const lower = gate(`  coverage: { min: 0.975, severity: block }\n${check}`, partial, baseline);
    expect([lower.coverage?.status, lower.verdict]).toEqual(['pass', 'pass']);
    expect(gate(`  coverage: { min: 0.98 }\n${check}`, partial, baseline).coverage?.status).toBe('warn');
    const off = gate(`  coverage: { severity: off }\n${check}`, partial, baseline);
    expect([off.coverage, off.verdict]).toEqual([undefined, 'pass']);
  });

  it('counts failed calls as unanswered: most calls failing is never a silent pass', () => {
    // 190 of 200 calls failed; accuracy on the 10 answered ones is perfect.
    const failing = run(
      200,
      () => false,
      (i) => (i < 190 ? { correct: undefined, error: 'HTTP 500' } : {}),
    );
    const result = gate(
      `  coverage: { severity: block }\n${check}`,
      failing,
      run(200, (i) => i % 5 === 0),
    );
    expect(result.coverage).toMatchObject({ status: 'fail', covered: 10, baselineInstances: 200 });
    expect(result.verdict).toBe('fail');
    // Perturbed variants do not stand in for the original.
    const onlyVariants = run(
      200,
      () => false,
      () => ({ perturbation: { name: 'typos', kind: 'robustness' } }),
    );
    expect(
      gate(
        check,
        onlyVariants,
        run(200, () => false),
      ).coverage,
    ).toMatchObject({ status: 'warn', covered: 0 });
  });

  it('makes a regression check an error when the candidate shares no instance with the baseline', () => {
    const renamed: RunInput = {
      kind: 'records',
      file: 'renamed.jsonl',
      table: buildTable(Array.from({ length: 400 }, (_, i) => ({ scenario: 's', id: `other-${i}`, correct: i % 2 }))),
    };
    const result = gate(check, renamed, baseline);
    expect(result.checks[0]).toMatchObject({
      status: 'error',
      reasons: ['regression not checked: the candidate shares no instance (scenario and id) with the baseline'],
    });
    expect(result.verdict).toBe('fail');
    // The same within one scenario whose ids changed, while another scenario is shared.
    const twoScenarios = (prefix: string, right: (i: number) => boolean): RunInput => ({
      kind: 'records',
      file: 'two.jsonl',
      table: buildTable([
        ...Array.from({ length: 100 }, (_, i) => ({ scenario: 's1', id: String(i), correct: 1 })),
        ...Array.from({ length: 100 }, (_, i) => ({ scenario: 's2', id: `${prefix}${i}`, correct: right(i) ? 1 : 0 })),
      ]),
    });
    const scoped = gate(
      '  coverage: { severity: off }\nchecks:\n  - metric: accuracy\n    scenario: s2\n    max_regression: 0.02\n',
      twoScenarios('new-', (i) => i % 2 === 0),
      twoScenarios('', (i) => i % 10 !== 0),
    );
    expect([scoped.checks[0].status, scoped.verdict]).toEqual(['error', 'fail']);
    // A scenario the baseline does not have yet cannot tell: inconclusive (a warning), never a pass.
    const added = gate(
      'checks:\n  - metric: accuracy\n    scenario: s2\n    max_regression: 0.02\n',
      twoScenarios('', () => true),
      run(100, () => false),
    );
    expect(added.checks[0].status).toBe('inconclusive');
    // The two runs share no instance at all, so the built-in failure-rate check (pooled) cannot compare: it errors.
    expect([added.checks[1].builtin, added.checks[1].status, added.verdict]).toEqual([true, 'error', 'fail']);
  });

  it('compares the minimum share in whole instances (7 of 100 is 7%)', () => {
    const seven: RunInput = {
      kind: 'records',
      file: 'seven.jsonl',
      table: buildTable(Array.from({ length: 7 }, (_, i) => ({ scenario: 's', id: String(i), correct: 1 }))),
    };
    const hundred = run(100, () => false);
    expect(gate(`  coverage: { min: 0.07, severity: block }\n${check}`, seven, hundred).coverage?.status).toBe('pass');
    expect(gate(`  coverage: { min: 0.08, severity: block }\n${check}`, seven, hundred).coverage?.status).toBe('fail');
  });

  it('is not checked without a baseline', () => {
    expect(gate(check, partial).coverage).toBeUndefined();
  });
});

describe('adding up outcomes', () => {
  it('counts what blocks, what warns and what failed, coverage as one check', () => {
    const checks = [
      { severity: 'block', status: 'fail' as const },
      { severity: 'block', status: 'error' as const },
      { severity: 'warn', status: 'warn' as const },
      { severity: 'warn', status: 'error' as const }, // a warn check that errored warns
      { severity: 'block', status: 'pass' as const },
      { severity: 'off', status: 'off' as const },
    ];
    expect(countOutcomes(checks)).toEqual({ blocking: 2, warnings: 2, failed: 3, inconclusive: 0, notRun: 2, judged: 5 });
    expect(countOutcomes(checks, 'fail')).toEqual({ blocking: 3, warnings: 2, failed: 4, inconclusive: 0, notRun: 2, judged: 5 });
    expect(decideVerdict(checks.slice(2))).toBe('warn');
    expect(decideVerdict(checks.slice(4))).toBe('pass');
    expect(decideVerdict(checks.slice(4), 'warn')).toBe('warn');
    expect(decideVerdict(checks.slice(4), 'fail')).toBe('fail');
  });

  it('warns on an inconclusive check, and counts it as not run when it has no comparison', () => {
    const compared = { method: 'paired' };
    const checks = [
      { severity: 'block', status: 'pass' as const },
      { severity: 'block', status: 'inconclusive' as const, comparison: null }, // no baseline, or a baseline without the metric
      { severity: 'block', status: 'inconclusive' as const, comparison: compared }, // looked, could not tell: it ran
      { severity: 'block', status: 'skipped' as const },
    ];
    // Each counted once: the one that compared as inconclusive, the one that could not among the checks that did not run.
    expect(countOutcomes(checks)).toEqual({ blocking: 0, warnings: 0, failed: 0, inconclusive: 1, notRun: 2, judged: 4 });
    expect(decideVerdict(checks.slice(0, 2))).toBe('warn');
    expect(decideVerdict(checks.slice(0, 3))).toBe('warn');
    expect(decideVerdict(checks.slice(0, 2), undefined, 'block')).toBe('fail');
    expect(decideVerdict([checks[0], checks[3]])).toBe('pass');
  });
});
