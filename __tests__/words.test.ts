import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { evaluateGate } from '../src/gate/evaluate.js';
import { checkStatusSchema } from '../src/gate/types.js';
import { buildTable } from '../src/metrics/table.js';
import { parsePolicy } from '../src/policy/load.js';
import type { EvalRecord } from '../src/records/types.js';
import { DECISION, decisionLabel, STATUS_WORDS, statusLabel } from '../src/report/words.js';
import { record, tempDir, writeLines } from './helpers/records.js';

/* The gate's words, defined once (src/report/words.ts), and units on the numbers of its reasons. */

const records = (n: number, wrong: (i: number) => boolean, extra: (i: number) => Partial<EvalRecord> = () => ({})) =>
  Array.from({ length: n }, (_, i) => record({ id: String(i), correct: wrong(i) ? 0 : 1, ...extra(i) }));

describe("the gate's words", () => {
  it('name every status a check can have, with an icon and a verb each', () => {
    expect(Object.keys(STATUS_WORDS).sort()).toEqual([...checkStatusSchema.options].sort());
    expect(statusLabel('inconclusive')).toBe('❔ inconclusive');
    expect(Object.keys(DECISION).sort()).toEqual(['fail', 'pass', 'warn']);
  });

  it('are the ones the comment and the decision matrix print: ship or block only in the matrix, from the verdict', async () => {
    const dir = tempDir();
    const baseline = writeLines(
      'baseline.jsonl',
      records(400, (i) => i % 5 === 0),
    );
    const worse = writeLines(
      'worse.jsonl',
      records(400, (i) => i % 5 === 0 || i % 100 < 4),
    );
    const strict = join(dir, 'strict.yml');
    const loose = join(dir, 'loose.yml');
    writeFileSync(strict, 'version: 1\nname: strict\nchecks:\n  - metric: accuracy\n    max_regression: 0\n');
    writeFileSync(loose, 'version: 1\nname: loose\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
    let matrix = '';
    const io = { stdout: (text: string) => (matrix += text), stderr: () => undefined };
    const code = await runCli(
      ['compare', '--policy', strict, '--policy', loose, '--candidate', `worse=${worse}`, '--baseline', baseline],
      io,
    );
    expect(code).toBe(0);
    expect(matrix).toMatch(new RegExp(`\\| ${decisionLabel('fail').replace(/[()]/g, '\\$&')} +\\|`));
    expect(matrix).toMatch(new RegExp(`\\| ${decisionLabel('pass').replace(/[()]/g, '\\$&')} +\\|`));
    expect(matrix).toMatch(/^strict: would ship none of them$/m);
    expect(matrix).toMatch(/^loose: would ship worse$/m);

    const comment = join(dir, 'comment.md');
    await runCli(['gate', '--policy', strict, '--candidate', worse, '--baseline', baseline, '--markdown', comment], {
      stdout: () => undefined,
      stderr: () => undefined,
    });
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(comment, 'utf8');
    expect(text).toContain(`## ${STATUS_WORDS.fail.icon} evalgate: fail`);
    expect(text).toContain(statusLabel('fail'));
    expect(text).not.toMatch(/\b(ship|block)\b/);
  });
});

describe('units in the reasons', () => {
  const gate = (yaml: string, candidate: EvalRecord[], baseline: EvalRecord[]) => {
    const { policy } = parsePolicy(`version: 1\nname: test\nsettings:\n  resamples: 400\n${yaml}`, 'policy.yml');
    const run = (list: EvalRecord[]) => ({ kind: 'records' as const, file: 'run.jsonl', table: buildTable(list) });
    return evaluateGate({ policy, candidate: run(candidate), baseline: run(baseline) });
  };

  it('of a trade-off: ms for a latency, points for a share, the needed improvement of a relative budget in ms', () => {
    const slow = records(
      400,
      (i) => i % 5 === 0,
      (i) => ({ latency_ms: 500 + (i % 7) }),
    );
    const fast = records(
      400,
      (i) => i % 5 === 0 || i % 100 === 1,
      (i) => ({ latency_ms: 300 + (i % 7) }),
    );
    const result = gate(
      'checks:\n  - metric: accuracy\n    max_regression: 0\ntradeoffs:\n  - name: speed buys accuracy\n    allow: [{ metric: accuracy, max_regression: 0.02 }]\n    when: [{ metric: latency_p95_ms, min_improvement: "10%" }, { metric: accuracy, min_improvement: 0.01 }]\n',
      fast,
      slow,
    );
    const [latency, accuracy] = result.tradeoffs[0].reasons;
    expect(latency).toMatch(/^latency_p95_ms \(overall\) improved by 200 ms \(needs an improvement of 50\.\d ms, p = /);
    expect(accuracy).toMatch(/^accuracy \(overall\) got worse by 1 pt \(needs an improvement of 1 pt, p = .*\): not enough$/);
  });

  it('of a comparison on too few records: what they are, on how many shared instances', () => {
    const grouped = (wrong: (i: number) => boolean) => records(300, wrong, (i) => ({ groups: { dialect: i < 5 ? 'aae' : 'sae' } }));
    const result = gate(
      'checks:\n  - metric: group_accuracy:dialect=aae\n    max_regression: 0\n',
      grouped(() => false),
      grouped(() => false),
    );
    expect(result.checks[0].reasons).toEqual([
      'regression not checked: 5 records of the metric on the 300 shared instances, fewer than the 20 a paired comparison needs (settings.min_shared_instances)',
    ]);
  });
});
