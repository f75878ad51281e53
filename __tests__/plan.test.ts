import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { minimumDetectableWorsening, standardErrorToDetect } from '../src/gate/power.js';
import { computeMetrics } from '../src/metrics/compute.js';
import { recordValue, sampledValues } from '../src/metrics/record-values.js';
import { scopeNamed } from '../src/metrics/scope.js';
import type { PlanRow } from '../src/pipeline/plan.js';
import type { EvalRecord } from '../src/records/types.js';
import { loadRun } from '../src/runs/load.js';
import { Random } from '../src/stats/random.js';
import { varianceComponents } from '../src/stats/variance-components.js';
import { noisyWithinExamples, record, tempDir, writeLines } from './helpers/records.js';
import { runProcess } from './helpers/run.js';

async function plan(...argv: string[]): Promise<{ code: number; rows: PlanRow[]; problems: unknown[] }> {
  let stdout = '';
  const code = await runCli(['plan', ...argv, '--json'], { stdout: (text) => (stdout += text), stderr: () => undefined });
  return { code, ...JSON.parse(stdout) };
}

// 400 instances, 80% right: a mean of 0/1 scores has standard error sqrt(0.8 x 0.2 / 400) = 0.02.
const baseline = writeLines(
  'plan-baseline.jsonl',
  Array.from({ length: 400 }, (_, i) => record({ scenario: 's', id: String(i), correct: i % 5 === 0 ? 0 : 1 })),
);
const policy = join(tempDir(), 'plan.yml');
writeFileSync(
  policy,
  'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n    detect: 0.04\n  - metric: accuracy\n    min: 0.5\n',
);

describe('evalgate plan', () => {
  it('with a baseline alone: sqrt(2) x its standard error, the minimum detectable worsening, the instances needed', async () => {
    const { code, rows } = await plan('--policy', policy, '--baseline', baseline);
    expect(code).toBe(0);
    expect(rows).toHaveLength(1); // the bound is not a regression check
    const [row] = rows;
    expect(row).toMatchObject({
      metric: 'accuracy',
      scope: 'overall',
      budget: 0.01,
      detect: 0.04,
      spreadFrom: 'sqrt(2) x baseline',
      instances: 400,
    });
    // The bootstrap's standard error of a proportion agrees with the formula within its own noise.
    expect(Math.abs(row.spread / (Math.SQRT2 * 0.02) - 1)).toBeLessThan(0.08);
    // One test at 0.05: no call failed, so the gate does not test the built-in failure rate (below).
    expect(row.mde).toBeCloseTo(minimumDetectableWorsening(row.spread, 0.01, 0.05), 12);
    // n' is the fewest instances whose spread (shrinking as 1/sqrt(n)) sees 0.04 at 80% power with the
    // plan's margin: MDE80 <= b + 0.85 (detect - b) = 0.01 + 0.85 x 0.03.
    const mdeAt = (n: number) => minimumDetectableWorsening(row.spread * Math.sqrt(400 / n), 0.01, 0.05);
    const target = 0.01 + 0.85 * 0.03;
    expect(row.needed).not.toBeNull();
    expect(mdeAt(row.needed!)).toBeLessThanOrEqual(target + 1e-12);
    expect(mdeAt(row.needed! - 1)).toBeGreaterThan(target);
  });

  it('counts the built-in failure-rate test in the family as the gate does: when a run failed some call', async () => {
    const failing = writeLines('plan-baseline-failing.jsonl', [
      ...Array.from({ length: 399 }, (_, i) => record({ scenario: 's', id: String(i), correct: i % 5 === 0 ? 0 : 1 })),
      { scenario: 's', id: '399', error: 'timed out' } as EvalRecord,
    ]);
    const [row] = (await plan('--policy', policy, '--baseline', failing)).rows;
    // Two tests share 0.05 under Holm: the check's and the built-in failure-rate test (the policy has no error_rate check).
    expect(row.mde).toBeCloseTo(minimumDetectableWorsening(row.spread, 0.01, 0.05 / 2), 12);
    const [paired] = (await plan('--policy', policy, '--baseline', baseline, '--candidate', failing)).rows;
    expect(paired.mde).toBeCloseTo(minimumDetectableWorsening(paired.spread, 0.01, 0.05 / 2), 12);
  });

  it('with a candidate: the paired spread, smaller for runs that agree on most instances', async () => {
    const candidate = writeLines(
      'plan-candidate.jsonl',
      Array.from({ length: 400 }, (_, i) => record({ scenario: 's', id: String(i), correct: i % 5 === 0 || i % 40 === 1 ? 0 : 1 })),
    );
    const alone = (await plan('--policy', policy, '--baseline', baseline)).rows[0];
    const paired = (await plan('--policy', policy, '--baseline', baseline, '--candidate', candidate)).rows[0];
    expect(paired.spreadFrom).toBe('paired');
    expect(paired.spread).toBeLessThan(alone.spread / 2);
    expect(paired.needed!).toBeLessThan(alone.needed!);
  });

  it('never asks for fewer instances than a paired comparison needs', async () => {
    const easy = join(tempDir(), 'easy.yml');
    writeFileSync(easy, 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    max_regression: 0.01\n    detect: 0.9\n');
    expect((await plan('--policy', easy, '--baseline', baseline)).rows[0].needed).toBe(20);
  });

  it('prints a table that says what is enough, and exits 2 on a bad policy', async () => {
    let stdout = '';
    const code = await runCli(['plan', '--policy', policy, '--baseline', baseline], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/\| accuracy \| overall \|\s+0\.01 \|\s+0\.04 \|/);
    expect(stdout).toMatch(/needs \d+ instances \(\d+ more\)/);
    expect(stdout).toContain("sqrt(2) x the baseline's standard error");
    expect(await runCli(['plan', '--policy', baseline, '--baseline', baseline], { stdout: () => undefined, stderr: () => undefined })).toBe(
      2,
    );
  });
});

describe('evalgate plan and evalgate gate', () => {
  /** The MDE80 of every regression check, by metric and scope: `plan --json`'s rows, and the gate's checks[].power. */
  async function mdes(policyPath: string, candidate: string, base: string) {
    const planned = await plan('--policy', policyPath, '--baseline', base, '--candidate', candidate);
    expect(planned.code).toBe(0);
    const report = join(tempDir(), 'report.json');
    const quiet = { stdout: () => undefined, stderr: () => undefined };
    await runCli(['gate', '--policy', policyPath, '--candidate', candidate, '--baseline', base, '--json', report], quiet);
    const gated = JSON.parse(readFileSync(report, 'utf8')) as {
      checks: Array<{ metric: string; scenario?: string; power?: { mde: number | null } | null }>;
    };
    return {
      plan: Object.fromEntries(planned.rows.map((row) => [`${row.metric} ${row.scope}`, row.mde])),
      gate: Object.fromEntries(
        gated.checks.filter((check) => check.power).map((check) => [`${check.metric} ${check.scenario ?? 'overall'}`, check.power!.mde]),
      ),
    };
  }

  it('see the same smallest detectable worsening, also where a metric has records on fewer instances than are shared', async () => {
    // Two runs that agree on every instance (no spread of their own), with a confidence on 60 of 300:
    // ece rests on 60 records, and the floor of its spread must be the one of 60 in both.
    const run = (name: string) =>
      writeLines(
        name,
        Array.from({ length: 300 }, (_, i) =>
          record({ id: String(i), correct: i % 4 === 0 ? 0 : 1, ...(i < 60 ? { confidence: 0.7 } : {}) }),
        ),
      );
    const sparse = policyFile(
      '  - metric: ece\n    max_regression: 0.01\n    detect: 0.1\n  - metric: accuracy\n    max_regression: 0.01\n',
    );
    const same = await mdes(sparse, run('candidate.jsonl'), run('baseline.jsonl'));
    expect(Object.keys(same.plan).sort()).toEqual(['accuracy overall', 'ece overall']);
    expect(same.gate).toEqual(same.plan);
    expect(same.plan['ece overall']).toBeGreaterThan(same.plan['accuracy overall']!);
  });

  it('say nothing of what runs that agree everywhere on a metric with no floor can detect (the gate: inconclusive)', async () => {
    const steady = (name: string) =>
      writeLines(
        name,
        Array.from({ length: 40 }, (_, i) => record({ id: String(i), latency_ms: 100 })),
      );
    const latency = policyFile('  - metric: latency_p95_ms\n    max_regression: "10%"\n');
    const [candidate, base] = [steady('c.jsonl'), steady('b.jsonl')];
    const same = await mdes(latency, candidate, base);
    expect(same).toEqual({ plan: { 'latency_p95_ms overall': null }, gate: { 'latency_p95_ms overall': null } });
    let stdout = '';
    await runCli(['plan', '--policy', latency, '--baseline', base, '--candidate', candidate], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
    });
    expect(stdout).toMatch(/\| latency_p95_ms \| overall \|.*\| +- \| unknown: the runs show no spread +\|/);
  });
});

/*
 * Samples per example: the split of a comparison's variance into the part between instances and the
 * noise within examples (one-way random-effects ANOVA), and the samples per example it takes to see
 * what a check must detect.
 */

async function reference<T>(key: string, cases: unknown[]): Promise<T[]> {
  const file = join(tempDir(), 'cases.json');
  writeFileSync(file, JSON.stringify({ [key]: cases }));
  const result = await runProcess('python3', ['__tests__/reference/gate_statistics_reference.py', file]);
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout)[key];
}

function policyFile(checks: string): string {
  const file = join(tempDir(), 'policy.yml');
  writeFileSync(file, `version: 1\nname: p\nchecks:\n${checks}`);
  return file;
}

/** Records of instances "0", "1", ... with the given samples' `correct` each. */
const sampled = (name: string, instances: number[][]) =>
  writeLines(
    name,
    instances.flatMap((values, id) => values.map((correct, sample) => record({ id: String(id), sample, correct }))),
  );

// The exact cases of the split are in variance-components.test.ts; here, the Python reference (a program).
describe('the split of the variance (one-way random-effects ANOVA)', () => {
  it('agrees with the Python reference on random units: several examples, unequal samples, one and two runs', async () => {
    const random = new Random(23);
    const values = (count: number) =>
      Array.from({ length: count }, () => (random.nextFloat() < 0.3 ? random.nextFloat() : random.nextBelow(2)));
    const run = (units: number) =>
      Array.from({ length: units }, () => Array.from({ length: random.nextBelow(4) }, () => values(1 + random.nextBelow(4))));
    const cases = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? [run(5 + i)] : [run(5 + i), run(5 + i)]));
    const expected = await reference<{ between: number; within: number; samples: number; share: number } | null>(
      'variance_components',
      cases,
    );
    expect(expected.filter((split) => split !== null).length).toBeGreaterThan(25);
    cases.forEach((runs, i) => {
      const split = varianceComponents(runs);
      if (expected[i] === null) return expect(split).toBeUndefined();
      for (const key of ['between', 'within', 'samples', 'share'] as const) {
        expect([i, key, Math.abs(split![key] - expected[i]![key]) < 1e-9]).toEqual([i, key, true]);
      }
    });
  });
});

describe('evalgate plan: samples per example', () => {
  const detect = (value: number) => policyFile(`  - metric: accuracy\n    max_regression: 0\n    detect: ${value}\n`);

  it('gives the hand-worked split of a paired comparison, and the samples that reach detect', async () => {
    // The paired case worked by hand in variance-components.test.ts, as records.
    const candidate = sampled('hand-candidate.jsonl', [
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    const baseline = sampled('hand-baseline.jsonl', [
      [1, 1, 1],
      [0, 1, 0],
      [0, 1, 1],
    ]);
    // Three instances are too few for the gate's paired comparison: allow them here.
    const few = (detect: number) =>
      policyFile(`  - metric: accuracy\n    max_regression: 0\n    detect: ${detect}\nsettings:\n  min_shared_instances: 3\n`);
    const [row] = (await plan('--policy', few(0.94), '--baseline', baseline, '--candidate', candidate)).rows;
    expect(row.samples).toBeCloseTo(15 / 6, 12); // 6 + 9 records, 6 examples
    expect(row.withinShare).toBeCloseTo(17 / 57, 12);
    // se(K')^2 = se^2 ((1 - f) + f K / K'), K = 42/17: K' is the fewest samples that bring it to the se detect needs.
    const at = (k: number) => row.spread * Math.sqrt(1 - 17 / 57 + ((17 / 57) * (42 / 17)) / k);
    const needed = standardErrorToDetect(0.94, 0, 0.05)!; // one test: no call failed, so no built-in failure-rate test
    expect(row.samplesNeeded).toBeGreaterThan(2);
    expect(at(row.samplesNeeded!)).toBeLessThanOrEqual(needed * (1 + 1e-12));
    expect(at(row.samplesNeeded! - 1)).toBeGreaterThan(needed);
    // Detect 0.6 needs a spread below what lies between the instances, se sqrt(1 - f): no number of samples reaches it.
    const [far] = (await plan('--policy', few(0.6), '--baseline', baseline, '--candidate', candidate)).rows;
    expect(far.spread * Math.sqrt(1 - 17 / 57)).toBeGreaterThan(standardErrorToDetect(0.6, 0, 0.05)!);
    expect(far).toMatchObject({ withinShare: row.withinShare, samplesNeeded: null });
    expect(far.samplesNote).toBe('more samples cannot reach it at this size: needs more instances');
  });

  it('says why there is no split: one sample per example, a metric that is not a mean of per-record values', async () => {
    const [once] = (await plan('--policy', policy, '--baseline', baseline)).rows;
    expect(once).toMatchObject({ samples: 1, withinShare: null, samplesNeeded: null });
    expect(once.samplesNote).toMatch(/^one sample per example/);
    const twice = sampled(
      'twice.jsonl',
      Array.from({ length: 40 }, (_, i) => [i % 2, i % 3 === 0 ? 1 : 0]),
    );
    const [paired] = (await plan('--policy', detect(0.2), '--baseline', baseline, '--candidate', twice)).rows;
    expect(paired.samplesNote).toMatch(/^the baseline has one sample per example/);
    const calibrated = writeLines(
      'calibrated.jsonl',
      Array.from({ length: 80 }, (_, i) => record({ id: String(i % 40), sample: i < 40 ? 0 : 1, correct: i % 3 ? 1 : 0, confidence: 0.7 })),
    );
    const ece = policyFile('  - metric: ece\n    max_regression: 0.01\n    detect: 0.05\n');
    const [row] = (await plan('--policy', ece, '--baseline', calibrated)).rows;
    expect(row).toMatchObject({ samples: 2, withinShare: null, samplesNeeded: null });
    expect(row.samplesNote).toBe('ece is not a mean of a per-record value: not split');
  });

  it('agrees with the Python reference on generated records: every split metric, overall and per scenario, paired and alone', async () => {
    const [first, second] = [join(tempDir(), 'a.jsonl'), join(tempDir(), 'b.jsonl')];
    for (const [seed, file] of [
      ['42', first],
      ['7', second],
    ]) {
      const result = await runProcess('python3', ['__tests__/reference/generate_records.py', seed, '4000', file]);
      expect(result.code).toBe(0);
    }
    const metrics = ['accuracy', 'brier', 'error_rate', 'toxicity_rate', 'output_tokens_mean', 'group_accuracy:dialect=aae'];
    const checks = metrics.flatMap((metric) => [undefined, 'billing'].map((scenario) => ({ metric, scenario })));
    const file = policyFile(
      checks
        .map(({ metric, scenario }) => `  - metric: ${metric}\n    max_regression: 0.01\n${scenario ? `    scenario: ${scenario}\n` : ''}`)
        .join(''),
    );
    const cases = [false, true].flatMap((paired) =>
      checks.map((check) => ({ ...check, scenario: check.scenario ?? null, baseline: first, candidate: paired ? second : null })),
    );
    const expected = await reference<{ samples: number; share: number | null }>('plan_split', cases);
    const alone = (await plan('--policy', file, '--baseline', first)).rows;
    const paired = (await plan('--policy', file, '--baseline', first, '--candidate', second)).rows;
    const rows = [...alone, ...paired];
    expect(rows).toHaveLength(cases.length);
    rows.forEach((row, i) => {
      expect([row.metric, row.scope]).toEqual([cases[i].metric, cases[i].scenario ?? 'overall']);
      expect(expected[i].share).not.toBeNull();
      expect([i, Math.abs(row.samples - expected[i].samples) < 1e-12, Math.abs(row.withinShare! - expected[i].share!) < 1e-9]).toEqual([
        i,
        true,
        true,
      ]);
    });
  }, 120_000);
});

describe('the per-record values the split reads', () => {
  it('are the ones the metrics average: per example, then over examples (or over every call)', async () => {
    const file = join(tempDir(), 'records.jsonl');
    expect((await runProcess('python3', ['__tests__/reference/generate_records.py', '3', '3000', file])).code).toBe(0);
    const run = await loadRun(file);
    if (run.kind !== 'records') throw new Error('records expected');
    const report = computeMetrics(run.table, { resamples: 0, seed: 1, minGroupSize: 10 });
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const overExamples = ['accuracy', 'brier', 'group_accuracy:dialect=aae', 'group_accuracy:segment=business'];
    for (const metric of [...overExamples, 'error_rate', 'toxicity_rate', 'output_tokens_mean']) {
      for (const scenario of [undefined, 'refunds']) {
        const units = sampledValues(run.table, scopeNamed(run.table, scenario), recordValue(run.table, metric)!);
        const examples = units.flat();
        const value = overExamples.includes(metric) ? mean(examples.map(mean)) : mean(examples.flat());
        const expected = (scenario ? report.scenarios[scenario] : report.overall)[metric].value;
        expect([metric, scenario, Math.abs(value - expected) < 1e-12]).toEqual([metric, scenario, true]);
      }
    }
    // Some examples of this data set have several samples, and they are kept together.
    expect(sampledValues(run.table, scopeNamed(run.table), recordValue(run.table, 'accuracy')!).some((unit) => unit[0]?.length > 1)).toBe(
      true,
    );
    for (const metric of ['ece', 'latency_p95_ms', 'accuracy_robust', 'worst_group_accuracy:dialect', 'cost_usd_total', 'unknown']) {
      expect(recordValue(run.table, metric)).toBeUndefined();
    }
  });
});

describe('evalgate plan on a model that is noisy within examples', () => {
  // 800 instances. The baseline answers instance i right with probability p_i ~ U(0.3, 0.7) each time it
  // is asked; the candidate with q_i = p_i +- 0.25. The paired difference's variance between instances
  // is Var(q - p) (what samples cannot remove); sampling adds (p(1-p) + q(1-q)) / K per instance.
  const instances = 800;
  const { p, q, run: sampleRun } = noisyWithinExamples(instances, 3);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const differences = q.map((value, i) => value - p[i]);
  const between = mean(differences.map((d) => (d - mean(differences)) ** 2));
  const within = mean(p.map((value) => value * (1 - value))) + mean(q.map((value) => value * (1 - value)));
  const file = policyFile('  - metric: accuracy\n    max_regression: 0\n    detect: 0.04\n');

  it('recommends more samples, and that many samples shrink the spread as predicted', async () => {
    const [now] = (
      await plan('--policy', file, '--baseline', sampleRun('b2.jsonl', p, 2, 11), '--candidate', sampleRun('c2.jsonl', q, 2, 12))
    ).rows;
    expect(now.samples).toBe(2);
    // The estimated share of sampling noise is near the true one, (within / 2) / (between + within / 2) (about 0.77).
    expect(Math.abs(now.withinShare! - within / 2 / (between + within / 2))).toBeLessThan(0.06);
    expect(now.needed!).toBeGreaterThan(instances);
    const k = now.samplesNeeded!;
    expect(k).toBeGreaterThan(2);
    expect(k).toBeLessThanOrEqual(20);

    // The same instances asked k times, fresh draws: the spread measured is what the plan predicted.
    const [later] = (
      await plan('--policy', file, '--baseline', sampleRun('bk.jsonl', p, k, 21), '--candidate', sampleRun('ck.jsonl', q, k, 22))
    ).rows;
    expect(later.samples).toBe(k);
    const predicted = now.spread * Math.sqrt(1 - now.withinShare! + (now.withinShare! * 2) / k);
    expect(Math.abs(later.spread / predicted - 1)).toBeLessThan(0.1);
    // Samples shrink only the noise within examples: not the whole spread as 1/sqrt(K), and not nothing.
    expect(later.spread).toBeGreaterThan(1.15 * now.spread * Math.sqrt(2 / k));
    expect(later.spread).toBeLessThan(0.8 * now.spread);
    // At k samples the check sees what it must detect (plan sizes for 0.85 of it, so the noise of two runs
    // leaves it below); k - 1 were predicted short of the spread planned for.
    expect(later.mde).toBeLessThan(0.04);
    const short = now.spread * Math.sqrt(1 - now.withinShare! + (now.withinShare! * 2) / (k - 1));
    expect(short).toBeGreaterThan(standardErrorToDetect(0.04, 0, 0.05 / 2)!); // two tests: with the built-in failure-rate test
  });

  it('prints the samples per example in the table', async () => {
    let stdout = '';
    const code = await runCli(
      ['plan', '--policy', file, '--baseline', sampleRun('b2.jsonl', p, 2, 11), '--candidate', sampleRun('c2.jsonl', q, 2, 12)],
      { stdout: (text) => (stdout += text), stderr: () => undefined },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/\| 2 now, \d+ needed \(\d+% within\)\s+\|/);
    expect(stdout).toContain('samples per example: now, and needed');
  });
});
