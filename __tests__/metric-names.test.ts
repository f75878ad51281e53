import { describe, expect, it } from '@jest/globals';
import { buildTable } from '../src/metrics/table.js';
import { formatMetricName, parseMetricName, reportedScope, scopeLabel, type MetricName } from '../src/metrics/names.js';
import { recordValue } from '../src/metrics/record-values.js';
import { lookupMetric } from '../src/metrics/registry.js';
import { parsePolicy } from '../src/policy/load.js';
import { type ConfigError } from '../src/errors.js';
import { Random } from '../src/stats/random.js';
import { metricsOf, record } from './helpers/records.js';

/** A name of every family for an attribute and a value. */
const namesOf = (attribute: string, value: string): MetricName[] => [
  { family: 'worst_group_accuracy', group: { attribute } },
  { family: 'group_accuracy_gap', group: { attribute } },
  { family: 'group_accuracy', group: { attribute, value } },
];

describe('metric names', () => {
  it('writes ordinary names as they always were', () => {
    expect(namesOf('dialect', 'aae').map(formatMetricName)).toEqual([
      'worst_group_accuracy:dialect',
      'group_accuracy_gap:dialect',
      'group_accuracy:dialect=aae',
    ]);
    expect(formatMetricName({ family: 'accuracy' })).toBe('accuracy');
    expect(formatMetricName({ family: 'group_accuracy', group: { attribute: 'a b.c/d', value: 'x-y_z é 😀' } })).toBe(
      'group_accuracy:a b.c/d=x-y_z é 😀',
    );
  });

  it('escapes only %, : and = in attributes and values', () => {
    expect(namesOf('region:eu', 'a=b').map(formatMetricName)).toEqual([
      'worst_group_accuracy:region%3Aeu',
      'group_accuracy_gap:region%3Aeu',
      'group_accuracy:region%3Aeu=a%3Db',
    ]);
    expect(formatMetricName({ family: 'group_accuracy', group: { attribute: '50%', value: '%3A' } })).toBe('group_accuracy:50%25=%253A');
  });

  it('reads back every attribute and value it writes, whatever their characters', () => {
    const random = new Random(20);
    const alphabet = ['%', ':', '=', '3', 'A', 'D', '2', '5', ' ', 'a', '\n', 'é'];
    const text = () => Array.from({ length: random.nextBelow(8) }, () => alphabet[random.nextBelow(alphabet.length)]).join('');
    const seen = new Map<string, string>();
    for (let i = 0; i < 3000; i++) {
      for (const name of namesOf(text(), text())) {
        const written = formatMetricName(name);
        expect(parseMetricName(written)).toEqual(name);
        // One name for each group: two groups never share a name.
        const key = JSON.stringify(name);
        expect(seen.get(written) ?? key).toBe(key);
        seen.set(written, key);
      }
    }
  });

  it('refuses a per-group name not written so, and reads any other name as a plain metric', () => {
    for (const bad of [
      'worst_group_accuracy',
      'group_accuracy',
      'group_accuracy:dialect',
      'group_accuracy:a=b=c',
      'group_accuracy:a:b=c',
      'worst_group_accuracy:region:eu',
      'worst_group_accuracy:a=b',
      'group_accuracy_gap:50%',
      'group_accuracy:a=%3a',
    ]) {
      expect(parseMetricName(bad)).toBeUndefined();
      expect(lookupMetric(bad)).toBeUndefined();
    }
    expect(parseMetricName('hellaswag/acc_norm')).toEqual({ family: 'hellaswag/acc_norm' });
    expect(parseMetricName('accuracy:x')).toEqual({ family: 'accuracy:x' });
    expect(lookupMetric('accuracy:x')).toBeUndefined();
    expect(lookupMetric('group_accuracy:region%3Aeu=a%3Db')?.name).toBe('group_accuracy');
    expect(lookupMetric('group_accuracy_gap:region%3Aeu')?.direction).toBe('lower');
  });

  it('names the metrics of any group so, and each reads its own records', () => {
    const groups = [
      { 'region:eu': 'a=b', 'x y': 'p%q' },
      { 'region:eu': 'a%3Db', 'x y': 'p%q' },
    ];
    const records = Array.from({ length: 40 }, (_, i) => record({ id: String(i), correct: i % 4 === 0 ? 0 : 1, groups: groups[i % 2] }));
    const metrics = metricsOf(records, 5).overall;
    const names = Object.keys(metrics).filter((name) => lookupMetric(name)?.dimension === 'fairness');
    // "x y" has one value: no worst group or gap without two groups.
    expect(names.sort()).toEqual([
      'group_accuracy:region%3Aeu=a%253Db',
      'group_accuracy:region%3Aeu=a%3Db',
      'group_accuracy:x y=p%25q',
      'group_accuracy_gap:region%3Aeu',
      'worst_group_accuracy:region%3Aeu',
    ]);
    // Every even record is in "a=b" and a quarter of records are wrong: the even ones with i % 4 === 0.
    expect(metrics['group_accuracy:region%3Aeu=a%3Db'].value).toBe(0.5);
    expect(metrics['group_accuracy:region%3Aeu=a%253Db'].value).toBe(1);
    expect(metrics['group_accuracy_gap:region%3Aeu'].value).toBe(0.5);
    const table = buildTable(records);
    const value = recordValue(table, 'group_accuracy:region%3Aeu=a%253Db')!;
    expect(Array.from({ length: 4 }, (_, row) => value(row))).toEqual([undefined, 1, undefined, 1]);
    expect(recordValue(table, 'group_accuracy:region%3Aeu=nope')!(0)).toBeUndefined();
  });
});

describe('scopes', () => {
  it('tell the pooled scope from a scenario called "overall", in reports of every age', () => {
    expect(scopeLabel({ kind: 'pooled' })).toBe('overall');
    expect(scopeLabel({ kind: 'scenario', scenario: 'overall' })).toBe('scenario overall');
    expect(scopeLabel({ kind: 'scenario', scenario: 'billing' })).toBe('billing');
    expect(reportedScope({ scope: 'overall', scopeKind: 'scenario' })).toEqual({ kind: 'scenario', scenario: 'overall' });
    expect(reportedScope({ scope: 'overall', scopeKind: 'pooled' })).toEqual({ kind: 'pooled' });
    // A report written before scopeKind: "overall" was the pooled scope.
    expect(reportedScope({ scope: 'overall' })).toEqual({ kind: 'pooled' });
    expect(reportedScope({ scope: 'billing' })).toEqual({ kind: 'scenario', scenario: 'billing' });
  });
});

describe('a policy naming a group', () => {
  const problems = (text: string) => {
    try {
      parsePolicy(`version: 1\nname: t\nchecks:\n${text}`, 'p.yml');
      return [];
    } catch (error) {
      return (error as ConfigError).problems;
    }
  };

  it('by its parts reads as the name with its separators escaped, in checks and trade-offs', () => {
    const text = [
      'checks:',
      '  - metric: group_accuracy',
      '    group: { attribute: "region:eu", value: "a=b" }',
      '    min: 0.5',
      '  - metric: worst_group_accuracy',
      '    group: { attribute: "region:eu" }',
      '    max_regression: 0.05',
      '  - metric: group_accuracy_gap:region%3Aeu',
      '    max: 0.1',
      'tradeoffs:',
      '  - name: t',
      '    allow: [{ metric: worst_group_accuracy:region%3Aeu, max_regression: 0.1 }]',
      '    when: [{ metric: group_accuracy, group: { attribute: "region:eu", value: "a=b" }, min_improvement: 0.01 }]',
    ].join('\n');
    const { policy } = parsePolicy(`version: 1\nname: t\n${text}\n`, 'p.yml');
    expect(policy.checks.map((check) => check.metric)).toEqual([
      'group_accuracy:region%3Aeu=a%3Db',
      'worst_group_accuracy:region%3Aeu',
      'group_accuracy_gap:region%3Aeu',
    ]);
    expect(policy.tradeoffs[0].when[0].metric).toBe('group_accuracy:region%3Aeu=a%3Db');
  });

  it('reports a group that does not fit its metric, and a name not escaped, at their line and column', () => {
    expect(
      problems(
        [
          '  - metric: group_accuracy',
          '    group: { attribute: x }',
          '    min: 0.1',
          '  - metric: group_accuracy_gap',
          '    group: { attribute: x, value: y }',
          '    max: 0.1',
          '  - metric: accuracy',
          '    group: { attribute: x }',
          '    min: 0.1',
          '  - metric: group_accuracy:a=b',
          '    group: { attribute: x, value: y }',
          '    min: 0.1',
          '  - metric: worst_group_accuracy:region:eu',
          '    min: 0.1',
          '  - metric: group_accuracy',
          '    group: { attribute: 7, value: y }',
          '    min: 0.1',
          '  - metric: group_accuracy:region:eu=a',
          '    direction: higher',
          '    min: 0.1',
          '  - metric: worst_grup_accuracy:region:eu',
          '    min: 0.1',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      "p.yml:5:12 checks[0].group: group_accuracy is one group's accuracy: give its value too",
      'p.yml:8:35 checks[1].group.value: group_accuracy_gap takes an attribute, no value',
      'p.yml:11:12 checks[2].group: accuracy has no group (group goes with worst_group_accuracy, group_accuracy_gap, group_accuracy)',
      'p.yml:14:12 checks[3].group: group_accuracy:a=b names its group already: give it in metric or in group, not both',
      'p.yml:16:13 checks[4].metric: malformed metric name "worst_group_accuracy:region:eu" (did you mean worst_group_accuracy:region%3Aeu?): ' +
        "the form is worst_group_accuracy:<attr>; in a group's attribute and value write % as %25, : as %3A and = as %3D, or name it with group: {attribute, value}",
      'p.yml:19:25 checks[5].group.attribute: expected string, received number',
      // A direction names another tool's metric, never a per-group family's malformed name.
      'p.yml:21:13 checks[6].metric: malformed metric name "group_accuracy:region:eu=a" (did you mean group_accuracy:region%3Aeu=a?): ' +
        "the form is group_accuracy:<attr>=<value>; in a group's attribute and value write % as %25, : as %3A and = as %3D, or name it with group: {attribute, value}",
      // A misspelt family: the suggestion is a name that reads (escaped), not the malformed one again.
      'p.yml:24:13 checks[7].metric: unknown metric "worst_grup_accuracy:region:eu" (did you mean worst_group_accuracy:region%3Aeu?)',
    ]);
  });
});
