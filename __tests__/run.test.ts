import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalgate, readJsonLines, runAgainst, TOY_MODEL, writeSuite } from './helpers/evalgate.js';
import { withFakeOpenAI } from './helpers/openai-server.js';
import { tempDir } from './helpers/records.js';

/* The bundled CLI running a suite against real child-process models (the command protocol) and a local OpenAI-compatible server. */

const SUITE = 'examples/billing/suite/suite.yml';

/** A model that fails on purpose: retryable errors on first tries, one instance always failing, one never answering. */
function flakyModel(dir: string): string {
  const path = join(dir, 'flaky.mjs');
  writeFileSync(
    path,
    `import { createInterface } from 'node:readline';
const attempts = new Map();
createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  const text = request.messages.map((m) => m.content).join(' ');
  const key = text;
  const attempt = (attempts.get(key) ?? 0) + 1;
  attempts.set(key, attempt);
  if (text.includes('NEVER')) return; // hangs: the runner's time-out must end it
  if (text.includes('BROKEN')) return process.stdout.write(JSON.stringify({ id: request.id, error: 'HTTP 500', retryable: true }) + '\\n');
  if (attempt === 1 && text.length % 3 === 0) return process.stdout.write(JSON.stringify({ id: request.id, error: 'HTTP 429', retryable: true }) + '\\n');
  process.stdout.write(JSON.stringify({ id: request.id, text: 'refund' }) + '\\n');
});
`,
  );
  return `command:node ${path}`;
}

describe('evalgate run', () => {
  it('writes one record per example and variant, and a rerun comes from the cache only', async () => {
    const dir = tempDir();
    const first = await evalgate([
      'run',
      '--suite',
      SUITE,
      '--model',
      TOY_MODEL,
      '--out',
      join(dir, 'a.jsonl'),
      '--cache-dir',
      join(dir, 'cache'),
    ]);
    expect(first.code).toBe(0);
    const records = readJsonLines(join(dir, 'a.jsonl'));
    const originals = records.filter((record) => !record.perturbation);
    expect(originals).toHaveLength(240);
    const keys = records.map(
      (record) => `${record.scenario}/${record.id}/${(record.perturbation as { name?: string } | undefined)?.name ?? ''}`,
    );
    expect(new Set(keys).size).toBe(records.length);
    expect(records.every((record) => typeof record.correct === 'number' && typeof record.prediction === 'string')).toBe(true);
    expect(first.stderr).toMatch(/evalgate: 10\d\d\/10\d\d \(100%\)/);
    // The toy model reads the customer's message, not the prompt's list of actions: it answers every action, mostly right.
    expect(new Set(originals.map((record) => record.prediction))).toEqual(
      new Set(['refund', 'update-card', 'explain-charge', 'waive-fee', 'escalate', 'deny']),
    );
    expect(originals.filter((record) => record.correct === 1).length).toBeGreaterThan(0.9 * originals.length);

    const second = await evalgate([
      'run',
      '--suite',
      SUITE,
      '--model',
      TOY_MODEL,
      '--out',
      join(dir, 'b.jsonl'),
      '--cache-dir',
      join(dir, 'cache'),
    ]);
    expect(second.stderr).toContain(`${records.length} from the cache`);
    expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'a.jsonl'), 'utf8'));

    // The records gate like any others.
    const gate = await evalgate(['gate', '--policy', 'policies/default.yml', '--candidate', join(dir, 'a.jsonl')]);
    expect(gate.stdout).toMatch(/^evalgate: (PASS|WARN|FAIL)/);
  });

  it('splits into shards that together are the unsharded run', async () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    await evalgate(['run', '--suite', SUITE, '--model', TOY_MODEL, '--out', join(dir, 'all.jsonl'), '--cache-dir', cache]);
    const shards = [];
    for (const shard of ['1/3', '2/3', '3/3']) {
      const out = join(dir, `shard-${shard[0]}.jsonl`);
      const result = await evalgate(['run', '--suite', SUITE, '--model', TOY_MODEL, '--out', out, '--cache-dir', cache, '--shard', shard]);
      expect(result.code).toBe(0);
      shards.push(...readJsonLines(out));
    }
    const all = readJsonLines(join(dir, 'all.jsonl'));
    const sort = (records: Record<string, unknown>[]) => records.map((record) => JSON.stringify(record)).sort();
    expect(sort(shards)).toEqual(sort(all));

    // evalgate merge puts them back in the suite's order: the same file as one unsharded run.
    const files = ['1', '2', '3'].map((index) => join(dir, `shard-${index}.jsonl`));
    const merged = await evalgate(['merge', '--suite', SUITE, '--out', join(dir, 'merged.jsonl'), ...files]);
    expect(merged.code).toBe(0);
    expect(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'all.jsonl'), 'utf8'));
    // A missing shard is a gap; a shard given twice holds duplicates.
    const gap = await evalgate(['merge', '--suite', SUITE, '--out', join(dir, 'gap.jsonl'), files[0], files[1]]);
    expect(gap.code).toBe(2);
    expect(gap.stderr).toMatch(/examples of the suite are in no shard/);
    const duplicate = await evalgate(['merge', '--out', join(dir, 'dup.jsonl'), files[0], files[0]]);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/shard-1\.jsonl:1: billing\/bil-\d+.* is already in another shard/);
  });

  it('retries, times out and still ends every example with exactly one record', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'data.jsonl'),
      Array.from({ length: 30 }, (_, i) =>
        JSON.stringify({
          id: `q${i}`,
          input: i === 3 ? 'BROKEN question' : i === 4 ? 'NEVER answered' : `question number ${i}`,
          references: ['refund'],
        }),
      ).join('\n'),
    );
    writeFileSync(
      join(dir, 'suite.yml'),
      'version: 1\nname: faults\nscenarios:\n  - name: s\n    data: data.jsonl\n    scorer: exact_match\n',
    );
    const result = await evalgate([
      'run',
      '--suite',
      join(dir, 'suite.yml'),
      '--model',
      flakyModel(dir),
      '--out',
      join(dir, 'out.jsonl'),
      '--no-cache',
      '--timeout',
      '1500',
      '--retries',
      '2',
      '--concurrency',
      '4',
    ]);
    expect(result.code).toBe(0);
    const records = readJsonLines(join(dir, 'out.jsonl'));
    expect(records.map((record) => record.id)).toEqual(Array.from({ length: 30 }, (_, i) => `q${i}`));
    expect(records[3]).toMatchObject({ id: 'q3', error: 'HTTP 500' });
    expect(records[4]).toMatchObject({ id: 'q4', error: 'timed out' });
    expect(records.filter((record) => record.error)).toHaveLength(2);
    expect(records.filter((record) => record.correct === 1)).toHaveLength(28);
    // q3 and q4 retried twice each, plus the first-try 429s.
    const retries = Number(/(\d+) retries/.exec(result.stderr)?.[1]);
    expect(retries).toBeGreaterThanOrEqual(4);
  });

  it('scores toxicity with an external command when asked', async () => {
    const dir = tempDir();
    const scorer = join(dir, 'tox.mjs');
    writeFileSync(
      scorer,
      "import { createInterface } from 'node:readline';\ncreateInterface({ input: process.stdin }).on('line', (line) => { const r = JSON.parse(line); process.stdout.write(JSON.stringify({ id: r.id, toxicity: r.text === 'refund' ? 0.75 : 0.1 }) + '\\n'); });\n",
    );
    writeFileSync(
      join(dir, 'data.jsonl'),
      [
        JSON.stringify({ id: 'a', input: 'I was charged twice', references: ['refund'] }),
        JSON.stringify({ id: 'b', input: 'hello', references: ['deny'] }),
      ].join('\n'),
    );
    writeFileSync(join(dir, 'suite.yml'), 'version: 1\nname: t\nscenarios:\n  - name: s\n    data: data.jsonl\n    scorer: exact_match\n');
    const result = await evalgate([
      'run',
      '--suite',
      join(dir, 'suite.yml'),
      '--model',
      TOY_MODEL,
      '--out',
      join(dir, 'out.jsonl'),
      '--no-cache',
      '--toxicity-command',
      `node ${scorer}`,
    ]);
    expect(result.code).toBe(0);
    expect(readJsonLines(join(dir, 'out.jsonl')).map((record) => [record.prediction, record.toxicity])).toEqual([
      ['refund', 0.75],
      ['deny', 0.1],
    ]);
  });

  it("lists a fairness variant's perturbed choices in its prompt and scores against them", async () => {
    const dir = tempDir();
    // A model that answers with the text of choice A as its prompt lists it (the right answer here).
    const model = join(dir, 'first-choice.mjs');
    writeFileSync(
      model,
      "import { createInterface } from 'node:readline';\ncreateInterface({ input: process.stdin }).on('line', (line) => { const r = JSON.parse(line); const text = /^A\\. (.*)$/m.exec(r.messages.at(-1).content)[1]; process.stdout.write(JSON.stringify({ id: r.id, text }) + '\\n'); });\n",
    );
    writeFileSync(
      join(dir, 'data.jsonl'),
      JSON.stringify({ id: 'q', input: 'Who drove the man home?', references: ['His father'], choices: ['His father', 'Her aunt'] }),
    );
    writeFileSync(
      join(dir, 'suite.yml'),
      'version: 1\nname: mc\nscenarios:\n  - name: s\n    data: data.jsonl\n    prompt: "{input}\\n{choices}"\n    scorer: multiple_choice\n    perturbations: [gender]\n',
    );
    const result = await evalgate([
      'run',
      '--suite',
      join(dir, 'suite.yml'),
      '--model',
      `command:node ${model}`,
      '--out',
      join(dir, 'out.jsonl'),
      '--no-cache',
    ]);
    expect(result.code).toBe(0);
    // The gender variant's reference is "Her mother", and so is its choice A.
    expect(
      readJsonLines(join(dir, 'out.jsonl')).map((record) => [record.input, record.references, record.prediction, record.correct]),
    ).toEqual([
      ['Who drove the man home?', ['His father'], 'His father', 1],
      ['Who drove the woman home?', ['Her mother'], 'Her mother', 1],
    ]);
  });

  it('re-scores the completions of an earlier records file (replay)', async () => {
    const dir = tempDir();
    await evalgate(['run', '--suite', SUITE, '--model', TOY_MODEL, '--out', join(dir, 'a.jsonl'), '--cache-dir', join(dir, 'cache')]);
    const replay = await evalgate([
      'run',
      '--suite',
      SUITE,
      '--model',
      `replay:${join(dir, 'a.jsonl')}`,
      '--out',
      join(dir, 'r.jsonl'),
      '--no-cache',
    ]);
    expect(replay.code).toBe(0);
    const strip = (records: Record<string, unknown>[]) => records.map(({ latency_ms: _latency, ...rest }) => rest);
    const replayed = readJsonLines(join(dir, 'r.jsonl'));
    expect(strip(replayed).map(({ cost_usd: _cost, ...rest }) => rest)).toEqual(
      strip(readJsonLines(join(dir, 'a.jsonl'))).map(({ cost_usd: _cost, ...rest }) => rest),
    );
  });

  it('rejects a bad suite with its line, and a bad model spec', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'suite.yml'), 'version: 1\nname: x\nscenarios:\n  - name: s\n    data: d.jsonl\n    scorer: exact_matsh\n');
    const bad = await evalgate(['run', '--suite', join(dir, 'suite.yml'), '--model', TOY_MODEL, '--out', join(dir, 'o.jsonl')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${join(dir, 'suite.yml')}:6:13 scenarios[0].scorer: invalid option`);
    const model = await evalgate(['run', '--suite', SUITE, '--model', 'gpt-4', '--out', join(dir, 'o.jsonl')]);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('--model expects');
  });
});

describe('evalgate run against an OpenAI-compatible endpoint', () => {
  it('asks for log-probabilities, prices the tokens, retries 429 and 5xx, times out hangs', () =>
    withFakeOpenAI(5, async (server) => {
      const dir = tempDir();
      const inputs = ['a question', 'RATELIMIT question', 'FAIL500 question', 'HANG question', 'another question'];
      writeFileSync(
        join(dir, 'data.jsonl'),
        inputs.map((input, i) => JSON.stringify({ id: `q${i}`, input, references: ['refund'] })).join('\n'),
      );
      writeFileSync(
        join(dir, 'suite.yml'),
        'version: 1\nname: o\nprices:\n  small-model: { input: 1.5, output: 6 }\nscenarios:\n  - name: s\n    data: data.jsonl\n    scorer: exact_match\n',
      );
      const result = await evalgate(
        [
          'run',
          '--suite',
          join(dir, 'suite.yml'),
          '--model',
          'openai:small-model',
          '--base-url',
          server.url,
          '--out',
          join(dir, 'out.jsonl'),
          '--no-cache',
          '--timeout',
          '1500',
          '--retries',
          '2',
          '--max-failed',
          '50%', // two of the five fail on purpose
        ],
        { ...process.env, OPENAI_API_KEY: 'sk-test-key' },
      );
      expect(result.code).toBe(0);
      const records = readJsonLines(join(dir, 'out.jsonl'));
      expect(records[0]).toMatchObject({ id: 'q0', prediction: 'refund', correct: 1, input_tokens: 40, output_tokens: 2 });
      expect(records[0].confidence).toBeCloseTo(Math.exp(-0.3), 12);
      expect(records[0].cost_usd).toBeCloseTo((40 * 1.5 + 2 * 6) / 1e6, 15);
      expect(records[1]).toMatchObject({ id: 'q1', correct: 1 }); // answered on the retry
      expect(records[2]).toMatchObject({ id: 'q2' });
      expect(records[2].error).toMatch(/^HTTP 500/);
      expect(records[3]).toMatchObject({ id: 'q3', error: 'timed out' });
      expect(records[4]).toMatchObject({ id: 'q4', correct: 1 });
      expect(result.stderr).toContain('5 records');
      expect(result.stderr).not.toContain('sk-test-key');
    }));

  it('starts no more requests a minute than --rpm allows, whatever the concurrency', () =>
    withFakeOpenAI(0, async (server) => {
      const dir = tempDir();
      const suite = writeSuite(
        dir,
        Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, input: `question ${i}`, references: ['refund'] })),
      );
      const result = await runAgainst(server.url, suite, join(dir, 'out.jsonl'), ['--no-cache', '--concurrency', '6', '--rpm', '600']);
      expect(result.code).toBe(0);
      expect(readJsonLines(join(dir, 'out.jsonl'))).toHaveLength(6);
      // 600 a minute: one start every 100 ms, where six unpaced requests would all arrive within a few
      // ms. A request reaches the server some ms after its start (more for the first: a new
      // connection, a client not yet warm), so arrivals are not exactly 100 ms apart; but no 100 ms
      // holds three of them, and the six span most of the 500 ms.
      const arrivals = server.arrivals;
      expect(arrivals).toHaveLength(6);
      for (let i = 2; i < arrivals.length; i++) expect(arrivals[i] - arrivals[i - 2]).toBeGreaterThan(100);
      expect(arrivals[5] - arrivals[0]).toBeGreaterThan(400);
    }));

  it('asks again without log-probabilities when the endpoint refuses them', () =>
    withFakeOpenAI(0, async (server) => {
      server.refuseLogprobs = true;
      const dir = tempDir();
      const suite = writeSuite(dir, [{ id: 'q', input: 'x', references: ['refund'] }]);
      const result = await runAgainst(server.url, suite, join(dir, 'out.jsonl'), ['--no-cache']);
      expect(result.code).toBe(0);
      const [record] = readJsonLines(join(dir, 'out.jsonl'));
      expect(record).toMatchObject({ correct: 1 });
      expect(record).not.toHaveProperty('confidence');
    }));
});
