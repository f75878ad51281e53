import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { minimumDetectableWorsening } from '../src/gate/power.js';
import type { PlanRow } from '../src/pipeline/plan.js';
import { record, tempDir, writeLines } from './helpers/records.js';

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
    expect(row.mde).toBeCloseTo(minimumDetectableWorsening(row.spread, 0.01, 0.05), 12);
    // n' is the fewest instances whose spread (shrinking as 1/sqrt(n)) sees 0.04 at 80% power.
    const mdeAt = (n: number) => minimumDetectableWorsening(row.spread * Math.sqrt(400 / n), 0.01, 0.05);
    expect(row.needed).not.toBeNull();
    expect(mdeAt(row.needed!)).toBeLessThanOrEqual(0.04 + 1e-12);
    expect(mdeAt(row.needed! - 1)).toBeGreaterThan(0.04);
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
