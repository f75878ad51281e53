import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines, runAgainst, writeSuite } from './helpers/evalgate.js';
import { withFakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/* The completion cache never costs a completion: writing it may fail, and it may hold anything. */

const KEY = { ...process.env, OPENAI_API_KEY: 'sk-test' };

describe('the completion cache', () => {
  it('asks identical prompts once per run, and a rerun gives the same records, every field', () =>
    withFakeOpenAI(20, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(
        dir,
        Array.from({ length: 16 }, (_, i) => ({ id: `q${i}`, input: 'the same question', references: ['refund'] })),
      );
      const run = (out: string) =>
        runAgainst(server.url, suite, join(dir, out), ['--cache-dir', join(dir, 'cache'), '--concurrency', '16'], KEY);
      const first = await run('first.jsonl');
      expect(first.code).toBe(0);
      expect(server.requests).toBe(1);
      expect(first.stderr).toContain('(0 failed calls, 0 retries, 15 from the cache)');
      const records = readJsonLines(join(dir, 'first.jsonl'));
      expect(records).toHaveLength(16);
      expect(new Set(records.map((record) => `${record.prediction} ${record.latency_ms}`)).size).toBe(1);
      expect((await run('second.jsonl')).stderr).toContain('16 from the cache');
      expect(server.requests).toBe(1);
      expect(readFileSync(join(dir, 'second.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'first.jsonl'), 'utf8'));
    }));

  it('keeps every completion when two runs write the same entries at once (parallel shards on one directory)', () =>
    withFakeOpenAI(20, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(
        dir,
        Array.from({ length: 16 }, (_, i) => ({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })),
      );
      const run = (out: string) =>
        runAgainst(server.url, suite, join(dir, out), ['--cache-dir', join(dir, 'cache'), '--concurrency', '16'], KEY);
      const results = await Promise.all([run('a.jsonl'), run('b.jsonl')]);
      for (const [result, out] of [
        [results[0], 'a.jsonl'],
        [results[1], 'b.jsonl'],
      ] as const) {
        expect(result.code).toBe(0);
        // A cache write that lost the race is no failed call, is not retried, and warns of nothing.
        expect(result.stderr).toContain('(0 failed calls, 0 retries');
        expect(result.stderr).not.toContain('warning');
        expect(readJsonLines(join(dir, out)).every((record) => record.prediction === 'refund' && record.error === undefined)).toBe(true);
      }
    }));

  it('warns once and keeps the completions when the cache cannot be written', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(
        dir,
        Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })),
      );
      writeFileSync(join(dir, 'plain-file'), '');
      const result = await runAgainst(server.url, suite, join(dir, 'out.jsonl'), ['--cache-dir', join(dir, 'plain-file', 'cache')], KEY);
      expect(result.code).toBe(0);
      expect(readJsonLines(join(dir, 'out.jsonl')).map((record) => [record.prediction, record.correct])).toEqual(
        Array.from({ length: 5 }, () => ['refund', 1]),
      );
      expect(server.requests).toBe(5);
      expect(result.stderr.match(/evalgate: warning: the completion cache/g)).toHaveLength(1);
      expect(result.stderr).toContain('plain-file');
    }));

  it('treats an entry that is not a completion as a miss, and replaces it', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(
        dir,
        Array.from({ length: 3 }, (_, i) => ({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })),
      );
      const run = (out: string) => runAgainst(server.url, suite, join(dir, out), ['--cache-dir', join(dir, 'cache')], KEY);
      expect((await run('first.jsonl')).code).toBe(0);
      const entries = readdirSync(join(dir, 'cache'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
      expect(entries).toHaveLength(3);
      writeFileSync(entries[0], '{}');
      writeFileSync(entries[1], '{"text": 42}');
      writeFileSync(entries[2], '{"text": "refund", "confidence": "high"}');

      const second = await run('second.jsonl');
      expect(second.code).toBe(0);
      expect(second.stderr).toContain('(0 failed calls, 0 retries, 0 from the cache)');
      expect(readJsonLines(join(dir, 'second.jsonl')).map((record) => [record.prediction, record.correct, record.error])).toEqual(
        Array.from({ length: 3 }, () => ['refund', 1, undefined]),
      );
      // The bad entries were overwritten: a third run asks the model nothing.
      const third = await run('third.jsonl');
      expect(third.stderr).toContain('3 from the cache');
      expect(server.requests).toBe(6);
    }));
});
