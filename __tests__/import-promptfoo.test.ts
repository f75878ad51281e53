import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPromptfoo } from '../src/importers/promptfoo.js';
import { compareMetric } from '../src/metrics/paired.js';
import { buildTable } from '../src/metrics/table.js';
import { metricsOf, overallValues, tempDir } from './helpers/records.js';

/** SHA-256 (hex) of a canonical JSON text written out by hand in the test. */
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const FIXTURE = '__tests__/fixtures/promptfoo/eval-output.json';

describe('importing promptfoo results', () => {
  it('reads a real promptfoo eval output: score, latency, tokens, cost, prompt and output', async () => {
    const records = await importPromptfoo(FIXTURE);
    expect(records).toHaveLength(12);
    // By hand from the file: testIdx 0, score 1, latencyMs 152, tokenUsage 10 + 1, cost 0, output "refund".
    expect(records[0]).toEqual({
      scenario: 'promptfoo',
      id: '0',
      input: 'question 0',
      correct: 1,
      prediction: 'refund',
      latency_ms: 152,
      input_tokens: 10,
      output_tokens: 1,
      cost_usd: 0,
      provenance: { input_hash: sha256('{"input":{"question":"question 0"}}') }, // the test's vars; no references
    });
  });

  it('keeps failures, errors, groups, and asks which provider when there are several', async () => {
    const result = (testIdx: number, provider: string, extra: object) => ({
      testIdx,
      provider: { id: provider },
      prompt: { raw: `q${testIdx}`, label: 'p' },
      response: { output: 'x' },
      testCase: { description: `test ${testIdx}`, vars: { dialect: testIdx % 2 ? 'aae' : 'sae', other: 1 } },
      ...extra,
    });
    const file = join(tempDir(), 'out.json');
    writeFileSync(
      file,
      JSON.stringify({
        results: {
          results: [
            result(0, 'a', { success: false, score: 0 }),
            result(1, 'a', { success: true, score: 0.5 }),
            result(2, 'a', { error: 'API error: 500', success: false, failureReason: 2, response: { error: 'API error: 500' } }),
            result(0, 'b', { success: true, score: 1 }),
          ],
        },
      }),
    );
    await expect(importPromptfoo(file)).rejects.toThrow('several providers; choose one with --provider: a, b');
    const records = await importPromptfoo(file, { provider: 'a', groupVars: ['dialect'] });
    expect(records.map((record) => [record.id, record.correct, record.error, record.groups])).toEqual([
      ['0', 0, undefined, { dialect: 'sae' }],
      ['1', 0.5, undefined, { dialect: 'aae' }],
      ['2', undefined, 'API error: 500', { dialect: 'sae' }],
    ]);
    // A misspelt variable is an error, not groups silently missing.
    await expect(importPromptfoo(file, { provider: 'a', groupVars: ['dialect', 'dialekt'] })).rejects.toThrow(
      "--group-vars dialekt: no test has this variable; the tests' variables: dialect, other",
    );
  });

  it('scores a failed assertion as a wrong answer; only a failed call is an error (a real run)', async () => {
    const records = await importPromptfoo('__tests__/fixtures/promptfoo/pass-fail-error.json');
    // From the file: test 0 passed; test 1 failed its assertion (failureReason 1, the reason in `error`);
    // test 2's call got HTTP 400 (failureReason 2).
    expect(records.map((record) => [record.id, record.correct, record.error, record.prediction])).toEqual([
      ['0', 1, undefined, 'refund'],
      ['1', 0, undefined, 'no refund today'],
      ['2', undefined, expect.stringMatching(/^API error: 400 Bad Request/), undefined],
    ]);
    const metrics = overallValues(records);
    expect(metrics.accuracy).toBe(0.5);
    expect(metrics.error_rate).toBeCloseTo(1 / 3, 12);
  });

  it('tells a failed call from a failed assertion without failureReason (older outputs) by the missing output', async () => {
    const file = join(tempDir(), 'out.json');
    const failedAssertion = {
      testIdx: 0,
      error: 'Expected output "no" to equal "yes"',
      success: false,
      score: 0,
      response: { output: 'no' },
    };
    const failedCall = { testIdx: 1, error: 'API error: 500', success: false, score: 0, response: { error: 'API error: 500' } };
    writeFileSync(file, JSON.stringify({ results: { results: [failedAssertion, failedCall] } }));
    expect((await importPromptfoo(file)).map((record) => [record.correct, record.error])).toEqual([
      [0, undefined],
      [undefined, 'API error: 500'],
    ]);
  });

  it('reads the repeats of --repeat 3 as samples of one instance (a real run)', async () => {
    // promptfoo 0.121.20 gave the 3 repeats of each of 3 tests testIdx 0-2, 3-5 and 6-8, with the
    // same test case and no repeat number. The local server answered each prompt refund, deny, refund;
    // the third test's calls all got HTTP 400.
    const records = await importPromptfoo('__tests__/fixtures/promptfoo/repeat-3.json', { groupVars: ['segment'] });
    expect(records.map((record) => [record.id, record.sample, record.correct ?? record.error?.slice(0, 13), record.groups])).toEqual([
      ['0', 0, 1, { segment: 'business' }],
      ['0', 1, 0, { segment: 'business' }],
      ['0', 2, 1, { segment: 'business' }],
      ['1', 0, 1, { segment: 'consumer' }],
      ['1', 1, 0, { segment: 'consumer' }],
      ['1', 2, 1, { segment: 'consumer' }],
      ['2', 0, 'API error: 40', { segment: 'consumer' }],
      ['2', 1, 'API error: 40', { segment: 'consumer' }],
      ['2', 2, 'API error: 40', { segment: 'consumer' }],
    ]);
    // Each answered test averages its repeats: (2/3 + 2/3) / 2 over 2 examples; 3 of 9 calls failed.
    const { overall } = metricsOf(records);
    expect(overall.accuracy.value).toBeCloseTo(2 / 3, 15);
    expect(overall.accuracy.n).toBe(2);
    expect(overall.error_rate.value).toBeCloseTo(3 / 9, 15);
  });

  it('gives a test the same id with and without --repeat, so the runs pair on their tests (real runs)', async () => {
    // repeat-1.json is the same configuration run once: ids 0, 1, 2 are its testIdx, as always.
    const once = await importPromptfoo('__tests__/fixtures/promptfoo/repeat-1.json');
    expect(once.map((record) => [record.id, record.sample, record.input])).toEqual([
      ['0', undefined, 'question 0'],
      ['1', undefined, 'question 1'],
      ['2', undefined, 'FAIL question 2'],
    ]);
    const thrice = await importPromptfoo('__tests__/fixtures/promptfoo/repeat-3.json');
    expect([...new Set(thrice.map((record) => `${record.id} ${String(record.input)}`))]).toEqual([
      '0 question 0',
      '1 question 1',
      '2 FAIL question 2',
    ]);
    const comparison = compareMetric(buildTable(thrice), buildTable(once), 'accuracy', undefined, {
      resamples: 0,
      seed: 1,
      minGroupSize: 10,
    })!;
    expect(comparison.shared).toBe(3);
    // Once: both answered tests wrong (deny). Three times: 2/3 each.
    expect(comparison.baselineValue).toBe(0);
    expect(comparison.candidateValue).toBeCloseTo(2 / 3, 15);
  });

  it('numbers the repeats of each variable combination and prompt (a real run with two prompts and --repeat 2)', async () => {
    // One test with question [A, B] (two combinations) and one with C, two prompts, --repeat 2:
    // testIdx 0 A, 1 B, 2 A, 3 B, 4 C, 5 C, each for both prompts.
    const records = await importPromptfoo('__tests__/fixtures/promptfoo/two-prompts-repeat-2.json');
    const plain = records.filter((record) => record.scenario === 'promptfoo/{{question}}');
    expect(plain.map((record) => [record.input, record.id, record.sample, record.prediction])).toEqual([
      ['question A', '0', 0, 'refund'],
      ['question B', '1', 0, 'refund'],
      ['question A', '0', 1, 'deny'],
      ['question B', '1', 1, 'deny'],
      ['question C', '2', 0, 'refund'],
      ['question C', '2', 1, 'deny'],
    ]);
    expect(records.filter((record) => record.scenario === 'promptfoo/Customer: {{question}}')).toHaveLength(6);
    expect(metricsOf(records).overall.accuracy).toMatchObject({ value: 0.5, n: 6 });
  });
});
