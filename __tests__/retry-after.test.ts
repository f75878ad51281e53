import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { openaiAdapter } from '../src/runner/models/openai.js';
import { DEFAULT_RUN_OPTIONS, runSuite } from '../src/runner/run.js';
import { loadSuite } from '../src/runner/suite.js';
import { readJsonLines, runAgainst, writeSuite } from './helpers/evalgate.js';
import { withFakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/* A rate-limited request waits as long as the server asks, given in seconds or as an HTTP date, but never for ever. */

describe("the server's Retry-After", () => {
  it('is read as an HTTP date', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(dir, [{ id: 'q', input: 'RATELIMIT question', references: ['refund'] }]);
      // The date has whole seconds: the server asks for 4 to 5 s. The default backoff would be under 1 s.
      server.rateLimitHeaders = { 'retry-after': new Date(Date.now() + 5000).toUTCString() };
      const result = await runAgainst(server.url, suite, join(dir, 'out.jsonl'), ['--no-cache']);
      expect(result.code).toBe(0);
      expect(readJsonLines(join(dir, 'out.jsonl'))[0]).toMatchObject({ prediction: 'refund', correct: 1 });
      expect(server.arrivals).toHaveLength(2);
      expect(server.arrivals[1] - server.arrivals[0]).toBeGreaterThan(2500);
    }));

  it('is obeyed only up to the longest wait the run allows', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = await loadSuite(writeSuite(dir, [{ id: 'q', input: 'RATELIMIT question', references: ['refund'] }]));
      server.rateLimitHeaders = { 'retry-after': '3600' };
      const { records, stats } = await runSuite(suite, await openaiAdapter('m', server.url), {
        ...DEFAULT_RUN_OPTIONS,
        maxRetryWaitMs: 1000,
      });
      expect(records[0]).toMatchObject({ prediction: 'refund', correct: 1 });
      expect(stats.retries).toBe(1);
      // It did wait (the clamp, not the backoff), then asked again rather than after an hour.
      expect(server.arrivals[1] - server.arrivals[0]).toBeGreaterThanOrEqual(900);
    }));
});
