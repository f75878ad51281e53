import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { gateMarkdown, MAX_COMMENT_CHARACTERS } from '../src/report/markdown.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';

type ReportCheck = GateReport['checks'][number];
import { countFlips, totalFlips } from './helpers/flips.js';
import { record, tempDir, writeLines } from './helpers/records.js';
import { runProcess } from './helpers/run.js';
import { evalgate, gateArgs, unwrapped } from './helpers/evalgate.js';

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

function writePolicy(text: string): string {
  const path = join(tempDir(), 'policy.yml');
  writeFileSync(path, `version: 1\nname: t\nsettings:\n  resamples: 200\n${text}`);
  return path;
}

// 300 instances; the candidate loses 15 right answers (-5 points) and its scenario name needs escaping.
const scenario = 'billing|<b>x</b>';
const baselineRecords = Array.from({ length: 300 }, (_, i) =>
  record({ scenario, id: String(i), correct: i % 4 === 0 ? 0 : 1, latency_ms: 100 + i }),
);
const candidateRecords = baselineRecords.map((r, i) => (i % 20 === 1 ? { ...r, correct: 0 } : r));

describe('evalgate gate', () => {
  const baseline = writeLines('baseline.jsonl', baselineRecords);
  const candidate = writeLines('candidate.jsonl', candidateRecords);
  /** The candidate gated against the baseline, with the markdown and JSON reports written into `dir`. */
  const gateWithReports = (policy: string, dir: string) =>
    cli(...gateArgs(policy, candidate, baseline, { markdown: join(dir, 'r.md'), json: join(dir, 'r.json') }));

  it('exits 1 on fail, writing the markdown and JSON reports', async () => {
    const dir = tempDir();
    const policy = writePolicy('checks:\n  - metric: accuracy\n    max_regression: 0.02\n');
    const result = await gateWithReports(policy, dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^evalgate: FAIL \(1 blocking check failed\) · policy t\n/);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as GateReport;
    expect(report.version).toBe(1);
    expect(report.verdict).toBe('fail');
    expect(report.checks[0].comparison?.shared).toBe(300);
    expect(report.candidate).toEqual({ file: candidate, kind: 'records', records: 300, instances: 300 });
    const markdown = readFileSync(join(dir, 'r.md'), 'utf8');
    expect(markdown).toMatch(/^## ❌ evalgate: fail \(1 blocking check failed\) · policy t\n/);
    // The failing check's line in plain words with units, and its row of the one table.
    expect(markdown).toContain(
      '- ❌ **accuracy** (overall) blocks: 5 pts worse than the baseline (95% interval of the change \\[-7.33, -2.99\\] pts), over its budget of 2 pts (p 0.010)',
    );
    expect(markdown).toContain(
      '| ❌ fail | accuracy (overall)    |   70% \\[64.6, 75\\] |     -5 pts \\[-7.33, -2.99\\] | worse by ≤ 2 pts           |',
    );
    // Data is escaped: no raw HTML or table-breaking pipe from the scenario name.
    expect(markdown).not.toContain('<b>');
    expect(markdown).toContain('<summary>Scenario billing|&lt;b&gt;x&lt;/b&gt;:'); // an HTML line: entities
  });

  it('shows adjusted p-values, the power and the flags in every report, and reads them back (and older reports)', async () => {
    const dir = tempDir();
    const policy = writePolicy(
      'checks:\n  - metric: accuracy\n    min: 0.7\n    bounds: lenient\n    max_regression: 0.02\n    detect: 0.03\n' +
        '  - metric: latency_p50_ms\n    max_regression: "50%"\n',
    );
    const result = await gateWithReports(policy, dir);
    const text = readFileSync(join(dir, 'r.json'), 'utf8');
    const report = parseGateReport(text, 'r.json');
    const [accuracy, latency] = report.checks;
    expect(accuracy).toMatchObject({
      test: 'regression',
      bounds: 'lenient',
      flags: ['borderline', 'underpowered'],
      boundTest: { bound: 'min', claim: 'crossed' },
    });
    expect(accuracy.power!.detect).toBe(0.03);
    expect(accuracy.power!.mde!).toBeGreaterThan(0.03); // 300 instances cannot see 3 points
    // Two blocking regression tests and a lenient bound: Holm over three. A positive budget is tested as
    // a budget: pOverBudget (at least pWorse), corrected.
    expect(accuracy.comparison!.pOverBudget!).toBeGreaterThanOrEqual(accuracy.comparison!.pWorse!);
    expect(accuracy.comparison!.pOverBudgetAdjusted!).toBeGreaterThanOrEqual(accuracy.comparison!.pOverBudget!);
    expect(accuracy.comparison!.pWorseAdjusted).toBeUndefined();
    // No detect stated: the default, 3 x the relative budget (150% of the baseline).
    expect(latency.power).toMatchObject({ detect: expect.closeTo(1.5 * latency.comparison!.baseline, 9), detectFrom: 'default' });
    expect(accuracy.threshold).toBe('>= 0.7 (lenient), regression <= 0.02, detect 0.03');
    const markdown = readFileSync(join(dir, 'r.md'), 'utf8');
    // The details: both p-values raw and adjusted, what the check can and must detect (points), the flags.
    expect(markdown).toMatch(/\| +can detect \(80%\) +\| +must detect +\|/);
    expect(markdown).toMatch(
      /\| accuracy \(overall\) +\| +75% \| +70% \\\[64\.6, 75\\\] \| over budget 0\.0\d+, adjusted 0\.0\d+; bound \(crossed\) 0\.\d+, adjusted 1\.0 \| +5\.\d+ pts \| +3 pts \| 300 shared instances, n 300 \| borderline, underpowered \|/,
    );
    expect(markdown).toMatch(
      /\| ❌ fail +\| accuracy \(overall\) +\| +70% \\\[64\.6, 75\\\] \| +-5 pts \\\[-7\.33, -2\.99\\\] \| ≥ 70% \(lenient\), worse by ≤ 2 pts \|/,
    );
    // The terminal: the change with its interval in the table; with --verbose, the tests and power.
    expect(result.stdout).toMatch(
      /\n {2}fail +accuracy \(overall\) +70% \[64\.6, 75\] +-5 pts \[-7\.33, +≥ 70% \(lenient\),\n +-2\.99\] +worse/,
    );
    const verbose = await cli('gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline, '--verbose');
    expect(unwrapped(verbose.stdout)).toMatch(
      /\n {2}accuracy \(overall\): baseline 75% · plain value \(95% CI\) 70% \[64\.6, 75\] · p-values over budget 0\.0\d+, adjusted 0\.0\d+; bound \(crossed\) 0\.\d+, adjusted 1\.0 · can detect \(80%\) 5\.\d+ pts · must detect 3 pts · counts 300 shared instances, n 300 · flags borderline, underpowered\n/,
    );
    expect(result.stdout).not.toContain('p-values'); // the details only with --verbose
    // A version-1 report written before these fields reads back as it is.
    const older = JSON.parse(text);
    for (const check of older.checks) for (const field of ['test', 'bounds', 'boundTest', 'power', 'flags']) delete check[field];
    expect(parseGateReport(JSON.stringify(older), 'old.json').checks[0].flags).toBeUndefined();
    // A posted report is untrusted: numbers that contradict each other are refused.
    const forged = (change: (check: ReportCheck) => void) => {
      const copy = JSON.parse(text) as { checks: ReportCheck[] };
      change(copy.checks[0]);
      return () => parseGateReport(JSON.stringify(copy), 'forged.json');
    };
    expect(forged((check) => (check.comparison!.pWorse = -3))).toThrow(/checks\.0\.comparison\.pWorse: expected a probability in \[0, 1\]/);
    expect(forged((check) => (check.comparison!.pWorseAdjusted = 0))).toThrow(/pWorseAdjusted is below pWorse/);
    expect(forged((check) => (check.comparison!.pOverBudgetAdjusted = 0))).toThrow(/pOverBudgetAdjusted is below pOverBudget/);
    expect(forged((check) => (check.comparison!.worsening = 0.5))).toThrow(/worsening is not the change/);
    expect(forged((check) => (check.power!.mde = -0.4))).toThrow(/expected a number >= 0/);
    expect(forged((check) => (check.flags = ['borderline']))).toThrow(/the underpowered flag does not follow from power/);
    expect(forged((check) => (check.power!.underpowered = false))).toThrow(/underpowered does not follow from mde and detect/);
  });

  it('exits 0 on pass and on warn', async () => {
    const passing = writePolicy('checks:\n  - metric: accuracy\n    max_regression: 0.1\n');
    expect((await cli('gate', '--policy', passing, '--candidate', candidate, '--baseline', baseline)).code).toBe(0);
    const warning = writePolicy('checks:\n  - metric: accuracy\n    max_regression: 0.02\n    severity: warn\n');
    const result = await cli('gate', '--policy', warning, '--candidate', candidate, '--baseline', baseline);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^evalgate: WARN/);
  });

  it('reports a candidate missing instances of the baseline: a warning by default, a failure when the policy blocks', async () => {
    const dir = tempDir();
    const partial = writeLines('partial.jsonl', candidateRecords.slice(0, 290));
    // An id that tries to start workflow commands in a CI log.
    const hostileBaseline = writeLines('hostile.jsonl', [
      record({ scenario, id: 'z\n::set-output name=verdict::pass\n::add-mask::accuracy', correct: 1 }),
      ...baselineRecords,
    ]);
    const hostile = await cli(
      'gate',
      '--policy',
      writePolicy('checks:\n  - metric: accuracy\n    max_regression: 0.1\n'),
      '--candidate',
      partial,
      '--baseline',
      hostileBaseline,
    );
    expect(unwrapped(hostile.stdout)).toContain('z\\n::set-output name=verdict::pass\\n::add-mask::accuracy');
    expect(hostile.stdout).not.toMatch(/^::/m);
    const checks = 'checks:\n  - metric: accuracy\n    max_regression: 0.1\n';
    const warned = await cli(
      'gate',
      '--policy',
      writePolicy(checks),
      '--candidate',
      partial,
      '--baseline',
      baseline,
      '--markdown',
      join(dir, 'r.md'),
      '--json',
      join(dir, 'r.json'),
    );
    expect(warned.code).toBe(0);
    expect(unwrapped(warned.stdout)).toMatch(
      /^evalgate: WARN \(1 warning\) · policy t\n\n {2}warn {2}coverage: the candidate answered 290 of the baseline's 300 instances \(96\.7%, the policy asks at least 100%\); missing or failed: billing\|<b>x<\/b>\/290, /,
    );
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).coverage).toMatchObject({
      status: 'warn',
      baselineInstances: 300,
      covered: 290,
    });
    const markdown = readFileSync(join(dir, 'r.md'), 'utf8');
    expect(markdown).toMatch(/^## ⚠️ evalgate: warn \(1 warning\) · policy t\n/);
    expect(markdown).toContain(
      "- ⚠️ coverage warns: the candidate answered 290 of the baseline's 300 instances (96.7%, the policy asks at least 100%); missing or failed: billing\\|\\<b\\>x\\</b\\>/290,",
    );
    const blocked = await cli(
      'gate',
      '--policy',
      writePolicy(`  coverage: { severity: block }\n${checks}`),
      '--candidate',
      partial,
      '--baseline',
      baseline,
    );
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toMatch(/^evalgate: FAIL/);
  });

  it('says when there is no baseline, and still enforces absolute bounds', async () => {
    const policy = writePolicy('checks:\n  - metric: accuracy\n    min: 0.9\n    max_regression: 0.02\n');
    const result = await cli('gate', '--policy', policy, '--candidate', candidate);
    expect(result.code).toBe(1);
    expect(unwrapped(result.stdout)).toContain('no baseline: regression budgets were not checked');
  });

  it('gates summary metrics files as well as records', async () => {
    const dir = tempDir();
    const metrics = async (file: string, name: string) => {
      const { stdout } = await cli('metrics', file, '--json', '--resamples', '0');
      writeFileSync(join(dir, name), stdout);
      return join(dir, name);
    };
    const policy = writePolicy('checks:\n  - metric: accuracy\n    max_regression: 0.02\n');
    const result = await cli(
      'gate',
      '--policy',
      policy,
      '--candidate',
      await metrics(candidate, 'c.json'),
      '--baseline',
      await metrics(baseline, 'b.json'),
      '--json',
      join(dir, 'r.json'),
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).checks[0].comparison.method).toBe('summary');
    // A metrics file with a broken value is bad input naming the field.
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ overall: { accuracy: { value: 0.7, ci: [0.6], n: 10 } }, scenarios: {} }));
    const bad = await cli('gate', '--policy', policy, '--candidate', join(dir, 'bad.json'));
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toBe(
      `evalgate: ${join(dir, 'bad.json')}: not a valid metrics report: "overall.accuracy.ci": Too small: expected array to have >=2 items\n`,
    );
  });

  it('tells a metrics file from records by its first JSON value, whatever its length', async () => {
    const dir = tempDir();
    const policy = writePolicy('checks:\n  - metric: accuracy\n    min: 0.4\n');
    // A metrics file of 1,000 scenarios is one line of about 100 KB, as `metrics --json` writes it.
    const many = writeLines(
      'many.jsonl',
      Array.from({ length: 2000 }, (_, i) => record({ scenario: `scenario-${i % 1000}`, id: String(i), correct: i % 2 })),
    );
    const { stdout } = await evalgate(['metrics', many, '--json', '--resamples', '0']);
    const metricsFile = join(dir, 'many.json');
    writeFileSync(metricsFile, stdout);
    expect(stdout.length).toBeGreaterThan(65536);
    expect(stdout.trimEnd()).not.toContain('\n');
    const gated = await evalgate(['gate', '--policy', policy, '--candidate', metricsFile]);
    expect([gated.code, gated.stderr]).toEqual([0, '']);
    expect(unwrapped(gated.stdout)).toContain(`candidate ${metricsFile} (summary metrics)`);
  });

  it('reads a record with a field of its own named "overall" as a record, not a metrics file', async () => {
    const policy = writePolicy('checks:\n  - metric: accuracy\n    min: 0.4\n');
    const withOverall = writeLines('overall.jsonl', [
      record({ id: '1', overall: { accuracy: { value: 1, ci: null, n: 1 } } }),
      record({ id: '2', correct: 0 }),
    ]);
    const records = await evalgate(['gate', '--policy', policy, '--candidate', withOverall]);
    expect([records.code, records.stderr]).toEqual([0, '']);
    expect(unwrapped(records.stdout)).toContain(`candidate ${withOverall} (2 records)`);
  });

  it('exits 2 with the file and line on a bad policy or bad input', async () => {
    const bad = writePolicy('checks:\n  - metric: accuracy\n    max_regresion: 0.02\n');
    const result = await cli('gate', '--policy', bad, '--candidate', candidate);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `evalgate: ${bad}:6:5 checks[0]: a check needs at least one of min, max, max_regression\n` +
        `evalgate: ${bad}:7:5 checks[0].max_regresion: unknown key (did you mean max_regression?)\n`,
    );
    const policy = writePolicy('checks:\n  - metric: accuracy\n    min: 0.5\n');
    const broken = writeLines('broken.jsonl', [record({ id: '1' }), '{"scenario": "s"']);
    expect((await cli('gate', '--policy', policy, '--candidate', broken)).stderr).toMatch(/broken\.jsonl:2: not valid JSON/);
    expect((await cli('gate', '--policy', policy)).code).toBe(2);
  });
});

describe('gating imported lm-eval summaries', () => {
  it("compares the tasks' metrics as point estimates, with the direction the policy states", async () => {
    const dir = tempDir();
    const fixtures = '__tests__/fixtures/lm-eval';
    await cli(
      'import',
      '--from',
      'lm-eval',
      `${fixtures}/llama-3-8b-bias-classification-2024-06-17T12-20-26.826621/results_2024-06-17T12-20-26.826621.json`,
      '--out',
      join(dir, 'baseline.json'),
    );
    await cli(
      'import',
      '--from',
      'lm-eval',
      `${fixtures}/llama-3-8b-bias-classification-2024-06-17T15-44-37.867068/results_2024-06-17T15-44-37.867068.json`,
      '--out',
      join(dir, 'candidate.json'),
    );
    const policy = writePolicy(
      'checks:\n  - metric: bias_classification/acc\n    direction: higher\n    dimension: bias\n    max_regression: 0.01\n',
    );
    const result = await cli(
      'gate',
      '--policy',
      policy,
      '--candidate',
      join(dir, 'candidate.json'),
      '--baseline',
      join(dir, 'baseline.json'),
      '--json',
      join(dir, 'r.json'),
    );
    // acc 0.5106732348111659 against 0.5369458128078818: 2.6 points worse, over the budget of 1.
    expect(result.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as GateReport;
    expect(report.checks[0]).toMatchObject({ metric: 'bias_classification/acc', dimension: 'bias', direction: 'higher', status: 'fail' });
    expect(report.checks[0].comparison?.method).toBe('summary');
    expect(report.checks[0].comparison?.change).toBeCloseTo(0.5106732348111659 - 0.5369458128078818, 15);
  });
});

describe('evalgate validate and schema', () => {
  it('checks every policy given and exits 2 if any is invalid', async () => {
    const good = writePolicy('checks:\n  - metric: ece\n    max: 0.1\n');
    const bad = writePolicy('checks:\n  - metric: ece\n    max: high\n');
    // Valid, with warnings: 20 resamples a little-bootstrap subset, and a point bound on ece (issue 21).
    const warnings = await cli('validate', good);
    expect(warnings).toMatchObject({ code: 0, stdout: `ok: ${good} (1 check, 0 trade-offs)\n` });
    expect(warnings.stderr).toMatch(
      new RegExp(
        `^warning: ${good}:4 settings.resamples: 200 resamples give 20 .*\nwarning: ${good}:6 checks\\[0\\]: a point bound on ece .*\n$`,
      ),
    );
    const result = await cli('validate', good, bad);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${warnings.stderr}${bad}:7:10 checks[0].max: expected number, received string\n`);
  });

  it('validates the bundled policies', async () => {
    expect((await cli('validate', 'policies/default.yml')).code).toBe(0);
  });

  it('prints the JSON Schema that is committed in policies/', async () => {
    const { code, stdout } = await cli('schema');
    expect(code).toBe(0);
    expect(stdout).toBe(readFileSync('policies/policy.schema.json', 'utf8'));
  });
});

describe('the markdown report', () => {
  it('stays under the comment size limit, dropping per-scenario details first', () => {
    const metrics = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`group_accuracy:g=v${i}`, { value: 0.5, ci: [0.4, 0.6] as [number, number], n: 100 }]),
    );
    const report: GateReport = {
      version: 1,
      verdict: 'pass',
      policy: { name: 'p', file: 'p.yml', sha256: '0'.repeat(64) },
      candidate: { file: 'c.jsonl', kind: 'records', records: 1, instances: 1 },
      baseline: null,
      checks: [],
      tradeoffs: [],
      coverage: null,
      scenarios: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`scenario-${i}`, metrics])),
    };
    const markdown = gateMarkdown(report);
    expect(markdown.length).toBeLessThanOrEqual(MAX_COMMENT_CHARACTERS);
    expect(markdown).toContain('<details><summary>Scenario scenario-0:');
    // It says how many it left out, and those are the ones not shown.
    const leftOut = /\n\n_Left out to stay within GitHub's comment size limit: (\d+) of the 200 per-scenario details\. /.exec(markdown);
    expect(Number(leftOut?.[1]) + markdown.split('<details>').length - 1).toBe(200);
  });
});

describe('evalgate demo and compare', () => {
  it('shows the two candidates getting opposite decisions under the two bundled policies', async () => {
    // The bundled CLI, as `npm run demo` runs it.
    const { code, stdout } = await runProcess(process.execPath, ['dist/cli.js', 'demo']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\| customer-support +\| block \(fail\) +\| ship \(warn\) +\|/);
    expect(stdout).toMatch(/\| realtime-chat +\| ship \(warn\) +\| block \(fail\) +\|/);
    expect(stdout).toContain('customer-support: would ship candidate-b');
    expect(stdout).toContain('realtime-chat: would ship candidate-a');
    expect(unwrapped(stdout)).toContain('candidate-a: ece (billing-exceptions) blocks: 24.1% (bias-corrected) is above its maximum 12%');
    expect(unwrapped(stdout)).toContain('candidate-b: error_rate (overall) blocks: 2.56% is above its maximum 2%');
    // The failed calls each policy's error budget allows are not a coverage warning: B's are, under realtime-chat only.
    const [customerSupport, realtimeChat] = stdout.split('\nrealtime-chat: would ship');
    expect(customerSupport).not.toContain('coverage');
    expect(realtimeChat.match(/^ {2}candidate-.: coverage warns/gm)).toEqual(['  candidate-b: coverage warns']);
    // Like real models, each candidate breaks some of the baseline's right answers and fixes some wrong ones.
    for (const name of ['candidate-a', 'candidate-b']) {
      const total = totalFlips(countFlips(`examples/billing/${name}.jsonl`, 'examples/billing/baseline.jsonl'));
      expect([total.rightToWrong > 0, total.wrongToRight > 0]).toEqual([true, true]);
      expect(stdout).toContain(
        `  ${name}: ${total.rightToWrong} right → wrong, ${total.wrongToRight} wrong → right of ${total.compared} examples both runs answered`,
      );
    }
  });

  it('refuses a candidate without a name', async () => {
    const result = await cli('compare', '--policy', 'policies/default.yml', '--candidate', 'examples/billing/candidate-a.jsonl');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('evalgate: --candidate expects NAME=FILE, got "examples/billing/candidate-a.jsonl"\n');
  });

  it('exits 2 without a policy or without a candidate', async () => {
    for (const args of [
      ['--policy', 'policies/default.yml'],
      ['--candidate', 'a=examples/billing/candidate-a.jsonl'],
    ]) {
      const result = await cli('compare', ...args);
      expect([result.code, result.stdout, result.stderr]).toEqual([
        2,
        '',
        'evalgate: compare needs at least one --policy and one --candidate NAME=FILE\n',
      ]);
    }
  });
});
