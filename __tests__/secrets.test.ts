import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactor } from '../src/runner/models/redact.js';
import { runAgainst, writeSuite, evalgate } from './helpers/evalgate.js';
import { withFakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/*
 * An endpoint that echoes what it was sent puts the API key into its error, and a record's `error`
 * (which users upload), a warning or a log line must not carry it on.
 */

const API_KEY = 'sk-proj-Secr3tKeyThatMustNeverBeWritten0123456789';
const PASSWORD = 'pa55-w0rd-of-the-proxy';

describe('secrets in the errors of a model', () => {
  it('are redacted from records, stdout and stderr: the key, the Authorization header, the user:pass@ of the base URL', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      // The first call is answered (a 401 on the first call would stop the run, quoting it: tested below).
      const suite = writeSuite(dir, [
        { id: '3', input: 'fine', references: ['refund'] },
        { id: '1', input: 'ECHO', references: ['refund'] },
        { id: '2', input: 'ECHO500', references: ['refund'] },
      ]);
      const baseUrl = server.url.replace('http://', `http://proxy-user:${PASSWORD}@`);
      server.echo = baseUrl; // a proxy that reports the URL it forwards to
      const out = join(dir, 'records.jsonl');
      const result = await runAgainst(baseUrl, suite, out, ['--no-cache', '--retries', '1', '--max-failed', '1'], {
        ...process.env,
        OPENAI_API_KEY: API_KEY,
      });
      expect(result.code).toBe(0);
      const written = readFileSync(out, 'utf8');
      for (const text of [written, result.stdout, result.stderr]) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toMatch(/bearer\s+(?!\[redacted\])/i);
      }
      // The rest of the error stays, to say what went wrong.
      const errors = written
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { error?: string }).error);
      expect(errors[0]).toBeUndefined();
      expect(errors[1]).toMatch(
        /^HTTP 401: .*invalid request \(authorization: \[redacted\]; POST \/v1\/chat\/completions; host 127\.0\.0\.1:\d+; upstream http:\/\/\[redacted\]@127\.0\.0\.1/,
      );
      expect(errors[2]).toMatch(/^HTTP 500: /);
      expect(server.requests).toBe(4); // the 500 was retried once
    }));

  it('are redacted from the error that stops a run whose first call fails', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(dir, [{ id: '1', input: 'ECHO', references: ['refund'] }]);
      const baseUrl = server.url.replace('http://', `http://proxy-user:${PASSWORD}@`);
      server.echo = baseUrl;
      const result = await runAgainst(baseUrl, suite, join(tempDir(), 'records.jsonl'), ['--no-cache'], {
        ...process.env,
        OPENAI_API_KEY: API_KEY,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/cannot answer: its first call failed \(HTTP 401: .*authorization: \[redacted\]/);
      for (const secret of [API_KEY, PASSWORD]) expect(result.stderr).not.toContain(secret);
    }));

  it("are redacted from a model command's errors: the key it was given in its environment", async () => {
    const dir = tempDir();
    const model = join(dir, 'model.mjs');
    writeFileSync(
      model,
      `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, error: 'quota exceeded for key ' + process.env.OPENAI_API_KEY }) + '\\n'));
`,
    );
    const suite = writeSuite(dir, [{ id: '1', input: 'q', references: ['refund'] }]);
    const out = join(dir, 'records.jsonl');
    const result = await evalgate(['run', '--suite', suite, '--model', `command:node ${model}`, '--out', out, '--no-cache'], {
      ...process.env,
      OPENAI_API_KEY: API_KEY,
    });
    // Every call failed: the records are written, the run exits 1 quoting the (redacted) error.
    expect(result.code).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8')).error).toBe('quota exceeded for key [redacted]');
    expect(result.stderr).toContain('the most common error (1 call): quota exceeded for key [redacted]');
    expect(result.stderr).not.toContain(API_KEY);
  });
});

describe('the redactor', () => {
  const redact = redactor([API_KEY, PASSWORD]);

  it.each([
    [`the key ${API_KEY} is invalid`, 'the key [redacted] is invalid'],
    ['{"authorization":"Bearer abc.def-ghi"}', '{"authorization":"[redacted]"}'],
    ['Authorization: Basic dXNlcjpwYXNz\nnext', 'Authorization: [redacted]\nnext'],
    ['sent bearer qwerty and Basic dXNlcjpwYXNz', 'sent bearer [redacted] and Basic [redacted]'],
    ['could not reach https://someone:other-pass@example.test/v1', 'could not reach https://[redacted]@example.test/v1'],
    ['an unknown key sk-abcdefghijklmnop leaked', 'an unknown key [redacted] leaked'],
    [`the password ${PASSWORD} alone`, 'the password [redacted] alone'],
  ])('%s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('leaves other texts as they are', () => {
    for (const text of ['HTTP 500: internal error at https://example.test/v1 (retry later)', 'basic auth failed: max token limit 4096']) {
      expect(redact(text)).toBe(text);
    }
  });
});
