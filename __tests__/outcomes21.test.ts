import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EQUAL_GROUPS, Generator } from '../bench/population21.js';
import { runCli } from '../src/cli/index.js';
import { evaluateGate } from '../src/gate/evaluate.js';
import { defaultDetect } from '../src/gate/power.js';
import type { GateResult } from '../src/gate/types.js';
import { buildTable } from '../src/metrics/table.js';
import type { PlanRow } from '../src/pipeline/plan.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { parseGateReport } from '../src/report/json.js';
import type { RunInput } from '../src/runs/load.js';
import { Random } from '../src/stats/random.js';
import { useFakeGitHub } from './helpers/action.js';
import { runInProcess } from './helpers/action-in-process.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { record, tempDir, writeLines } from './helpers/records.js';
import { gateArgs, unwrapped } from './helpers/evalgate.js';

/*
 * Issue 21's three outcomes and budgets tested as budgets (docs/statistics.md): a regression check that
 * cannot see what it must detect (its detect, or the default) is inconclusive, never a clean pass; a
 * positive budget is tested as H0: worsening <= budget; the report and the action say the outcome.
 */

const asRun = (records: EvalRecord[]): RunInput => ({ kind: 'records', file: 'run.jsonl', table: buildTable(records) });

function gate(policyYaml: string, candidate: RunInput, baseline: RunInput): GateResult {
  const { policy } = parsePolicy(`version: 1\nname: test\n${policyYaml}`, 'policy.yml');
  return evaluateGate({ policy, candidate, baseline });
}

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** `n` instances of scenario s; right unless wrong(i). */
const answers = (n: number, wrong: (i: number) => boolean, extra: (i: number) => Partial<EvalRecord> = () => ({})) =>
  Array.from({ length: n }, (_, i) => record({ scenario: 's', id: String(i), correct: wrong(i) ? 0 : 1, ...extra(i) }));

describe('the small suite of issue 21', () => {
  it('40 instances, a true 15-point drop, budget 0.02 and no detect: never a clean pass', () => {
    const seen = { fail: 0, inconclusive: 0 };
    for (let trial = 0; trial < 40; trial++) {
      const generator = new Generator(new Random(2100 + trial), EQUAL_GROUPS);
      const instances = generator.instances(40);
      const baseline = asRun(generator.records(instances, { variants: 1 }));
      const candidate = asRun(generator.records(instances, { variants: 1, drop: 0.15 }));
      const result = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n', candidate, baseline);
      const [check] = result.checks;
      expect(['fail', 'inconclusive']).toContain(check.status);
      expect(result.outcome).not.toBe('pass');
      expect(result.verdict).not.toBe('pass');
      // The default detect, max(3 x 0.02, 0.05), is more than 40 instances can see.
      expect(check.power).toMatchObject({ detect: 0.06, detectFrom: 'default', underpowered: true });
      seen[check.status as 'fail' | 'inconclusive']++;
    }
    // Both happen: the drop is caught in some trials, and the others say they could not tell.
    expect(seen.fail).toBeGreaterThan(0);
    expect(seen.inconclusive).toBeGreaterThan(0);
  });
});

describe('budgets tested as budgets', () => {
  it('does not block a candidate at its budget: p_b against the binomial count of a hand-worked case', () => {
    // 400 instances; the candidate loses 9 right answers: a worsening of 0.0225 against a budget of 0.02
    // (8 losses). Each resample draws the 9 losers Binomial(400, 9/400) times; it is within the budget
    // when it draws at most 8: p_b = P(X <= 8), about 0.46. Today's p(worse > 0) is P(X = 0), about 1e-4.
    const baseline = asRun(answers(400, (i) => i % 5 === 0));
    const candidate = asRun(answers(400, (i) => i % 5 === 0 || (i % 5 === 1 && i < 45)));
    const result = gate('checks:\n  - metric: accuracy\n    max_regression: 0.02\n    detect: 0.2\n', candidate, baseline);
    const [check] = result.checks;
    expect(check.comparison!.worsening).toBeCloseTo(0.0225, 12);
    let within = 0;
    let term = (1 - 9 / 400) ** 400; // P(X = 0)
    for (let k = 0; k <= 8; k++) {
      within += term;
      term *= ((400 - k) / (k + 1)) * (9 / 400 / (1 - 9 / 400));
    }
    // 2,000 resamples: the bootstrap's count is within 3 standard errors (0.011 each) of the exact share.
    expect(Math.abs(check.comparison!.pOverBudget! - within)).toBeLessThan(0.035);
    expect(check.comparison!.pWorse!).toBeLessThan(0.002); // today's test would block it
    expect(check.status).toBe('pass');
    expect(check.reasons).toEqual([
      expect.stringMatching(/^worse by 2\.25 pts, over the budget, but not significantly over it \(p = 0\.4/),
    ]);
  });

  it('counts each resample against the budget on its own baseline: a hand-worked count', () => {
    // The candidate is 25% slower on every instance, so on every resample its worsening is exactly 25% of
    // that resample's baseline: a budget of 26% holds on all B resamples, p_b = (B + 1) / (B + 1) = 1; a
    // budget of 24% on none, p_b = (0 + 1) / (B + 1).
    const baseline = asRun(
      answers(
        200,
        () => false,
        (i) => ({ latency_ms: 100 + 4 * i }),
      ),
    );
    const candidate = asRun(
      answers(
        200,
        () => false,
        (i) => ({ latency_ms: 1.25 * (100 + 4 * i) }),
      ),
    );
    const policy = (budget: string) => `settings:\n  resamples: 400\nchecks:\n  - metric: latency_p95_ms\n    max_regression: ${budget}\n`;
    const within = gate(policy('26%'), candidate, baseline).checks[0];
    expect(within.comparison!.pOverBudget).toBe(1);
    expect(within.status).not.toBe('fail');
    const over = gate(policy('24%'), candidate, baseline).checks[0];
    expect(over.comparison!.pOverBudget).toBeCloseTo(1 / 401, 15);
    expect(over.status).toBe('fail');
    // A number is the same on every resample: 25% of the point baseline is crossed by some resamples only.
    const fixed = 0.25 * over.comparison!.baseline;
    const number = gate(policy(String(fixed)), candidate, baseline).checks[0];
    expect(number.comparison!.pOverBudget!).toBeGreaterThan(1 / 401);
    expect(number.comparison!.pOverBudget!).toBeLessThan(1);
  });

  it('leaves a budget of 0 to pWorse, as before', () => {
    const baseline = asRun(answers(400, (i) => i % 5 === 0));
    const candidate = asRun(answers(400, (i) => i % 5 === 0 || i % 50 === 1));
    const [check] = gate('checks:\n  - metric: accuracy\n    max_regression: 0\n', candidate, baseline).checks;
    expect(check.comparison!.pOverBudget).toBeUndefined();
    expect(check.comparison!.pWorseAdjusted).toBe(check.comparison!.pWorse);
    expect(check.status).toBe('fail');
  });
});

describe('the default detect', () => {
  it('is max(3 b, 0.05) on [0, 1] metrics, 3 x a relative budget, 10% of the baseline for budget 0 elsewhere', () => {
    expect(defaultDetect('accuracy', 0.01)).toBe(0.05);
    expect(defaultDetect('accuracy', 0.02)).toBeCloseTo(0.06, 15);
    expect(defaultDetect('accuracy', 0)).toBe(0.05);
    expect(defaultDetect('accuracy', '5%')).toBe('15%');
    expect(defaultDetect('latency_p95_ms', '5%')).toBe('15%');
    expect(defaultDetect('latency_p95_ms', 0)).toBe('10%');
    expect(defaultDetect('latency_p95_ms', '0%')).toBe('10%');
    expect(defaultDetect('latency_p95_ms', 20)).toBe(60);
  });

  it('applies on the budget in effect, in the metric unit of this baseline', () => {
    const baseline = asRun(
      answers(
        300,
        () => false,
        (i) => ({ latency_ms: 100 + i }),
      ),
    );
    const candidate = asRun(
      answers(
        300,
        () => false,
        (i) => ({ latency_ms: 100 + i + (i % 7) }),
      ),
    );
    const [check] = gate('checks:\n  - metric: latency_p95_ms\n    max_regression: 0\n', candidate, baseline).checks;
    expect(check.power).toMatchObject({ detect: expect.closeTo(0.1 * check.comparison!.baseline, 9), detectFrom: 'default' });
  });
});

describe('the outcome, settings.inconclusive and the deprecated settings.power', () => {
  // 60 instances of an unchanged model: nothing fails, and nothing so small can see 0.05.
  const baseline = writeLines(
    'outcomes-baseline.jsonl',
    answers(60, (i) => i % 5 === 0),
  );
  const candidate = writeLines(
    'outcomes-candidate.jsonl',
    answers(60, (i) => i % 5 === 1),
  );
  const policyFile = (settings: string) => {
    const path = join(tempDir(), 'p.yml');
    writeFileSync(
      path,
      `version: 1\nname: p\nsettings:\n  resamples: 400\n${settings}checks:\n  - metric: accuracy\n    max_regression: 0.01\n`,
    );
    return path;
  };
  const gateCli = (policy: string, dir: string) =>
    cli(...gateArgs(policy, candidate, baseline, { json: join(dir, 'r.json'), markdown: join(dir, 'r.md') }));

  it('an inconclusive gate warns (exit 0), its outcome inconclusive; the headline says how many instances would settle it, as plan does', async () => {
    const dir = tempDir();
    const policy = policyFile('');
    const { code, stdout } = await gateCli(policy, dir);
    expect(code).toBe(0);
    const report = parseGateReport(readFileSync(join(dir, 'r.json'), 'utf8'), 'r.json');
    expect(report).toMatchObject({ verdict: 'warn', outcome: 'inconclusive' });
    const needed = report.checks[0].power!.instancesNeeded!;
    expect(needed).toBeGreaterThan(60);
    // evalgate plan on the same pair sizes the suite with the same numbers.
    let planned = '';
    await runCli(['plan', '--policy', policy, '--baseline', baseline, '--candidate', candidate, '--json'], {
      stdout: (text) => (planned += text),
      stderr: () => undefined,
    });
    const [row] = (JSON.parse(planned) as { rows: PlanRow[] }).rows;
    expect(row).toMatchObject({ needed, mde: report.checks[0].power!.mde, detect: 0.05, detectFrom: 'default' });
    expect(stdout).toMatch(
      /^evalgate: WARN \(1 inconclusive\) · outcome inconclusive · policy p\n\n {2}inconclusive accuracy \(overall\) is inconclusive: can detect/,
    );
    expect(unwrapped(stdout)).toContain(`but must detect 5 pts (the default detect): about ${needed} shared instances would settle it`);
    const markdown = readFileSync(join(dir, 'r.md'), 'utf8');
    expect(markdown).toMatch(
      /^## ⚠️ evalgate: warn \(1 inconclusive\) · outcome inconclusive · policy p\n\n### What blocks, warns or is inconclusive\n\n- ❔ \*\*accuracy\*\* \(overall\) is inconclusive: can detect a worsening of \d+(\.\d+)? pts at 80% power but must detect 5 pts \(the default detect\): /,
    );
    expect(markdown).toContain(`: about ${needed} shared instances would settle it (evalgate plan sizes the suite)\n`);
  });

  it('fails the verdict (exit 1) under settings.inconclusive: block, and a forged outcome is refused', async () => {
    const dir = tempDir();
    const { code } = await gateCli(policyFile('  inconclusive: block\n'), dir);
    expect(code).toBe(1);
    const text = readFileSync(join(dir, 'r.json'), 'utf8');
    expect(parseGateReport(text, 'r.json')).toMatchObject({ verdict: 'fail', outcome: 'inconclusive' });
    const forged = JSON.parse(text);
    forged.outcome = 'pass';
    expect(() => parseGateReport(JSON.stringify(forged), 'f.json')).toThrow(/the outcome "pass" does not follow from the checks/);
  });

  it('still reads settings.power, with a warning at its file and line that says how to migrate', async () => {
    const dir = tempDir();
    const policy = policyFile('  power: block\n');
    const { code, stderr } = await gateCli(policy, dir);
    expect(code).toBe(1); // read as inconclusive: block
    expect(stderr).toBe(
      `warning: ${policy}:5 settings.power is deprecated: write settings.inconclusive: warn | block instead; read as inconclusive: block\n`,
    );
    const validated = await cli('validate', policy);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toContain(`${policy}:5 settings.power is deprecated`);
    // Without the deprecated key validate says nothing of power (its advice on 400 resamples stands apart).
    expect((await cli('validate', policyFile('  inconclusive: warn\n'))).stderr).not.toContain('deprecated');
  });
});

describe('the action', () => {
  let github: FakeGitHub;
  useFakeGitHub((server) => (github = server), { resetEach: false });

  /** A checkout with the policy and both runs' records. */
  function checkout(settings: string): string {
    const folder = tempDir();
    writeFileSync(
      join(folder, 'p.yml'),
      `version: 1\nname: p\nsettings:\n  resamples: 400\n${settings}checks:\n  - metric: accuracy\n    max_regression: 0.01\n`,
    );
    const lines = (records: EvalRecord[]) => records.map((entry) => JSON.stringify(entry)).join('\n') + '\n';
    writeFileSync(join(folder, 'baseline.jsonl'), lines(answers(60, (i) => i % 5 === 0)));
    writeFileSync(join(folder, 'candidate.jsonl'), lines(answers(60, (i) => i % 5 === 1)));
    return folder;
  }
  const inputs = { policy: 'p.yml', candidate: 'candidate.jsonl', baseline: 'baseline.jsonl', 'policy-source': 'head', comment: 'false' };

  it('sets the output outcome beside verdict, and the summary says what was inconclusive', async () => {
    const result = await runInProcess(github, { inputs, cwd: checkout('') });
    expect(result.code).toBe(0);
    expect(result.output('verdict')).toBe('warn');
    expect(result.output('outcome')).toBe('inconclusive');
    expect(JSON.parse(readFileSync(result.output('report')!, 'utf8'))).toMatchObject({ verdict: 'warn', outcome: 'inconclusive' });
    expect(result.summary).toMatch(/- ❔ \*\*accuracy\*\* \(overall\) is inconclusive: .*about \d+ shared instances would settle it/);
  });

  it('fails the step under inconclusive: block, and warns of the deprecated settings.power', async () => {
    const blocked = await runInProcess(github, { inputs, cwd: checkout('  inconclusive: block\n') });
    expect(blocked.code).toBe(1);
    expect(blocked.output('verdict')).toBe('fail');
    expect(blocked.output('outcome')).toBe('inconclusive');
    const deprecated = await runInProcess(github, { inputs, cwd: checkout('  power: warn\n') });
    expect(deprecated.code).toBe(0);
    expect(deprecated.log).toContain('warning: p.yml:5 settings.power is deprecated: write settings.inconclusive: warn | block instead');
  });

  it('says error when the gate could not judge a blocking check', async () => {
    const folder = checkout('');
    writeFileSync(join(folder, 'p.yml'), 'version: 1\nname: p\nchecks:\n  - metric: latency_p95_ms\n    max: 1000\n');
    const result = await runInProcess(github, { inputs, cwd: folder });
    expect(result.code).toBe(1);
    expect(result.output('verdict')).toBe('fail');
    expect(result.output('outcome')).toBe('error');
  });
});
