import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines, runAgainst, writeSuite } from './helpers/evalgate.js';
import { closedPortUrl, withFakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';
import { runProcess } from './helpers/run.js';
import { AdapterError, type ModelAdapter } from '../src/runner/models/types.js';
import { DEFAULT_RUN_OPTIONS, runSuite } from '../src/runner/run.js';
import { loadSuite } from '../src/runner/suite.js';

/*
 * `evalgate run` (the bundled CLI) fails fast and loud: a base URL it cannot call is refused before any
 * call, an endpoint that cannot answer stops the run at its first call with the endpoint's own error
 * (exit 2, nothing written), and a run where too many calls failed exits 1. Only failed calls are
 * retried, and no answer is read past its bound.
 */

const KEY = 'sk-proj-EndpointTestKeyThatMustNotBeShown0123';
const ENV = { ...process.env, OPENAI_API_KEY: KEY };

/** A suite of `count` questions the fake model answers "refund" to; `inputs` replaces some by index. */
function suiteOf(dir: string, count: number, inputs: Record<number, string> = {}): string {
  return writeSuite(
    dir,
    Array.from({ length: count }, (_, i) => ({ id: `q${i}`, input: inputs[i] ?? `question ${i}`, references: ['refund'] })),
  );
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const started = performance.now();
  const result = await run();
  return { result, seconds: (performance.now() - started) / 1000 };
}

describe('evalgate run against an endpoint that cannot answer', () => {
  it('stops within seconds on a closed port: exit 2, the connection error, no records', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.jsonl');
    const url = await closedPortUrl();
    const { result, seconds } = await timed(() => runAgainst(url, suiteOf(dir, 40), out, ['--no-cache'], ENV));
    expect(result.code).toBe(2);
    expect(seconds).toBeLessThan(15);
    expect(result.stderr).toMatch(/cannot answer: its first call failed \(connection failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\)/);
    expect(result.stderr).not.toContain('retries');
    expect(existsSync(out)).toBe(false);
  });

  it('stops on a 404 (a base URL without /v1), and says which base URL the endpoint answers at', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const out = join(dir, 'out.jsonl');
      const withoutV1 = server.url.replace(/\/v1$/, '');
      const { result, seconds } = await timed(() => runAgainst(withoutV1, suiteOf(dir, 40), out, ['--no-cache'], ENV));
      expect(result.code).toBe(2);
      expect(seconds).toBeLessThan(15);
      expect(result.stderr).toContain('its first call failed (HTTP 404: 404 no route for POST /chat/completions');
      expect(result.stderr).toContain(`(the endpoint answers at ${server.url}: use that base URL)`);
      expect(server.requests).toBe(3); // one call, not retried; then the two model lists of the hint
      expect(existsSync(out)).toBe(false);
    }));

  it("stops on a 401 with the endpoint's own error, and no secret in it", () =>
    withFakeOpenAI(0, async (server) => {
      server.apiKey = 'sk-the-right-key-0123456789';
      const dir = tempDir();
      const result = await runAgainst(server.url, suiteOf(dir, 40), join(dir, 'out.jsonl'), ['--no-cache'], ENV);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('its first call failed (HTTP 401: 401 Incorrect API key provided)');
      expect(result.stderr).not.toContain(KEY);
      expect(server.requests).toBe(1);
    }));

  it.each([
    ['127.0.0.1:8000/v1', 'give it in full, such as "http://127.0.0.1:8000/v1"'],
    ['localhost/v1', 'such as "http://localhost/v1"'],
    ['ftp://example.test/v1', 'such as "http://localhost:8000/v1"'],
    ['not a url', 'give it in full'],
  ])('refuses the base URL %s before any call', async (url, advice) => {
    const dir = tempDir();
    const { result, seconds } = await timed(() => runAgainst(url, suiteOf(dir, 3), join(dir, 'out.jsonl'), [], ENV));
    expect(result.code).toBe(2);
    expect(seconds).toBeLessThan(5);
    expect(result.stderr).toContain(`the base URL "${url}" is not an http:// or https:// URL with a host`);
    expect(result.stderr).toContain(advice);
  });

  it('refuses a bad OPENAI_BASE_URL by its name, its password redacted', async () => {
    const dir = tempDir();
    const suite = suiteOf(dir, 3);
    const out = join(dir, 'out.jsonl');
    const result = await runProcess(process.execPath, ['dist/cli.js', 'run', '--suite', suite, '--model', 'openai:m', '--out', out], {
      ...ENV,
      OPENAI_BASE_URL: 'me:pa55word@proxy.test/v1',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('OPENAI_BASE_URL "');
    expect(result.stderr).not.toContain('pa55word');
  });

  it('stops when its first three calls all fail for other reasons (a 500 after its retries)', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = suiteOf(dir, 40, { 0: 'FAIL500 a', 1: 'FAIL500 b', 2: 'FAIL500 c' });
      const result = await runAgainst(server.url, suite, join(dir, 'out.jsonl'), ['--no-cache', '--retries', '1'], ENV);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('cannot answer: its first 3 calls failed (the last: HTTP 500: 500 internal error)');
      expect(server.requests).toBe(6);
    }));

  it('goes on when a first call fails and a later one is answered', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const out = join(dir, 'out.jsonl');
      const suite = suiteOf(dir, 20, { 0: 'FAIL500 a' });
      const result = await runAgainst(server.url, suite, out, ['--no-cache', '--retries', '0'], ENV);
      expect(result.code).toBe(0);
      expect(readJsonLines(out).map((record) => record.error ?? record.prediction)).toEqual([
        'HTTP 500: 500 internal error',
        ...Array(19).fill('refund'),
      ]);
    }));
});

describe('evalgate run --max-failed', () => {
  /** 20 questions, the first answered, 3 of the others always failing (15%). */
  const failingSuite = (dir: string) => suiteOf(dir, 20, { 5: 'FAIL500 x', 9: 'FAIL500 y', 13: 'ECHO z' });

  it('exits 1 when more than 10% of the calls failed (the default), naming the most common error; the records are written', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const out = join(dir, 'out.jsonl');
      const result = await runAgainst(server.url, failingSuite(dir), out, ['--no-cache', '--retries', '0'], ENV);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'evalgate: 3 of 20 calls failed (15%), more than 10% may (--max-failed): the most common error (2 calls): HTTP 500: 500 internal error',
      );
      expect(readJsonLines(out)).toHaveLength(20);
    }));

  it.each([
    ['20%', 0],
    ['0.15', 0],
    ['0.1', 1],
    ['0', 1],
  ])('--max-failed %s: exit %i', (share, code) =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const result = await runAgainst(
        server.url,
        failingSuite(dir),
        join(dir, 'out.jsonl'),
        ['--no-cache', '--retries', '0', '--max-failed', share],
        ENV,
      );
      expect(result.code).toBe(code);
    }),
  );

  it.each(['10', '-0.1', '150%', 'some'])('refuses --max-failed %s', async (share) => {
    const dir = tempDir();
    const result = await runAgainst('http://127.0.0.1:1/v1', suiteOf(dir, 1), join(dir, 'out.jsonl'), ['--max-failed', share], ENV);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`expected a fraction from 0 to 1 or a percentage such as 10%, got "${share}"`);
  });
});

describe('what evalgate run retries', () => {
  /** An adapter whose `complete` answers "refund", or does what `faults` says for an instance id; it counts its calls. */
  function adapterWith(faults: Record<string, () => never>): ModelAdapter & { calls: Map<string, number> } {
    const calls = new Map<string, number>();
    return {
      id: 'test:faults',
      model: 'faults',
      secrets: [],
      calls,
      async complete(request) {
        calls.set(request.id, (calls.get(request.id) ?? 0) + 1);
        faults[request.id]?.();
        return { text: 'refund' };
      },
      async close() {},
    };
  }

  it("stops the run on an adapter's own exception (a bug): that very error (its stack with it), asked once, no record", async () => {
    const dir = tempDir();
    const suite = await loadSuite(suiteOf(dir, 30));
    const bug = new TypeError("Cannot read properties of undefined (reading 'content')");
    const adapter = adapterWith({
      q4: () => {
        throw bug;
      },
    });
    await expect(runSuite(suite, adapter, { ...DEFAULT_RUN_OPTIONS, concurrency: 2, backoffMs: 1 })).rejects.toBe(bug);
    expect(adapter.calls.get('q4')).toBe(1);
    // The other workers started nothing more once it was thrown.
    expect(adapter.calls.size).toBeLessThan(10);
  });

  it('retries a retryable failed call, and records one that is not', async () => {
    const dir = tempDir();
    const suite = await loadSuite(suiteOf(dir, 5));
    const adapter = adapterWith({
      q2: () => {
        throw new AdapterError('HTTP 503: busy', true);
      },
      q3: () => {
        throw new AdapterError('HTTP 400: too long', false);
      },
    });
    const { records, stats } = await runSuite(suite, adapter, { ...DEFAULT_RUN_OPTIONS, backoffMs: 1 });
    expect(records.map((record) => record.error ?? record.prediction)).toEqual([
      'refund',
      'refund',
      'HTTP 503: busy',
      'HTTP 400: too long',
      'refund',
    ]);
    expect([adapter.calls.get('q2'), adapter.calls.get('q3'), stats.retries]).toEqual([5, 1, 4]);
  });

  it('asks an answer that is not a chat completion once, and records why (no retry, no TypeError)', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const out = join(dir, 'out.jsonl');
      const result = await runAgainst(server.url, suiteOf(dir, 10, { 2: 'MALFORMED' }), out, ['--no-cache'], ENV);
      expect(result.code).toBe(0);
      expect(server.countOf('MALFORMED')).toBe(1);
      expect(readJsonLines(out)[2].error).toBe('the endpoint\'s answer is not a chat completion (no "choices" list)');
      expect(result.stderr).toContain('(1 failed calls, 0 retries');
    }));
});

describe('an answer of a gigabyte', () => {
  /** `evalgate run` through bench/measure.mjs (the bundled CLI, and its peak resident memory in bytes at exit). */
  async function measuredRun(url: string, suite: string, out: string) {
    const result = await runProcess(
      process.execPath,
      ['bench/measure.mjs', 'evalgate', 'run', '--suite', suite, '--model', 'openai:m', '--base-url', url, '--out', out, '--no-cache'],
      ENV,
    );
    return { ...result, maxRss: Number(/maxRSS (\d+)/.exec(result.stderr)?.[1]) * 1024 };
  }

  it(
    'costs at most 100 MB of memory more than a small one: read to 16 MiB, then cut off and recorded',
    () =>
      withFakeOpenAI(0, async (server) => {
        const dir = tempDir();
        const plain = await measuredRun(server.url, suiteOf(dir, 10), join(dir, 'plain.jsonl'));
        expect(plain.code).toBe(0);
        // One failed call in ten: no more than --max-failed allows.
        const huge = await measuredRun(server.url, suiteOf(dir, 10, { 1: 'HUGE' }), join(dir, 'huge.jsonl'));
        expect(huge.code).toBe(0);
        expect(readJsonLines(join(dir, 'huge.jsonl'))[1].error).toBe(
          "the endpoint's answer is larger than 16 MiB (16777216 bytes): it was cut off there",
        );
        expect(server.countOf('HUGE')).toBe(1);
        expect(server.hugeWritten).toBeLessThan(100 * 1024 ** 2); // the server stopped far short of the gigabyte
        expect(huge.maxRss - plain.maxRss).toBeLessThan(100 * 1000 ** 2);
      }),
    120_000,
  );
});
