import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceChanges } from '../src/metrics/changes.js';
import { buildTable } from '../src/metrics/table.js';
import { describeChanges } from '../src/pipeline/instance-changes.js';
import type { InstanceChangesReport } from '../src/report/changes.js';
import type { GateReport } from '../src/report/json.js';
import { loadRun } from '../src/runs/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { evalgate, unwrapped } from './helpers/evalgate.js';
import { countFlips, totalFlips } from './helpers/flips.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/*
 * What changed instance by instance: the counts and flips on hand-worked runs, the texts read back
 * from the files, and `evalgate diff` through the bundled CLI.
 */

const typos = { name: 'typos', kind: 'robustness' } as const;
const dialect = { name: 'dialect', kind: 'fairness' } as const;
const ids = (flips: Array<{ id: string; perturbation: string | null }>) =>
  flips.map((flip) => (flip.perturbation ? `${flip.id} (${flip.perturbation})` : flip.id));

describe('the changes between two runs', () => {
  // s/1 breaks, s/2 is fixed, s/3 stays right, s/4 failed in the candidate, s/5 and s/7 are in one run only, s/6 breaks.
  const baseline = [
    record({ id: '1' }),
    record({ id: '1', perturbation: typos }),
    record({ id: '2', correct: 0 }),
    record({ id: '3' }),
    record({ id: '4', correct: 0 }),
    record({ id: '5' }),
    record({ id: '6' }),
  ];
  const candidate: EvalRecord[] = [
    record({ id: '7', correct: 0 }),
    record({ id: '1', correct: 0 }),
    record({ id: '1', perturbation: typos }),
    record({ id: '1', perturbation: dialect, correct: 0 }), // the baseline has no dialect variant
    record({ id: '2' }),
    record({ id: '3' }),
    { scenario: 's', id: '4', error: 'HTTP 429' },
    record({ id: '6', correct: 0 }),
    record({ scenario: 't', id: '1', correct: 0 }), // another scenario, not in the baseline
  ];

  it('counts flips per scenario, for the originals and each perturbation, on the examples both runs answered', () => {
    const changes = instanceChanges(buildTable(candidate), buildTable(baseline), { limit: 5 });
    expect(changes.rightAt).toBe(0.5);
    expect(changes.scenarios.map((scope) => scope.scenario)).toEqual(['s']);
    const [scope] = changes.scenarios;
    expect(scope.variants).toEqual([
      { perturbation: null, compared: 4, rightToWrong: 2, wrongToRight: 1 },
      { perturbation: 'typos', compared: 1, rightToWrong: 0, wrongToRight: 0 },
    ]);
    expect(ids(scope.broken)).toEqual(['1', '6']); // the candidate's file order
    expect(ids(scope.fixed)).toEqual(['2']);
    expect(scope.broken[0]).toMatchObject({ candidate: { correct: 0, samples: 1, row: 1 }, baseline: { correct: 1, samples: 1, row: 0 } });
  });

  it('lists at most `limit` flips per direction, and one scenario when asked', () => {
    const table = buildTable(candidate);
    const limited = instanceChanges(table, buildTable(baseline), { limit: 1 });
    expect(ids(limited.scenarios[0].broken)).toEqual(['1']);
    expect(limited.scenarios[0].variants[0].rightToWrong).toBe(2); // the counts are all of them
    expect(instanceChanges(table, buildTable(baseline), { limit: 5, scenario: 't' }).scenarios).toEqual([]);
  });

  it('scores an example by the mean of its answered samples, right from 0.5, and lists the largest changes first', () => {
    const samples = (id: string, values: Array<number | 'error'>) =>
      values.map((value, sample) =>
        value === 'error' ? ({ scenario: 's', id, sample, error: 'timeout' } as EvalRecord) : record({ id, sample, correct: value }),
      );
    const before = [
      ...samples('a', [1, 1, 1]),
      ...samples('b', [1, 0]),
      ...samples('c', [1, 1]),
      ...samples('d', [0.6]),
      ...samples('e', [0.4]),
      ...samples('f', [0]),
      ...samples('g', [1]),
    ];
    const after = [
      ...samples('a', [1, 0, 0]),
      ...samples('b', [0, 0]),
      ...samples('c', [0, 0]),
      ...samples('d', [0.4]),
      ...samples('e', [0.5]),
      ...samples('f', ['error', 1]),
      ...samples('g', [0]),
    ];
    const candidateTable = buildTable(after);
    const [scope] = instanceChanges(candidateTable, buildTable(before), { limit: 10 }).scenarios;
    // c and g change by 1 (c first: file order), a by 2/3, b by 1/2 (0.5 is right), d by 0.2 (partial credit).
    expect(ids(scope.broken)).toEqual(['c', 'g', 'a', 'b', 'd']);
    expect(ids(scope.fixed)).toEqual(['f', 'e']); // f by 1 (its failed sample left out), e by 0.1
    const a = scope.broken[2];
    expect(a.candidate.correct).toBeCloseTo(1 / 3, 12);
    expect([a.candidate.samples, a.baseline.samples]).toEqual([3, 3]);
    // The candidate's record shown is its first wrong sample (sample 1), the baseline's its first right one.
    expect([candidateTable.examples.lineOf[a.candidate.row], a.baseline.row]).toEqual([2, 0]);
    expect(scope.fixed[0]).toMatchObject({ candidate: { correct: 1, samples: 1 }, baseline: { correct: 0, samples: 1 } });
  });
});

describe('the texts of the flips shown', () => {
  it('come from the lines of the files, cut to 300 characters, across chunk boundaries, BOM and CRLF', async () => {
    // 700 instances of about 3 kB: the file spans several 1 MiB chunks, so some records straddle two.
    const long = (i: number) => `${'é🙂'.repeat(i % 7)}question ${i} ${'x'.repeat(3000)}`;
    const baselineRecords = Array.from({ length: 700 }, (_, i) =>
      record({ id: `q${i}`, correct: 1, input: long(i), prediction: `right ${i}`, references: ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'] }),
    );
    const candidateRecords = baselineRecords.map((r, i) => ({ ...r, correct: 0, prediction: `wrong ${i} ${'y'.repeat(400)}` }));
    const dir = tempDir();
    const baselineFile = join(dir, 'baseline.jsonl');
    writeFileSync(baselineFile, `\ufeff${baselineRecords.map((r) => JSON.stringify(r)).join('\r\n')}\r\n`);
    const candidateFile = writeLines('candidate.jsonl', candidateRecords);
    const [candidate, baseline] = await Promise.all([loadRun(candidateFile), loadRun(baselineFile)]);
    const changes = await describeChanges(candidate as never, baseline as never, { limit: 700 });
    const broken = changes.scenarios[0].broken;
    expect(broken).toHaveLength(700);
    broken.forEach((flip, i) => {
      expect(flip.id).toBe(`q${i}`);
      const input = long(i);
      expect(flip.input).toBe(`${input.slice(0, 299)}…`);
      expect(flip.baseline).toEqual({ correct: 1, samples: 1, line: i + 1, prediction: `right ${i}` });
      expect(flip.candidate.prediction).toBe(`wrong ${i} ${'y'.repeat(400)}`.slice(0, 299) + '…');
      expect(flip.references).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    });
  });

  it('are cut without splitting a character in two', async () => {
    const baselineFile = writeLines('baseline.jsonl', [record({ id: '1', prediction: `${'a'.repeat(298)}🙂🙂` })]);
    const candidateFile = writeLines('candidate.jsonl', [record({ id: '1', correct: 0, prediction: `${'a'.repeat(297)}🙂🙂` })]);
    const [candidate, baseline] = await Promise.all([loadRun(candidateFile), loadRun(baselineFile)]);
    const [flip] = (await describeChanges(candidate as never, baseline as never)).scenarios[0].broken;
    expect([flip.baseline.prediction, flip.candidate.prediction]).toEqual([`${'a'.repeat(298)}…`, `${'a'.repeat(297)}🙂…`]);
  });

  it('fail closed when a file changed between the two passes', async () => {
    const baselineFile = writeLines('baseline.jsonl', [record({ id: '1' }), record({ id: '2' })]);
    const candidateFile = writeLines('candidate.jsonl', [
      record({ id: '1', correct: 0, input: { messages: ['hi'] } }),
      record({ id: '2' }),
    ]);
    const [candidate, baseline] = await Promise.all([loadRun(candidateFile), loadRun(baselineFile)]);
    const shown = await describeChanges(candidate as never, baseline as never);
    expect(shown.scenarios[0].broken[0]).toMatchObject({ input: '{"messages":["hi"]}', references: [] }); // an input that is not a string: as JSON
    writeFileSync(candidateFile, `${JSON.stringify(record({ id: '2' }))}\n${JSON.stringify(record({ id: '1', correct: 0 }))}\n`);
    await expect(describeChanges(candidate as never, baseline as never)).rejects.toThrow(
      `${candidateFile}:1: changed while evalgate read it (another example is on this line now): run evalgate again`,
    );
    writeFileSync(candidateFile, '{"scenario": "s", "id": ');
    await expect(describeChanges(candidate as never, baseline as never)).rejects.toThrow(
      `${candidateFile}:1: changed while evalgate read it`,
    );
    writeFileSync(candidateFile, '');
    await expect(describeChanges(candidate as never, baseline as never)).rejects.toThrow(
      `${candidateFile}: changed while evalgate read it`,
    );
    // A line over the bound that the first pass held every line to: refused as it grows, not gathered whole.
    writeFileSync(candidateFile, `{"scenario": "s", "id": "1", "prediction": "${'x'.repeat(17 * 1024 * 1024)}"}\n`);
    await expect(describeChanges(candidate as never, baseline as never)).rejects.toThrow(
      `${candidateFile}:1: changed while evalgate read it (a line longer than 16 MiB (16777216 bytes)): run evalgate again`,
    );
  });
});

const EXAMPLE = {
  a: 'examples/billing/candidate-a.jsonl',
  b: 'examples/billing/candidate-b.jsonl',
  baseline: 'examples/billing/baseline.jsonl',
};

describe('evalgate diff', () => {
  it('shows what changed on the example in both directions, as the files say', async () => {
    for (const candidate of [EXAMPLE.a, EXAMPLE.b]) {
      const result = await evalgate(['diff', '--candidate', candidate, '--baseline', EXAMPLE.baseline, '--json']);
      expect([result.code, result.stderr]).toEqual([0, '']);
      const changes = JSON.parse(result.stdout) as InstanceChangesReport & { candidate: string; baseline: string };
      expect([changes.candidate, changes.baseline, changes.limit, changes.textLength]).toEqual([candidate, EXAMPLE.baseline, 5, 300]);
      const expected = countFlips(candidate, EXAMPLE.baseline);
      const found = Object.fromEntries(
        changes.scenarios.flatMap((scope) =>
          scope.variants.map(({ perturbation, ...counts }) => [`${scope.scenario}/${perturbation ?? ''}`, counts]),
        ),
      );
      expect(found).toEqual(expected);
      const total = totalFlips(expected);
      expect(total.rightToWrong).toBeGreaterThan(20); // a new model breaks some examples ...
      expect(total.wrongToRight).toBeGreaterThan(total.rightToWrong); // ... and fixes more
      for (const scope of changes.scenarios) {
        expect(scope.broken).toHaveLength(5);
        expect(scope.fixed).toHaveLength(5);
        // The texts are the records' at the lines given.
        const lines = readFileSync(candidate, 'utf8').split('\n');
        for (const flip of scope.broken) {
          const shown = JSON.parse(lines[flip.candidate.line - 1]) as EvalRecord;
          expect([shown.id, shown.correct, shown.prediction, shown.input]).toEqual([flip.id, 0, flip.candidate.prediction, flip.input]);
        }
      }
    }
  });

  it('prints the counts and the examples for a terminal, for one scenario and a limit', async () => {
    const result = await evalgate([
      'diff',
      '--candidate',
      EXAMPLE.a,
      '--baseline',
      EXAMPLE.baseline,
      '--scenario',
      'refunds',
      '--limit',
      '2',
    ]);
    expect(result.code).toBe(0);
    const refunds = countFlips(EXAMPLE.a, EXAMPLE.baseline)['refunds/'];
    expect(result.stdout).toContain(`evalgate diff: candidate ${EXAMPLE.a} against baseline ${EXAMPLE.baseline}`);
    expect(result.stdout).toMatch(
      new RegExp(`\\| refunds +\\| originals +\\| +${refunds.compared} \\| +${refunds.rightToWrong} \\| +${refunds.wrongToRight} \\|`),
    );
    expect(result.stdout).not.toContain('| billing ');
    expect(result.stdout).toMatch(
      /refunds · right → wrong: \d+, the 2 that changed most\n {2}q\d+.*: baseline 1 → candidate 0 \(baseline line \d+/,
    );
    expect(result.stdout.match(/^ {4}input: /gm)).toHaveLength(4);
    const none = await evalgate(['diff', '--candidate', EXAMPLE.a, '--baseline', EXAMPLE.baseline, '--limit', '0']);
    expect(none.stdout).toContain('right → wrong: ');
    expect(none.stdout).not.toContain('input:');
  });

  it('exits 2 on bad input, with nothing on stdout', async () => {
    const metricsFile = join(tempDir(), 'metrics.json');
    writeFileSync(metricsFile, (await evalgate(['metrics', EXAMPLE.baseline, '--json', '--resamples', '0'])).stdout);
    const cases: Array<[string[], string]> = [
      [['--candidate', metricsFile, '--baseline', EXAMPLE.baseline], `${metricsFile}: is a metrics file (summary numbers)`],
      [['--candidate', EXAMPLE.a, '--baseline', 'missing.jsonl'], 'missing.jsonl: no such file'],
      [
        ['--candidate', EXAMPLE.a, '--baseline', EXAMPLE.baseline, '--scenario', 'refund'],
        '--scenario "refund" is not a scenario of both runs (they share "billing", "billing-exceptions", "refunds")',
      ],
      [['--candidate', EXAMPLE.a, '--baseline', EXAMPLE.baseline, '--limit', 'all'], 'expected an integer from 0'],
      [['--candidate', EXAMPLE.a], "required option '--baseline <file>' not specified"],
    ];
    for (const [args, message] of cases) {
      const result = await evalgate(['diff', ...args]);
      expect([result.code, result.stdout, result.stderr.includes(message)]).toEqual([2, '', true]);
    }
  });
});

describe('the gate report', () => {
  it('carries the changes when both runs are records files, and not otherwise', async () => {
    const dir = tempDir();
    const policy = join(dir, 'policy.yml');
    writeFileSync(policy, 'version: 1\nname: t\nsettings:\n  resamples: 100\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
    const gate = async (...runs: string[]) => {
      const out = join(dir, 'report.json');
      const result = await evalgate(['gate', '--policy', policy, '--candidate', ...runs, '--json', out]);
      return { ...result, report: JSON.parse(readFileSync(out, 'utf8')) as GateReport };
    };
    const paired = await gate(EXAMPLE.a, '--baseline', EXAMPLE.baseline);
    expect(paired.report.changes?.scenarios.map((scope) => scope.scenario)).toEqual(['billing', 'billing-exceptions', 'refunds']);
    const total = totalFlips(countFlips(EXAMPLE.a, EXAMPLE.baseline));
    expect(unwrapped(paired.stdout)).toContain(
      `What changed, instance by instance: ${total.rightToWrong} right → wrong, ${total.wrongToRight} wrong → right of ${total.compared} examples both runs answered`,
    );
    const metricsFile = join(dir, 'metrics.json');
    writeFileSync(metricsFile, (await evalgate(['metrics', EXAMPLE.baseline, '--json', '--resamples', '0'])).stdout);
    expect((await gate(EXAMPLE.a, '--baseline', metricsFile)).report.changes).toBeNull();
    const alone = await gate(EXAMPLE.a);
    expect(alone.report.changes).toBeNull();
    expect(alone.stdout).not.toContain('What changed');
  });
});
