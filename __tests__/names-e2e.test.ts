import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricsReport } from '../src/metrics/report.js';
import { parseGateReport } from '../src/report/json.js';
import { evalgate, gateArgs, unwrapped } from './helpers/evalgate.js';
import { NAMED_POLICY, namedRuns } from './helpers/named-groups.js';
import { tempDir, writeLines } from './helpers/records.js';

/*
 * A group attribute "region:eu" valued "a=b" and a scenario called "overall", through the bundled CLI
 * (dist/cli.js): every metric named once and read back, and the scenario never taken for the pooled scope.
 */

const GROUP = 'group_accuracy:region%3Aeu=a%3Db';

describe('names with separators and a scenario called "overall", through the bundled CLI', () => {
  const { baseline, candidate } = namedRuns();

  it('computes each group under its escaped name, and the scenario beside the pooled scope', async () => {
    const result = await evalgate(['metrics', '--json', candidate]);
    expect(result.stderr).toBe('');
    const metrics = JSON.parse(result.stdout) as MetricsReport;
    expect(Object.keys(metrics.overall).filter((name) => name.includes('region'))).toEqual([
      'worst_group_accuracy:region%3Aeu',
      'group_accuracy_gap:region%3Aeu',
      'group_accuracy:region%3Aeu=a%3Db',
      'group_accuracy:region%3Aeu=c d',
    ]);
    expect(metrics.overall.accuracy.value).toBe(0.725);
    expect(metrics.scenarios.overall.accuracy.value).toBe(0.45);
    expect(metrics.scenarios.overall[GROUP].value).toBe(0.4);
  });

  it('gates and reports each check in its own scope, with its group, in every report', async () => {
    const dir = tempDir();
    const policy = writeLines('policy.yml', [NAMED_POLICY]);
    const [json, markdown, html] = ['r.json', 'r.md', 'r.html'].map((file) => join(dir, file));
    const result = await evalgate(gateArgs(policy, candidate, baseline, { json, markdown, html }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);

    const report = parseGateReport(readFileSync(json, 'utf8'), json);
    expect(
      report.checks.map(({ metric, scope, scopeKind, group, status, candidate }) => [
        metric,
        scope,
        scopeKind,
        group,
        status,
        candidate?.value,
      ]),
    ).toEqual([
      ['accuracy', 'overall', 'pooled', null, 'pass', 0.725],
      ['accuracy', 'overall', 'scenario', null, 'fail', 0.45],
      [GROUP, 'overall', 'scenario', { attribute: 'region:eu', value: 'a=b' }, 'fail', 0.4],
      ['worst_group_accuracy:region%3Aeu', 'overall', 'pooled', { attribute: 'region:eu' }, 'pass', 0.7],
      ['ece', 'overall', 'scenario', null, 'pass', expect.closeTo(0.2, 9)],
      ['ece', 'overall', 'pooled', null, 'pass', expect.closeTo(0.125, 9)],
      ['error_rate', 'overall', 'pooled', null, 'pass', 0], // the built-in failure-rate check: no failed call
    ]);
    // The reliability diagrams: the scenario's one bin (confidence 0.65), the pooled scope's two.
    expect(report.calibration?.map(({ scope, scopeKind, candidate }) => [scope, scopeKind, candidate.map((bin) => bin.low)])).toEqual([
      ['overall', 'scenario', [0.6]],
      ['overall', 'pooled', [0.6, 0.9]],
    ]);

    expect(unwrapped(result.stdout)).toContain(
      '  fail  accuracy (scenario overall) blocks: 45% is below its minimum 60% (a point estimate: no error control)\n',
    );
    expect(unwrapped(result.stdout)).toContain(`  fail  ${GROUP} (scenario overall) blocks: 10 pts worse than the baseline`);
    const comment = readFileSync(markdown, 'utf8');
    expect(comment).toContain(
      '- ❌ **accuracy** (scenario overall) blocks: 45% is below its minimum 60% (a point estimate: no error control)\n',
    );
    expect(comment).toMatch(/\| ❌ fail \| accuracy \(scenario overall\) +\| +45% /);
    expect(comment).toMatch(/\| ✅ pass \| accuracy \(overall\) +\| +72\.5% /);
    expect(comment).toContain('  title "Reliability (scenario overall)"\n');
    expect(comment).toContain('  title "Reliability"\n');
    expect(comment).toContain(
      '  title "Accuracy per region:eu (scenario overall)"\n  x-axis ["a=b: baseline", "a=b: candidate", "c d: baseline", "c d: candidate"]\n  y-axis "accuracy (%)" 0 --> 100\n  bar [50, 40, 50, 50]\n',
    );
    expect(comment).toContain(
      '  title "Accuracy per region:eu"\n  x-axis ["a=b: baseline", "a=b: candidate", "c d: baseline", "c d: candidate"]\n',
    );
    // Read back, a report must hold together: the pooled scope is "overall", a group the one its metric names.
    const written = JSON.parse(readFileSync(json, 'utf8'));
    const tampered = (change: object) =>
      JSON.stringify({ ...written, checks: [{ ...written.checks[2], ...change }, ...written.checks.slice(1)] });
    expect(() => parseGateReport(tampered({ scope: 'billing', scopeKind: 'pooled' }), 'r.json')).toThrow(
      'the pooled scope is called overall',
    );
    expect(() => parseGateReport(tampered({ group: { attribute: 'region:eu', value: 'c d' } }), 'r.json')).toThrow(
      'the group is not the one the metric names',
    );
    const page = readFileSync(html, 'utf8');
    expect(page).toContain(
      '<li><b>accuracy</b> (scenario overall) blocks: 45% is below its minimum 60% (a point estimate: no error control)</li>',
    );
    expect(page).toContain('Accuracy per region:eu (scenario overall)');
  });

  it('names the scenario so in the decision matrix too', async () => {
    const policy = writeLines('policy.yml', [NAMED_POLICY]);
    const result = await evalgate(['compare', '--policy', policy, '--candidate', `c=${candidate}`, '--baseline', baseline]);
    expect(unwrapped(result.stdout)).toContain(
      '  c: accuracy (scenario overall) blocks: 45% is below its minimum 60% (a point estimate: no error control)\n',
    );
    expect(unwrapped(result.stdout)).toContain(`  c: ${GROUP} (scenario overall) blocks: 10 pts worse than the baseline`);
  });

  it('refuses a name whose separators are not escaped, saying how to write it', async () => {
    const policy = writeLines('policy.yml', ['version: 1\nname: t\nchecks:\n  - metric: worst_group_accuracy:region:eu\n    min: 0.1']);
    const result = await evalgate(['gate', '--policy', policy, '--candidate', candidate]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${policy}:4:13 checks[0].metric: malformed metric name "worst_group_accuracy:region:eu" (did you mean worst_group_accuracy:region%3Aeu?)`,
    );
  });
});
