import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { runCli } from '../src/cli/index.js';
import { unwrapped } from './helpers/evalgate.js';
import { record, writeLines } from './helpers/records.js';
import { runProcess } from './helpers/run.js';

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const records = [
  record({ scenario: 'billing', id: '1', correct: 1, confidence: 0.9, latency_ms: 120 }),
  record({ scenario: 'billing', id: '2', correct: 0, confidence: 0.6, latency_ms: 180 }),
  record({ scenario: 'refunds', id: '1', correct: 1, confidence: 0.8, latency_ms: 150 }),
];

describe('evalgate metrics', () => {
  it('prints exactly the JSON report with --json', async () => {
    const path = writeLines('records.jsonl', records);
    const { code, stdout, stderr } = await cli('metrics', path, '--json', '--resamples', '50');
    expect([code, stderr]).toEqual([0, '']);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(['overall', 'scenarios']);
    expect(Object.keys(report.scenarios)).toEqual(['billing', 'refunds']);
    expect(report.overall.accuracy.value).toBeCloseTo(2 / 3, 15);
    expect(report.overall.accuracy.n).toBe(3);
    expect(report.overall.accuracy.ci).toHaveLength(2);
    expect(Object.keys(report.overall.latency_p50_ms)).toEqual(['value', 'ci', 'n']);
  });

  it('prints a table per scope without --json', async () => {
    const { code, stdout } = await cli('metrics', writeLines('records.jsonl', records), '--resamples', '20');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^overall\n\| metric +\| +value \| +95% CI \| +n \|/);
    expect(stdout).toContain('\nscenario billing\n');
    expect(stdout).toContain('\nscenario refunds\n');
    expect(stdout).toMatch(/\| accuracy +\| +0\.6667 \| +\[[0-9.]+, [0-9.]+\] \| +3 \| accuracy \(higher is better\)/);
  });

  it('honours --seed, --resamples and --min-group-size', async () => {
    const path = writeLines('records.jsonl', records);
    const run = async (...flags: string[]) => JSON.parse((await cli('metrics', path, '--json', ...flags)).stdout);
    expect((await run('--seed', '3')).overall.accuracy.ci).toEqual((await run('--seed', '3')).overall.accuracy.ci);
    expect((await run('--resamples', '0')).overall.accuracy.ci).toBeNull();
    const grouped = writeLines(
      'groups.jsonl',
      ['a', 'a', 'b', 'b'].map((g, i) => record({ id: String(i), groups: { g } })),
    );
    const parse = async (...flags: string[]) => JSON.parse((await cli('metrics', grouped, '--json', ...flags)).stdout).overall;
    expect(await parse('--min-group-size', '2')).toHaveProperty(['worst_group_accuracy:g']);
    expect(await parse('--min-group-size', '3')).not.toHaveProperty(['worst_group_accuracy:g']);
  });

  it('leaves out the worst group and the gap with one group of min_group_size, so that a gate check on them errors', async () => {
    // 190 sae records all right, 9 aae all wrong: only sae has 10 records. This gave a gap of "0 [0, 0]".
    const skewed = writeLines('skewed.jsonl', [
      ...Array.from({ length: 190 }, (_, i) => record({ id: `s${i}`, groups: { dialect: 'sae' } })),
      ...Array.from({ length: 9 }, (_, i) => record({ id: `a${i}`, correct: 0, groups: { dialect: 'aae' } })),
    ]);
    const overall = JSON.parse((await cli('metrics', skewed, '--json')).stdout).overall;
    expect(overall).not.toHaveProperty(['group_accuracy_gap:dialect']);
    expect(overall).not.toHaveProperty(['worst_group_accuracy:dialect']);
    const policy = writeLines('policy.yml', ['version: 1', 'name: t', 'checks:', '  - metric: group_accuracy_gap:dialect', '    max: 0.1']);
    const gate = await cli('gate', '--policy', policy, '--candidate', skewed);
    expect(gate.code).toBe(1);
    expect(unwrapped(gate.stdout)).toContain('could not be judged: the candidate has no group_accuracy_gap:dialect for overall');
  });

  it('exits 2 with the file, line and field on bad input', async () => {
    const path = writeLines('records.jsonl', [records[0], { scenario: 's', id: '9', correct: 1, confidence: 1.3 }]);
    const { code, stdout, stderr } = await cli('metrics', path, '--json');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`evalgate: ${path}:2: "confidence" must be a number in [0, 1], got 1.3\n`);
  });

  it('exits 2 on a second record of one example, naming both lines, in metrics and gate alike', async () => {
    const variant = { perturbation: { name: 'typos', kind: 'robustness' as const } };
    const path = writeLines('twice.jsonl', [
      record({ scenario: 's', id: '1' }),
      record({ scenario: 's', id: '1', ...variant }),
      record({ scenario: 's', id: '2' }),
      record({ scenario: 's', id: '1', ...variant, correct: 0 }),
    ]);
    const message = `evalgate: ${path}:4: s/1 (typos) appears twice (first on line 2): one record per example and sample (scenario, id, perturbation, sample)\n`;
    expect(await cli('metrics', path, '--json')).toEqual({ code: 2, stdout: '', stderr: message });
    const policy = writeLines('p.json', [{ version: 1, name: 'p', checks: [{ metric: 'accuracy', min: 0 }] }]);
    expect(await cli('gate', '--policy', policy, '--candidate', path)).toEqual({ code: 2, stdout: '', stderr: message });
  });

  it('exits 2 on bad usage and 0 on help', async () => {
    expect((await cli('metrics')).code).toBe(2);
    expect((await cli('metrics', 'x.jsonl', '--resamples', 'many')).code).toBe(2);
    expect((await cli('metrics', 'x.jsonl', '--min-group-size', '0')).code).toBe(2);
    expect((await cli('metrics', 'x.jsonl', '--resamples', '2000000')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli()).code).toBe(2);
    const help = await cli('metrics', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--min-group-size');
  });
});

describe('the bundled CLI (dist/cli.js)', () => {
  it("is the package's `evalgate` command (npx evalgate in a checkout)", async () => {
    const path = writeLines('records.jsonl', records);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = await runProcess(npm, ['exec', '--no', '--', 'evalgate', 'metrics', path, '--json', '--resamples', '0']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).overall.accuracy.n).toBe(3);
  });

  it("prints the package's version with --version and -V", async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await runProcess(process.execPath, ['dist/cli.js', flag]);
      expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('runs as `evalgate` does after npm ci, with the same exit codes', async () => {
    const good = await runProcess(process.execPath, [
      'dist/cli.js',
      'metrics',
      writeLines('records.jsonl', records),
      '--json',
      '--resamples',
      '10',
    ]);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout).scenarios.refunds.accuracy.value).toBe(1);
    const bad = await runProcess(process.execPath, ['dist/cli.js', 'metrics', writeLines('empty.jsonl', [''])]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/empty\.jsonl: no records/);
  });
});
