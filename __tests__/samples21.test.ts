import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { SAMPLES_CANNOT_REACH } from '../src/gate/types.js';
import type { PlanRow } from '../src/pipeline/plan.js';
import { amountText } from '../src/metrics/units.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';
import { gateArgs, unwrapped } from './helpers/evalgate.js';
import { noisyWithinExamples, tempDir } from './helpers/records.js';

/*
 * Issue 21: the headline of an inconclusive gate says how many instances, or samples per example,
 * would settle it, as `evalgate plan` says on the same runs (one computation: metrics/samples-split.ts
 * and gate/power.ts samplesColumns).
 */

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

// 800 instances of a model noisy within examples (plan.test.ts's): most of the paired spread is the
// noise within examples, which more samples per example shrink.
const { p, q, run: sampleRun } = noisyWithinExamples(800, 3);
const baseline2 = sampleRun('b2.jsonl', p, 2, 11);
const candidate2 = sampleRun('c2.jsonl', q, 2, 12);
const baseline1 = sampleRun('b1.jsonl', p, 1, 13);
const candidate1 = sampleRun('c1.jsonl', q, 1, 14);

function policyFile(detect: number): string {
  const file = join(tempDir(), 'policy.yml');
  writeFileSync(file, `version: 1\nname: p\nchecks:\n  - metric: accuracy\n    max_regression: 0\n    detect: ${detect}\n`);
  return file;
}

/** `evalgate plan` and `evalgate gate` on the same runs: plan's row, the gate's report, its terminal and markdown texts. */
async function planAndGate(detect: number, candidate: string, baseline: string) {
  const policy = policyFile(detect);
  const planned = await cli('plan', '--policy', policy, '--baseline', baseline, '--candidate', candidate, '--json');
  expect(planned.code).toBe(0);
  const [row] = (JSON.parse(planned.stdout) as { rows: PlanRow[] }).rows;
  const dir = tempDir();
  const [json, markdown] = [join(dir, 'r.json'), join(dir, 'r.md')];
  const gated = await cli(...gateArgs(policy, candidate, baseline, { json, markdown }));
  expect(gated.stderr).toBe('');
  const report: GateReport = parseGateReport(readFileSync(json, 'utf8'), 'r.json');
  return { row, report, check: report.checks[0], text: unwrapped(gated.stdout), markdown: readFileSync(markdown, 'utf8') };
}

describe('the samples per example that would settle an inconclusive check', () => {
  it('are the samples plan sizes on the same runs, and the headline says them', async () => {
    const { row, report, check, text, markdown } = await planAndGate(0.04, candidate2, baseline2);
    expect(report.outcome).toBe('inconclusive');
    expect(check.status).toBe('inconclusive');
    // Plan recommends more samples than today's two: the gate's number is plan's.
    expect(row.samplesNeeded).toBeGreaterThan(2);
    expect(check.power).toMatchObject({ underpowered: true, instancesNeeded: row.needed, samplesNeeded: row.samplesNeeded });
    expect(check.power).not.toHaveProperty('samplesNote');
    const settle = `about ${row.needed} shared instances, or ${row.samplesNeeded} samples per example at today's instances, would settle it`;
    expect(text).toContain(`${settle} (evalgate plan sizes both)`);
    expect(markdown).toContain(`: ${settle} (evalgate plan sizes both)\n`);
    expect(check.reasons).toContain(
      `inconclusive: must detect 4 pts, it sees a worsening of ${amountText('accuracy', check.power!.mde!)} at 80% power; ${settle} (evalgate plan)`,
    );
  });

  it('says only more instances would settle it when the part between instances alone is too much, as plan does', async () => {
    const { row, check, text, markdown } = await planAndGate(0.02, candidate2, baseline2);
    expect(check.status).toBe('inconclusive');
    expect(row).toMatchObject({ samplesNeeded: null, samplesNote: SAMPLES_CANNOT_REACH });
    expect(check.power).toMatchObject({ instancesNeeded: row.needed, samplesNeeded: null, samplesNote: SAMPLES_CANNOT_REACH });
    const settle = `only more instances would settle it, about ${row.needed} shared: more samples per example cannot`;
    expect(text).toContain(`${settle} (evalgate plan sizes the suite)`);
    expect(markdown).toContain(`: ${settle} (evalgate plan sizes the suite)\n`);
    expect(check.reasons.join('\n')).toContain(`; ${settle} (evalgate plan)`);
  });

  it("gives plan's reason when the split cannot be made, and speaks of instances only", async () => {
    // The candidate has two samples per example, the baseline one: nothing tells the noise within examples apart.
    const { row, check, markdown } = await planAndGate(0.04, candidate2, baseline1);
    expect(check.status).toBe('inconclusive');
    expect(row.samplesNote).toMatch(/^the baseline has one sample per example/);
    expect(check.power).toMatchObject({ instancesNeeded: row.needed, samplesNeeded: null, samplesNote: row.samplesNote });
    expect(markdown).toContain(`: about ${row.needed} shared instances would settle it (evalgate plan sizes the suite)\n`);
  });

  it('is not computed with one sample per example, nor for a check that sees what it must detect', async () => {
    const once = await planAndGate(0.04, candidate1, baseline1);
    expect(once.check.status).toBe('inconclusive');
    expect(once.check.power!.instancesNeeded).toBe(once.row.needed);
    expect(once.check.power).not.toHaveProperty('samplesNeeded');
    expect(once.markdown).toContain(`: about ${once.row.needed} shared instances would settle it (evalgate plan sizes the suite)\n`);
    const enough = await planAndGate(0.3, candidate2, baseline2);
    expect(enough.check.status).toBe('pass');
    expect(enough.check.power).toMatchObject({ underpowered: false });
    expect(enough.check.power).not.toHaveProperty('samplesNeeded');
  });
});
