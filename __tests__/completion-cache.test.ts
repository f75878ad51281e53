import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalgate, readJsonLines, runAgainst, writeSuite } from './helpers/evalgate.js';
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
      expect(server.requests).toBe(2); // the rerun's probe: what the endpoint serves now

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
      expect(server.requests).toBe(7); // its probe
    }));
});

describe('the completion cache knows what answered', () => {
  const fiveQuestions = (dir: string) =>
    writeSuite(
      dir,
      Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })),
    );
  /** The cache's entries, parsed. */
  const entriesOf = (cache: string) =>
    readdirSync(cache, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));

  it('answers from the cache while the endpoint serves the same model, and asks again (saying so) when another answers under the name', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = fiveQuestions(dir);
      const run = (out: string, extra: string[] = []) =>
        runAgainst(server.url, suite, join(dir, out), ['--cache-dir', join(dir, 'cache'), ...extra], KEY);
      server.served = 'm-2024-01-01';
      expect((await run('first.jsonl')).code).toBe(0);
      expect(server.requests).toBe(5);
      // Each entry keeps what answered; the fingerprint is kept, not keyed.
      const entries = entriesOf(join(dir, 'cache'));
      expect(entries.map((file) => JSON.parse(readFileSync(file, 'utf8')))).toEqual(
        Array(5).fill(expect.objectContaining({ text: 'refund', servedModel: 'm-2024-01-01', systemFingerprint: 'fp_1' })),
      );

      // A rerun asks one call (the probe): the same model answers, so the cache does.
      server.fingerprint = 'fp_2';
      const same = await run('same.jsonl');
      expect(same.stderr).toContain('(0 failed calls, 0 retries, 5 from the cache)');
      expect(same.stderr).not.toContain('warning');
      expect(server.requests).toBe(6);
      expect(readFileSync(join(dir, 'same.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'first.jsonl'), 'utf8'));

      // Another model under the same name: no cached answer is used, and the run says why.
      server.served = 'm-2024-06-01';
      const changed = await run('changed.jsonl');
      expect(changed.code).toBe(0);
      expect(changed.stderr).toContain(
        'evalgate: warning: the endpoint serves "m-2024-06-01" as "m" now, and the completion cache holds answers of "m-2024-01-01": those are not used, their examples are asked again',
      );
      expect(changed.stderr).toContain('0 from the cache)');
      expect(server.requests).toBe(11);
      // Their new answers replaced the old ones: the next run takes them again.
      expect((await run('again.jsonl')).stderr).toContain('5 from the cache)');
      expect(server.requests).toBe(12);
    }));

  it('asks again the entries that do not say which model answered (made before evalgate kept it)', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = fiveQuestions(dir);
      const run = (out: string) => runAgainst(server.url, suite, join(dir, out), ['--cache-dir', join(dir, 'cache')], KEY);
      expect((await run('first.jsonl')).code).toBe(0);
      for (const file of entriesOf(join(dir, 'cache'))) {
        const { servedModel: _served, systemFingerprint: _fingerprint, ...older } = JSON.parse(readFileSync(file, 'utf8'));
        writeFileSync(file, JSON.stringify(older));
      }
      const second = await run('second.jsonl');
      expect(second.stderr).toContain('holds answers of a model it did not record: those are not used');
      expect(second.stderr).toContain('0 from the cache)');
      expect(server.requests).toBe(10);
    }));

  it('keys on --model-revision: another revision is asked again, the same one is not', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = fiveQuestions(dir);
      const run = (out: string, revision: string) =>
        runAgainst(server.url, suite, join(dir, out), ['--cache-dir', join(dir, 'cache'), '--model-revision', revision], KEY);
      expect((await run('a.jsonl', 'ckpt-1')).code).toBe(0);
      expect((await run('b.jsonl', 'ckpt-1')).stderr).toContain('5 from the cache)');
      expect(server.requests).toBe(6);
      expect((await run('c.jsonl', 'ckpt-2')).stderr).toContain('0 from the cache)');
      expect(server.requests).toBe(11);
      expect(
        entriesOf(join(dir, 'cache'))
          .map((file) => JSON.parse(readFileSync(file, 'utf8')).revision)
          .sort(),
      ).toEqual([...Array(5).fill('ckpt-1'), ...Array(5).fill('ckpt-2')]);
    }));

  it("keys a model command's answers on its command line and the revision, and on the model it names", async () => {
    const dir = tempDir();
    const suite = fiveQuestions(dir);
    // Answers with its first argument (or ANSWER), names itself MODEL_NAME when set, and counts its calls in calls.log.
    const program = join(dir, 'model.mjs');
    writeFileSync(
      program,
      `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => {
  appendFileSync(${JSON.stringify(join(dir, 'calls.log'))}, 'x');
  const answer = { id: JSON.parse(line).id, text: process.argv[2] ?? process.env.ANSWER };
  if (process.env.MODEL_NAME) answer.model = process.env.MODEL_NAME;
  process.stdout.write(JSON.stringify(answer) + '\\n');
});
`,
    );
    const calls = () => (existsSync(join(dir, 'calls.log')) ? readFileSync(join(dir, 'calls.log'), 'utf8').length : 0);
    const run = (model: string, extra: string[], env: NodeJS.ProcessEnv = {}) =>
      evalgate(['run', '--suite', suite, '--model', model, '--out', join(dir, 'out.jsonl'), '--cache-dir', join(dir, 'cache'), ...extra], {
        ...process.env,
        ...env,
      });
    const predictions = () => readJsonLines(join(dir, 'out.jsonl')).map((record) => record.prediction);

    expect((await run(`command:node ${program} refund`, [])).code).toBe(0);
    expect(calls()).toBe(5);
    expect((await run(`command:node ${program} refund`, [])).stderr).toContain('5 from the cache)');
    expect(calls()).toBe(6);
    await run(`command:node ${program} deny`, []);
    expect(predictions()).toEqual(Array(5).fill('deny'));
    expect(calls()).toBe(11);

    // The same command line: the revision tells the answers apart.
    await run(`command:node ${program}`, ['--model-revision', 'r1'], { ANSWER: 'refund' });
    await run(`command:node ${program}`, ['--model-revision', 'r2'], { ANSWER: 'escalate' });
    expect(predictions()).toEqual(Array(5).fill('escalate'));
    expect(calls()).toBe(21);

    // A program that names its model: the cache answers only for that model.
    await run(`command:node ${program}`, [], { ANSWER: 'refund', MODEL_NAME: 'toy-1' });
    const renamed = await run(`command:node ${program}`, [], { ANSWER: 'deny', MODEL_NAME: 'toy-2' });
    expect(renamed.stderr).toContain('holds answers of "toy-1": those are not used');
    expect(predictions()).toEqual(Array(5).fill('deny'));
  });
});
