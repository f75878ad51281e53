import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importPromptfoo } from '../src/importers/promptfoo.js';
import { overallValues, tempDir } from './helpers/records.js';

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
    });
  });

  it('keeps failures, errors, groups, and asks which provider when there are several', async () => {
    const result = (testIdx: number, provider: string, extra: object) => ({
      testIdx,
      provider: { id: provider },
      prompt: { raw: `q${testIdx}`, label: 'p' },
      response: { output: 'x' },
      testCase: { vars: { dialect: testIdx % 2 ? 'aae' : 'sae', other: 1 } },
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
});
