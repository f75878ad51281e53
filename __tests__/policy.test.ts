import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../src/errors.js';
import { parsePolicy } from '../src/policy/load.js';
import { policyJsonSchema } from '../src/policy/schema.js';

function problemsOf(text: string): string[] {
  try {
    parsePolicy(text, 'policies/x.yml');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const minimal = 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    min: 0.7\n';

describe('policy files', () => {
  it('fills in the defaults', () => {
    const { policy, sha256 } = parsePolicy(minimal, 'p.yml');
    expect(policy.settings).toEqual({
      significance: 0.05,
      multiplicity: 'holm',
      inconclusive: 'warn',
      test: 'regression',
      bounds: 'point',
      min_shared_instances: 20,
      min_group_size: 10,
      resamples: 2000,
      seed: 1,
      coverage: { min: 1, severity: 'warn' },
    });
    expect(policy.checks).toEqual([{ metric: 'accuracy', min: 0.7, severity: 'block' }]);
    expect(policy.tradeoffs).toEqual([]);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts JSON, percentages, scopes, significance off and trade-offs', () => {
    const { policy } = parsePolicy(
      JSON.stringify({
        version: 1,
        name: 'j',
        settings: { significance: 'off' },
        checks: [
          { metric: 'accuracy', scenario: 'billing', max_regression: '5%' },
          { metric: 'worst_group_accuracy:dialect', min: 0.6, severity: 'warn' },
        ],
        tradeoffs: [
          {
            name: 't',
            allow: [{ metric: 'accuracy', scenario: 'billing', max_regression: 0.04 }],
            when: [{ metric: 'ece', min_improvement: 0.02 }],
          },
        ],
      }),
      'p.json',
    );
    expect(policy.settings.significance).toBe('off');
    expect(policy.checks[0].max_regression).toBe('5%');
    expect(policy.tradeoffs[0].when[0].min_improvement).toBe(0.02);
  });

  it('names the line, column and key path of a misspelt key, with a suggestion', () => {
    const text = `${minimal}  - metric: ece\n    max: 0.08\n    max_regresion: 0.01\n`;
    expect(problemsOf(text)).toEqual(['policies/x.yml:8:5 checks[1].max_regresion: unknown key (did you mean max_regression?)']);
  });

  it('rejects unknown metrics with a suggestion, bad numbers and percentages, and reports them all at once', () => {
    const text = [
      'version: 1',
      'name: p',
      'settings:',
      '  significance: 1.5',
      '  coverage: { min: 0, severity: always }',
      'checks:',
      '  - metric: acuracy',
      '    min: high',
      '  - metric: worst_group_acc:dialect',
      '    max_regression: 5 %',
      '  - metric: ece',
      'tradeoffs:',
      '  - name: t',
      '    allow: [{ metric: accuracy, max_regression: 0.04 }]',
      '    when: [{ min_improvement: 0.02 }]',
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'policies/x.yml:4:17 settings.significance: too big: expected number to be <1',
      'policies/x.yml:5:20 settings.coverage.min: too small: expected number to be >0',
      'policies/x.yml:5:33 settings.coverage.severity: invalid option: expected one of "block"|"warn"|"off"',
      'policies/x.yml:7:13 checks[0].metric: unknown metric "acuracy" (did you mean accuracy?)',
      'policies/x.yml:8:10 checks[0].min: expected number, received string',
      'policies/x.yml:9:13 checks[1].metric: unknown metric "worst_group_acc:dialect" (did you mean worst_group_accuracy:dialect?)',
      'policies/x.yml:10:21 checks[1].max_regression: expected a number or a percentage such as "5%"',
      'policies/x.yml:11:5 checks[2]: a check needs at least one of min, max, max_regression',
      'policies/x.yml:15:12 tradeoffs[0].when[0].metric: is required (string)',
    ]);
  });

  it('accepts a metric from another tool only with its direction', () => {
    const custom = `${minimal}  - metric: hellaswag/acc_norm\n    direction: higher\n    dimension: accuracy\n    max_regression: 0.01\n`;
    expect(parsePolicy(custom, 'p.yml').policy.checks[1]).toMatchObject({ metric: 'hellaswag/acc_norm', direction: 'higher' });
    expect(problemsOf(`${minimal}  - metric: hellaswag/acc_norm\n    max_regression: 0.01\n`)).toEqual([
      expect.stringMatching(
        /^policies\/x\.yml:6:13 checks\[1\]\.metric: unknown metric "hellaswag\/acc_norm"; known: .*; or, for a metric from another tool, give its direction: higher \| lower$/,
      ),
    ]);
  });

  it('refuses a trade-off that relaxes no check', () => {
    const text = `${minimal}tradeoffs:\n  - name: t\n    allow: [{ metric: ece, max_regression: 0.01 }]\n    when: [{ metric: brier, min_improvement: 0.01 }]\n`;
    expect(problemsOf(text)).toEqual([
      'policies/x.yml:8:13 tradeoffs[0].allow[0]: no check of ece (overall) with a max_regression for this trade-off to relax',
    ]);
  });

  it('refuses a direction that contradicts a metric evalgate knows, and accepts the right one', () => {
    const text = `${minimal}  - metric: ece\n    max_regression: 0.01\n    direction: higher\n  - metric: accuracy\n    max_regression: 0.01\n    direction: higher\n`;
    expect(problemsOf(text)).toEqual([
      'policies/x.yml:8:16 checks[1].direction: ece is better lower: direction higher contradicts it (leave direction out for a metric evalgate knows)',
    ]);
    const term = `${minimal}  - metric: accuracy\n    max_regression: 0.01\ntradeoffs:\n  - name: t\n    allow: [{ metric: accuracy, max_regression: 0.03 }]\n    when: [{ metric: brier, min_improvement: 0.01, direction: higher }]\n`;
    expect(problemsOf(term)).toEqual([
      expect.stringMatching(/^policies\/x\.yml:11:\d+ tradeoffs\[0\]\.when\[0\]\.direction: brier is better lower/),
    ]);
  });

  it('refuses a detect that is not above the budget, and detect, test or bounds where they do not apply', () => {
    const check = (lines: string) => `version: 1\nname: p\nchecks:\n  - metric: accuracy\n${lines}`;
    expect(problemsOf(check('    max_regression: 0.02\n    detect: 0.02\n'))).toEqual([
      "policies/x.yml:6:13 checks[0].detect: detect 0.02 must be above the check's max_regression 0.02",
    ]);
    expect(problemsOf(check('    max_regression: "2%"\n    detect: "1%"\n'))).toHaveLength(1);
    // Different units are compared at the gate, on the baseline's value.
    expect(problemsOf(check('    max_regression: 0.02\n    detect: "1%"\n'))).toEqual([]);
    expect(problemsOf(check('    min: 0.7\n    detect: 0.03\n'))).toEqual([
      'policies/x.yml:4:5 checks[0]: detect and test apply to a max_regression: this check has none',
    ]);
    expect(problemsOf(check('    max_regression: 0.02\n    detect: 0.05\n    test: non-inferiority\n'))).toEqual([
      'policies/x.yml:6:13 checks[0].detect: detect applies to the regression test: a non-inferiority check shows its claim or fails',
    ]);
    expect(problemsOf(check('    max_regression: 0.02\n    bounds: strict\n'))).toEqual([
      'policies/x.yml:4:5 checks[0]: bounds applies to min and max: this check has neither',
    ]);
  });

  it('refuses resample counts that cannot reach the corrected significance', () => {
    const checks = (n: number) =>
      Array.from({ length: n }, (_, i) => `  - metric: group_accuracy:g=${i}\n    max_regression: 0.01\n`).join('');
    // A policy that checks error_rate (a point bound: no test) has no built-in failure-rate test.
    const policy = (resamples: number, n: number, multiplicity = 'holm', errorRate = '  - metric: error_rate\n    max: 0.1\n') =>
      `version: 1\nname: p\nsettings:\n  resamples: ${resamples}\n  multiplicity: ${multiplicity}\nchecks:\n${checks(n)}${errorRate}`;
    // One test at 0.05: p >= 1/(B + 1) must get below 0.05, so B >= 20.
    expect(problemsOf(policy(19, 1))).toEqual([
      'policies/x.yml:4:14 settings.resamples: 19 resamples cannot reach significance 0.05: a p-value is at least 1/(resamples + 1); use at least 20',
    ]);
    expect(problemsOf(policy(20, 1))).toEqual([]);
    // Ten blocking tests under Holm: the smallest adjusted p is 10/(B + 1), so B >= 200.
    expect(problemsOf(policy(199, 10))).toEqual([
      'policies/x.yml:4:14 settings.resamples: 199 resamples cannot reach significance 0.05 over 10 tests (holm): a p-value is at least 1/(resamples + 1); use at least 200',
    ]);
    expect(problemsOf(policy(200, 10))).toEqual([]);
    // Without one, the built-in failure-rate test joins the blocking family: one check makes two tests.
    expect(problemsOf(policy(39, 1, 'holm', ''))).toEqual([
      'policies/x.yml:4:14 settings.resamples: 39 resamples cannot reach significance 0.05 over 2 tests (holm, one of them the built-in failure-rate test): a p-value is at least 1/(resamples + 1); use at least 40',
    ]);
    expect(problemsOf(policy(40, 1, 'holm', ''))).toEqual([]);
    expect(problemsOf(policy(20, 10, 'none'))).toEqual([]);
  });

  it('reports YAML syntax errors and empty files with their position', () => {
    expect(problemsOf('version: 1\nname: [oops\n')[0]).toMatch(/^policies\/x\.yml:\d+:\d+ /);
    expect(problemsOf('')).toEqual(['policies/x.yml:1:1 the file is empty']);
    expect(problemsOf('version: 2\nname: p\nchecks: []\n')).toEqual([
      'policies/x.yml:1:10 version: expected 1',
      'policies/x.yml:3:9 checks: too small: expected array to have >=1 items',
    ]);
  });

  it('has a JSON Schema for editors, with defaulted fields optional', () => {
    const schema = policyJsonSchema() as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required.sort()).toEqual(['checks', 'name', 'version']);
    expect(Object.keys(schema.properties)).toEqual(['version', 'name', 'description', 'settings', 'checks', 'tradeoffs']);
  });
});
