import { describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalgate, readJsonLines, writeSuite } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';

/* replay:RECORDS.jsonl answers each example from its own stored record, whatever the completion cache holds. */

describe('replay', () => {
  it('gives each example its own stored completion, with its latency, cost, tokens and confidence, and follows edits to the file', async () => {
    const dir = tempDir();
    // Two instances with the same prompt: only their ids tell their stored records apart.
    const suite = writeSuite(dir, [
      { id: 'a', input: 'the same question', references: ['refund'] },
      { id: 'b', input: 'the same question', references: ['refund'] },
    ]);
    const stored = join(dir, 'stored.jsonl');
    const storedRecord = (id: string, prediction: string, latency: number) => ({
      scenario: 's',
      id,
      correct: 0,
      prediction,
      latency_ms: latency,
      cost_usd: latency / 1e5,
      input_tokens: 40,
      output_tokens: 2,
      confidence: 0.5,
    });
    writeFileSync(
      stored,
      [storedRecord('a', 'refund', 120), storedRecord('b', 'deny', 340)].map((record) => JSON.stringify(record)).join('\n'),
    );
    const replay = async () => {
      const result = await evalgate([
        'run',
        '--suite',
        suite,
        '--model',
        `replay:${stored}`,
        '--out',
        join(dir, 'out.jsonl'),
        '--cache-dir',
        join(dir, 'cache'),
        '--concurrency',
        '1',
      ]);
      expect(result.code).toBe(0);
      return readJsonLines(join(dir, 'out.jsonl')).map(({ id, prediction, correct, latency_ms, cost_usd, input_tokens, confidence }) => ({
        id,
        prediction,
        correct,
        latency_ms,
        cost_usd,
        input_tokens,
        confidence,
      }));
    };
    const expected = [
      { id: 'a', prediction: 'refund', correct: 1, latency_ms: 120, cost_usd: 0.0012, input_tokens: 40, confidence: 0.5 },
      { id: 'b', prediction: 'deny', correct: 0, latency_ms: 340, cost_usd: 0.0034, input_tokens: 40, confidence: 0.5 },
    ];
    expect(await replay()).toEqual(expected);
    expect(await replay()).toEqual(expected);

    writeFileSync(
      stored,
      [storedRecord('a', 'refund', 120), storedRecord('b', 'refund', 340)].map((record) => JSON.stringify(record)).join('\n'),
    );
    expect((await replay())[1]).toMatchObject({ id: 'b', prediction: 'refund', correct: 1 });
  });
});
