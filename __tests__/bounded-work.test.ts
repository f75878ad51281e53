import { describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_ARCHIVE_BYTES,
  MAX_ARCHIVE_ENTRIES,
  MAX_COMPRESSION_RATIO,
  MAX_GROUP_ATTRIBUTES,
  MAX_GROUPS,
  MAX_INTERVAL_SCENARIOS,
  MAX_PERTURBATIONS_PER_INSTANCE,
  MAX_SAMPLES_PER_EXAMPLE,
  MAX_SCENARIOS,
} from '../src/limits.js';
import { ACTION_NODE, actionEnvironment, useFakeGitHub } from './helpers/action.js';
import { evalgate } from './helpers/evalgate.js';
import type { FakeGitHub } from './helpers/github-server.js';
import { writeInflatingArchive } from './helpers/inspect-logs.js';
import { measured, type MeasureOptions } from './helpers/measured.js';
import { tempDir } from './helpers/records.js';

/*
 * Work bounded on any input, through the bundled CLI: a file of 20,000 one-instance scenarios is gated
 * in seconds (intervals for the scopes the checks and the reports use, up to MAX_INTERVAL_SCENARIOS),
 * what lies past a cap is refused at its line, and an archive that would decompress to gigabytes is
 * refused before it is decompressed.
 */

/** Lines of JSON in a new file. */
function writeRecords(name: string, records: object[]): string {
  const file = join(tempDir(), name);
  writeFileSync(file, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  return file;
}

const scenarioName = (index: number) => `s${String(index).padStart(5, '0')}`;

/** One record in each of `count` scenarios; `shift` moves which are right (a candidate unlike its baseline). */
function oneInstanceScenarios(count: number, shift = 0): object[] {
  return Array.from({ length: count }, (_, index) => ({
    scenario: scenarioName(index),
    id: 'q',
    correct: (index + shift) % 10 < 7 ? 1 : 0,
    confidence: ((index * 37) % 100) / 100,
    latency_ms: 100 + ((index * 53) % 400),
  }));
}

const MiB = 1024 * 1024;

describe('20,000 one-instance scenarios', () => {
  const count = MAX_SCENARIOS;
  const last = scenarioName(count - 1);

  it('are gated against a baseline, with every report, within 30 s of CPU and under 1 GB', async () => {
    const candidate = writeRecords('candidate.jsonl', oneInstanceScenarios(count));
    const baseline = writeRecords('baseline.jsonl', oneInstanceScenarios(count, 1));
    const dir = tempDir();
    const policy = join(dir, 'policy.yml');
    writeFileSync(
      policy,
      [
        'version: 1',
        'name: many',
        'checks:',
        '  - metric: accuracy',
        '    min: 0.5',
        '    max_regression: 0.05',
        '  - metric: ece',
        `    scenario: ${last}`,
        '    max: 1',
        '  - metric: latency_p95_ms',
        '    max_regression: 20%',
        '',
      ].join('\n'),
    );
    const [json, markdown, html] = ['report.json', 'comment.md', 'report.html'].map((name) => join(dir, name));
    const args = ['gate', '--policy', policy, '--candidate', candidate, '--baseline', baseline, '--json', json, '--markdown', markdown];
    const result = await measured('dist/cli.js', [...args, '--html', html], { killAfterMs: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.cpuSeconds).toBeLessThan(30);
    expect(result.peakMiB).toBeLessThan(1024);

    const report = JSON.parse(readFileSync(json, 'utf8'));
    // The checks' scopes have their intervals, and so have the first scenarios, up to the limit.
    expect(report.checks.map((check: { candidate: { ci: unknown } }) => check.candidate.ci)).not.toContain(null);
    expect(report.checks[0].comparison).toMatchObject({ method: 'paired', shared: count });
    expect(report.scenarios[last].ece.ci).not.toBeNull();
    expect(report.scenarios[scenarioName(0)].accuracy.ci).not.toBeNull();
    expect(report.scenarios[scenarioName(MAX_INTERVAL_SCENARIOS - 2)].accuracy.ci).not.toBeNull();
    // The rest are point estimates, and every report says how many.
    expect(report.scenarios[scenarioName(MAX_INTERVAL_SCENARIOS - 1)].accuracy).toEqual({ value: expect.any(Number), ci: null, n: 1 });
    expect(Object.keys(report.scenarios)).toHaveLength(count);
    const without = count - MAX_INTERVAL_SCENARIOS;
    expect(report.scenariosWithoutIntervals).toBe(without);
    const note = `${without} of the ${count} scenarios have point estimates only, no intervals`;
    expect(readFileSync(markdown, 'utf8')).toContain(note);
    expect(readFileSync(html, 'utf8')).toContain(note);
  }, 90_000);

  it('have their metrics computed within 30 s of CPU, intervals for the first ones, and the output says so', async () => {
    const records = writeRecords('records.jsonl', oneInstanceScenarios(count));
    const result = await measured('dist/cli.js', ['metrics', '--json', records], { killAfterMs: 60_000 });
    expect(result.code).toBe(0);
    expect(result.cpuSeconds).toBeLessThan(30);
    const metrics = JSON.parse(result.stdout);
    expect(metrics.scenariosWithoutIntervals).toBe(count - MAX_INTERVAL_SCENARIOS);
    expect(metrics.scenarios[scenarioName(MAX_INTERVAL_SCENARIOS - 1)].accuracy.ci).not.toBeNull();
    expect(metrics.scenarios[scenarioName(MAX_INTERVAL_SCENARIOS)].accuracy.ci).toBeNull();

    const text = await evalgate(['metrics', '--resamples', '10', records]);
    expect(text.stdout.split('\n')[0]).toBe(
      `note: ${count - MAX_INTERVAL_SCENARIOS} of the ${count} scenarios have point estimates only, no intervals: intervals are ` +
        `computed for at most ${MAX_INTERVAL_SCENARIOS} scenarios (those the checks name, then the first in order; docs/record-format.md#limits)`,
    );
  }, 90_000);
  it('and one more is refused at the line that opens it', async () => {
    const over = writeRecords('over.jsonl', oneInstanceScenarios(count + 1));
    const refused = await evalgate(['metrics', '--resamples', '0', over]);
    expect(refused.stderr).toBe(
      `evalgate: ${over}:${count + 1}: "scenario": more than ${count} scenarios (the limit: docs/record-format.md#limits)\n`,
    );
    expect(refused.code).toBe(2);
  });
});

describe('what lies past a cap is refused at its line, what is at it is read', () => {
  const perturbed = (index: number) => ({ scenario: 's', id: 'q', perturbation: { name: `p${index}`, kind: 'robustness' }, correct: 1 });
  const cases: Array<[string, (over: boolean) => object[], string]> = [
    [
      'groups',
      (over) =>
        Array.from({ length: MAX_GROUPS + (over ? 1 : 0) }, (_, index) => ({
          scenario: 's',
          id: `${index}`,
          correct: 1,
          groups: { user: `u${index}` },
        })),
      `${MAX_GROUPS + 1}: "groups.user": more than ${MAX_GROUPS} groups (attribute and value pairs): a group is a category many records share, not an identifier`,
    ],
    [
      'group attributes',
      (over) => [
        {
          scenario: 's',
          id: 'q',
          correct: 1,
          groups: Object.fromEntries(Array.from({ length: MAX_GROUP_ATTRIBUTES + (over ? 1 : 0) }, (_, index) => [`a${index}`, 'x'])),
        },
      ],
      `1: "groups": more than ${MAX_GROUP_ATTRIBUTES} attributes`,
    ],
    [
      'perturbations of an instance',
      (over) => [
        { scenario: 's', id: 'q', correct: 1 },
        ...Array.from({ length: MAX_PERTURBATIONS_PER_INSTANCE + (over ? 1 : 0) }, (_, index) => perturbed(index)),
      ],
      `${MAX_PERTURBATIONS_PER_INSTANCE + 2}: "perturbation.name": s/q has more than ${MAX_PERTURBATIONS_PER_INSTANCE} perturbations`,
    ],
    [
      'samples of an example',
      (over) =>
        Array.from({ length: MAX_SAMPLES_PER_EXAMPLE + (over ? 1 : 0) }, (_, index) => ({
          scenario: 's',
          id: 'q',
          sample: index,
          correct: 1,
        })),
      `${MAX_SAMPLES_PER_EXAMPLE + 1}: "sample": s/q has more than ${MAX_SAMPLES_PER_EXAMPLE} samples`,
    ],
  ];

  it.each(cases)(
    '%s',
    async (_, records, message) => {
      const over = writeRecords('over.jsonl', records(true));
      const refused = await evalgate(['metrics', '--resamples', '0', over]);
      expect(refused.stderr).toBe(`evalgate: ${over}:${message} (the limit: docs/record-format.md#limits)\n`);
      expect(refused.code).toBe(2);
      const at = writeRecords('at.jsonl', records(false));
      const read = await evalgate(['metrics', '--resamples', '0', '--json', at]);
      expect(read.stderr).toBe('');
      expect(read.code).toBe(0);
    },
    30_000,
  );
});

describe('an Inspect archive that would decompress to gigabytes', () => {
  const importArchive = (file: string) =>
    measured('dist/cli.js', ['import', '--from', 'inspect', file, '--out', join(tempDir(), 'out.jsonl')], { killAfterMs: 60_000 });

  it('of 2 MB, five entries of 400 MiB each, truthfully declared, is refused within 5 s before anything is decompressed', async () => {
    const entries = Array.from({ length: 5 }, (_, index) => ({ name: `samples/${index + 1}_epoch_1.json`, mebibytes: 400 }));
    const file = writeInflatingArchive(join(tempDir(), 'bomb.eval'), entries);
    expect(readFileSync(file).length).toBeLessThan(2.5 * MiB);
    const result = await importArchive(file);
    expect(result.stderr).toMatch(
      new RegExp(
        `^evalgate: ${file} \\(samples/1_epoch_1\\.json\\): decompresses to ${400 * MiB} bytes from \\d+: more than the ${MAX_COMPRESSION_RATIO} times its size an entry may \\(a zip bomb\\?\\)\\n$`,
      ),
    );
    expect(result.code).toBe(2);
    expect(result.seconds).toBeLessThan(5);
  }, 90_000);

  it('is refused past 1 GiB in all, though no entry compresses much', async () => {
    // Three entries of 400 MiB at about 100 times: 12 MB of archive, 1.2 GiB decompressed.
    const entries = Array.from({ length: 3 }, (_, index) => ({ name: `samples/${index + 1}_epoch_1.json`, mebibytes: 400, padding: 2000 }));
    const file = writeInflatingArchive(join(tempDir(), 'large.eval'), entries);
    const result = await importArchive(file);
    const [, total] = /^evalgate: .*: decompresses to (\d+) bytes in all: /.exec(result.stderr) ?? [];
    expect(result.stderr).toBe(
      `evalgate: ${file}: decompresses to ${total} bytes in all: more than the 1024 MiB (${MAX_ARCHIVE_BYTES} bytes) an archive may\n`,
    );
    // The three entries and header.json.
    expect(Number(total) - 1200 * MiB).toBeGreaterThan(0);
    expect(Number(total) - 1200 * MiB).toBeLessThan(1000);
    expect(result.code).toBe(2);
    expect(result.seconds).toBeLessThan(5);
  }, 90_000);

  it(`is refused past ${MAX_ARCHIVE_ENTRIES} entries, before it lists them`, async () => {
    const file = writeInflatingArchive(join(tempDir(), 'many.eval'), [], MAX_ARCHIVE_ENTRIES);
    const result = await importArchive(file);
    expect(result.stderr).toBe(
      `evalgate: ${file}: ${MAX_ARCHIVE_ENTRIES + 1} entries: more than the ${MAX_ARCHIVE_ENTRIES} an archive may hold\n`,
    );
    expect(result.code).toBe(2);
  }, 90_000);
});

describe('a signal stops evalgate within a second, even in the middle of a computation', () => {
  let github: FakeGitHub;
  useFakeGitHub((server) => (github = server));

  /** A run of 2,000 instances, and a policy whose million resamples keep a gate busy for minutes. */
  function longGate(): { policy: string; candidate: string } {
    const candidate = writeRecords(
      'candidate.jsonl',
      Array.from({ length: 2000 }, (_, index) => ({ scenario: 's', id: `${index}`, correct: index % 3 === 0 ? 0 : 1, confidence: 0.5 })),
    );
    const policy = join(tempDir(), 'policy.yml');
    writeFileSync(policy, 'version: 1\nname: long\nsettings:\n  resamples: 1000000\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
    return { policy, candidate };
  }

  /** Sends SIGTERM two seconds after the start (the records are read by then; the bootstrap has begun). */
  function terminateLater(): { options: Pick<MeasureOptions, 'onStart'>; sentAt: () => number } {
    let sentAt = 0;
    const onStart = (child: ChildProcess) =>
      setTimeout(() => {
        sentAt = Date.now();
        child.kill('SIGTERM');
      }, 2000);
    return { options: { onStart }, sentAt: () => sentAt };
  }

  it('the CLI', async () => {
    const { policy, candidate } = longGate();
    const signal = terminateLater();
    const result = await measured('dist/cli.js', ['gate', '--policy', policy, '--candidate', candidate], {
      killAfterMs: 15_000,
      ...signal.options,
    });
    expect(result.signal).toBe('SIGTERM');
    expect(result.endedAt - signal.sentAt()).toBeLessThan(1000);
  }, 30_000);

  it('the action', async () => {
    const { policy, candidate } = longGate();
    const { env } = actionEnvironment(github, { event: 'push', inputs: { policy, candidate } });
    const signal = terminateLater();
    const result = await measured('dist/index.js', [], { node: ACTION_NODE, env, killAfterMs: 15_000, ...signal.options });
    expect(result.signal).toBe('SIGTERM');
    expect(result.endedAt - signal.sentAt()).toBeLessThan(1000);
  }, 30_000);
});

describe('100,000s of items are never spread into arguments (the stack overflowed past about 120,000)', () => {
  const many = 150_000;

  it('diff lists 150,000 flips of one scenario', async () => {
    const run = (correct: number) => Array.from({ length: many }, (_, index) => ({ scenario: 's', id: `${index}`, correct }));
    const candidate = writeRecords('candidate.jsonl', run(0));
    const baseline = writeRecords('baseline.jsonl', run(1));
    const result = await evalgate(['diff', '--candidate', candidate, '--baseline', baseline, '--limit', String(many), '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [scenario] = JSON.parse(result.stdout).scenarios;
    expect(scenario.broken).toHaveLength(many);
    expect(scenario.broken[many - 1].candidate.line).toBe(many);
  }, 60_000);

  it('import --from lm-eval reads a task of 150,000 documents', async () => {
    const file = join(tempDir(), 'samples_big_2026-12-01T00-00-00.000000.jsonl');
    const line = (index: number) =>
      JSON.stringify({
        doc_id: index,
        target: 'a',
        resps: [['a']],
        filtered_resps: ['a'],
        filter: 'none',
        metrics: ['exact_match'],
        exact_match: 1,
      });
    writeFileSync(file, Array.from({ length: many }, (_, index) => line(index)).join('\n') + '\n');
    const out = join(tempDir(), 'records.jsonl');
    const result = await evalgate(['import', '--from', 'lm-eval', file, '--out', out]);
    expect(result.code).toBe(0);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(many);
  }, 60_000);
});
