import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { readRecords } from '../src/records/read.js';
import { CompletionCache } from '../src/runner/cache.js';
import { openaiAdapter } from '../src/runner/models/openai.js';
import { DEFAULT_RUN_OPTIONS, describeRun, runSuite, type RunOptions } from '../src/runner/run.js';
import { rejudgeRecords } from '../src/runner/rejudge.js';
import { parseVerdict } from '../src/runner/scoring/judge-prompt.js';
import { loadSuite } from '../src/runner/suite.js';
import { writeRecords } from '../src/records/write.js';
import { startJudgeServer, type JudgeServer } from './helpers/judge-server.js';
import { tempDir } from './helpers/records.js';

/* The judge scorer against an OpenAI-compatible stand-in judge on 127.0.0.1 (helpers/judge-server.ts). */

let server: JudgeServer;
beforeAll(async () => {
  server = await startJudgeServer();
});
afterAll(() => server.close());

const OPTIONS: RunOptions = { ...DEFAULT_RUN_OPTIONS, retries: 0, concurrency: 4 };

/** A suite of one judged scenario over `instances`, the judge given by `options`; returns its path. */
function judgedSuite(dir: string, instances: object[], options: Record<string, unknown> = {}, extra = ''): string {
  writeFileSync(join(dir, 'answers.jsonl'), instances.map((instance) => JSON.stringify(instance)).join('\n'));
  const judge = { model: 'openai:judge-v1', base_url: server.url, api_key_env: 'JUDGE_KEY', ...options };
  const file = join(dir, 'suite.yaml');
  const lines = Object.entries(judge).flatMap(([key, value]) => (value === undefined ? [] : [`      ${key}: ${JSON.stringify(value)}`]));
  writeFileSync(
    file,
    `version: 1\nname: judged\n${extra}scenarios:\n  - name: answers\n    data: answers.jsonl\n    scorer: judge\n    scorer_options:\n${lines.join('\n')}\n`,
  );
  return file;
}

async function run(suiteFile: string, options: Partial<RunOptions> = {}, model = 'candidate') {
  const loaded = await loadSuite(suiteFile);
  const adapter = await openaiAdapter(model, server.url);
  try {
    return await runSuite(loaded, adapter, { ...OPTIONS, ...options });
  } finally {
    await adapter.close();
  }
}

describe('the judge parser', () => {
  it.each([
    ['{"verdict": "pass", "reason": "ok"}', 'pass', 1],
    ['  {"verdict":"fail"}\n', 'fail', 0],
    ['```json\n{"verdict": "pass", "score": 0.75}\n```', 'pass', 0.75],
    ['{"verdict": "fail", "score": 0.25, "reason": "half wrong"}', 'fail', 0.25],
  ])('reads %j as %s', (reply, verdict, correct) => {
    expect(parseVerdict(reply)).toMatchObject({ verdict, correct });
  });

  it.each([
    ['garbage', 'The answer looks fine.'],
    ['a hedge', '{"verdict": "partly", "reason": "some of it"}'],
    ['a refusal', "I'm sorry, I can't help with that."],
    ['two objects', '{"verdict": "pass"} {"verdict": "fail"}'],
    ['prose around the object', 'My verdict: {"verdict": "pass"}'],
    ['a missing verdict', '{"reason": "fine", "score": 1}'],
    ['a score against its verdict', '{"verdict": "pass", "score": 0.2}'],
    ['a score out of range', '{"verdict": "pass", "score": 1.5}'],
    ['an unexpected key', '{"verdict": "pass", "confidence": 0.9}'],
    ['an upper-case verdict', '{"verdict": "PASS"}'],
    ['an array', '[{"verdict": "pass"}]'],
    ['an empty reply', ''],
  ])('reads %s as unknown, never a score', (_, reply) => {
    const verdict = parseVerdict(reply);
    expect(verdict.verdict).toBe('unknown');
    expect(verdict).not.toHaveProperty('correct');
  });
});

describe('the judge scorer', () => {
  it('turns parseable verdicts into scores and garbage, hedges, refusals and two objects into unknowns, the judge failures its own', async () => {
    const dir = tempDir();
    const instances = [
      { id: 'right', input: 'capital of France?', references: ['Paris'] },
      { id: 'wrong', input: 'capital of Spain?', references: ['Madrid'] },
      { id: 'fenced', input: 'FENCED', references: ['x'] },
      { id: 'scored', input: 'SCORED', references: ['x'] },
      { id: 'garbage', input: 'GARBAGE', references: ['x'] },
      { id: 'hedge', input: 'HEDGE', references: ['x'] },
      { id: 'refuse', input: 'REFUSE', references: ['x'] },
      { id: 'two', input: 'TWOOBJECTS', references: ['x'] },
      { id: 'judge500', input: 'JUDGE500', references: ['x'] },
    ];
    server.answers.set('capital of France?', 'Paris');
    server.answers.set('capital of Spain?', 'Barcelona');
    process.env.JUDGE_KEY = 'sk-judge-key-123456';
    const { records, stats } = await run(judgedSuite(dir, instances), { concurrency: 1 });
    const byId = Object.fromEntries(records.map((record) => [record.id, record]));
    expect(byId.right).toMatchObject({ prediction: 'Paris', correct: 1, judge: { verdict: 'pass', reason: 'matches' } });
    expect(byId.wrong).toMatchObject({ prediction: 'Barcelona', correct: 0, judge: { verdict: 'fail' } });
    expect(byId.fenced).toMatchObject({ correct: 1, judge: { verdict: 'pass' } });
    expect(byId.scored).toMatchObject({ correct: 0.8, judge: { verdict: 'pass', score: 0.8 } });
    for (const id of ['garbage', 'hedge', 'refuse', 'two']) {
      expect(byId[id].judge).toMatchObject({ verdict: 'unknown', raw: expect.any(String), problem: expect.any(String) });
      expect(byId[id]).not.toHaveProperty('correct');
      expect(byId[id]).not.toHaveProperty('error');
    }
    expect(byId.judge500.judge_error).toContain('HTTP 500');
    expect(byId.judge500).not.toHaveProperty('correct');
    expect(byId.judge500).not.toHaveProperty('error');
    // The fingerprint: the judge, the model it served, the template's hash, the decoding and the parser.
    expect(byId.right.provenance?.scorer).toMatch(
      /^judge model=openai:judge-v1 served=judge-v1 template=closed_qa:[0-9a-f]{16} temperature=0 seed=0 max_tokens=512 parser=1$/,
    );
    expect(byId.right.provenance?.input_hash).toMatch(/^[0-9a-f]{64}$/);
    // Deterministic decoding and the verdict's JSON schema, asked of the judge; its key from its own variable.
    const judgeBody = server.bodies.find((body) => body.model === 'judge-v1')!;
    expect(judgeBody).toMatchObject({ temperature: 0, seed: 0, response_format: { type: 'json_schema' } });
    // Its tokens and cost are apart from the model under test's.
    expect(byId.right).toMatchObject({ input_tokens: 5, output_tokens: 1, judge: { input_tokens: 100, output_tokens: 10 } });
    expect(stats.errors).toBe(0);
    expect(stats.judge).toMatchObject({ records: 9, errors: 1, unknown: 4, inputTokens: 800, outputTokens: 80 });
    expect(describeRun(stats)).toContain(
      'judge: 9 calls (1 failed, 0 retries, 0 from the cache), 4 unknown verdicts, 800 input and 80 output tokens',
    );
    // The records are valid records.
    const file = join(dir, 'records.jsonl');
    await writeRecords(file, records);
    expect(await readRecords(file)).toHaveLength(9);
  });

  it('reads the verdict from text where the endpoint takes no JSON schema', async () => {
    server.structured = false;
    try {
      const { records } = await run(judgedSuite(tempDir(), [{ id: 'a', input: 'FENCED', references: ['x'] }]));
      expect(records[0]).toMatchObject({ correct: 1, judge: { verdict: 'pass', reason: 'fenced' } });
    } finally {
      server.structured = true;
    }
  });

  it('refuses a judge that is the model under test, unless the suite allows it', async () => {
    const dir = tempDir();
    const instances = [{ id: 'a', input: 'capital of France?', references: ['Paris'] }];
    await expect(run(judgedSuite(dir, instances), {}, 'judge-v1')).rejects.toThrow(
      'scenario "answers": the judge openai:judge-v1 is the model under test',
    );
    const allowed = await run(judgedSuite(dir, instances, { allow_self_judging: true }), {}, 'judge-v1');
    expect(allowed.records[0].judge).toBeDefined();
  });

  it('refuses a key in the suite file, and judge options on another scorer', async () => {
    const dir = tempDir();
    await expect(loadSuite(judgedSuite(dir, [{ id: 'a', input: 'q', references: ['r'] }], { api_key: 'sk-secret-123' }))).rejects.toThrow(
      'a key never goes in the suite file',
    );
    await expect(
      loadSuite(judgedSuite(dir, [{ id: 'a', input: 'q', references: ['r'] }], { api_key_env: 'sk-secret-123' })),
    ).rejects.toThrow('must name an environment variable');
    await expect(loadSuite(judgedSuite(dir, [{ id: 'a', input: 'q', references: ['r'] }], { template: 'Grade {input}' }))).rejects.toThrow(
      'a template that shows the judge the {output}',
    );
  });

  it('caches judge calls by fingerprint, output and sample, and a changed template asks again', async () => {
    const dir = tempDir();
    const instances = [
      { id: 'a', input: 'capital of France?', references: ['Paris'] },
      { id: 'b', input: 'capital of Spain?', references: ['Madrid'] },
    ];
    const cache = new CompletionCache(join(dir, 'cache'));
    const asked = () => server.countFor('judge-v1');
    const before = asked();
    const first = await run(judgedSuite(dir, instances), { cache });
    expect(asked() - before).toBe(2);
    const again = await run(judgedSuite(dir, instances), { cache });
    // Only the probe is asked again (what the judge serves now); both grades come from the cache.
    expect(asked() - before).toBe(3);
    expect(again.stats.judge).toMatchObject({ cacheHits: 2 });
    expect(again.records.map((record) => record.judge)).toEqual(first.records.map((record) => record.judge));
    const edited = await run(judgedSuite(dir, instances, { template: 'rubric' }), { cache });
    expect(asked() - before).toBe(5);
    expect(edited.stats.judge).toMatchObject({ cacheHits: 0 });
    expect(edited.records[0].provenance?.scorer).toContain('template=rubric:');
    // A new judge snapshot behind the same name: the cached grades of the old one are not used.
    server.served.set('judge-v1', 'judge-v1-2027');
    try {
      const moved = await run(judgedSuite(dir, instances), { cache, onWarning: () => undefined });
      expect(asked() - before).toBe(7);
      expect(moved.records[0].provenance?.scorer).toContain('served=judge-v1-2027');
    } finally {
      server.served.delete('judge-v1');
    }
  });

  it("prices the judge's calls under the judge's name, apart from the model's", async () => {
    const prices = 'prices:\n  judge-v1: { input: 1, output: 2 }\n  candidate: { input: 10, output: 10 }\n';
    server.answers.set('capital of France?', 'Paris');
    const { records, stats } = await run(
      judgedSuite(tempDir(), [{ id: 'a', input: 'capital of France?', references: ['Paris'] }], {}, prices),
    );
    expect(records[0].cost_usd).toBeCloseTo((5 * 10 + 1 * 10) / 1e6, 15);
    expect((records[0].judge as { cost_usd: number }).cost_usd).toBeCloseTo((100 * 1 + 10 * 2) / 1e6, 15);
    expect(stats.judge?.costUsd).toBeCloseTo(1.2e-4, 15);
    expect(describeRun(stats)).toContain('$0.00012');
  });
});

describe('a command judge', () => {
  it('speaks the command protocol, asked at temperature 0 with a seed, and names what it served', async () => {
    const dir = tempDir();
    const script = join(dir, 'judge.mjs');
    writeFileSync(
      script,
      [
        "import { createInterface } from 'node:readline';",
        'for await (const line of createInterface({ input: process.stdin })) {',
        '  const { id, messages, settings } = JSON.parse(line);',
        "  const right = messages[0].content.includes('[Answer]\\nParis\\n');",
        '  const verdict = settings.temperature === 0 && settings.seed === 0 && right ? "pass" : "fail";',
        "  console.log(JSON.stringify({ id, text: JSON.stringify({ verdict }), model: 'scripted-judge-1' }));",
        '}',
      ].join('\n'),
    );
    server.answers.set('capital of France?', 'Paris');
    server.answers.set('capital of Spain?', 'Barcelona');
    const instances = [
      { id: 'right', input: 'capital of France?', references: ['Paris'] },
      { id: 'wrong', input: 'capital of Spain?', references: ['Madrid'] },
    ];
    const { records } = await run(
      judgedSuite(dir, instances, { model: `command:node ${script}`, base_url: undefined, api_key_env: undefined }),
    );
    expect(records.map((record) => record.correct)).toEqual([1, 0]);
    expect(records[0].provenance?.scorer).toContain(`judge model=command:node ${script} served=scripted-judge-1 template=closed_qa:`);
  });
});

describe('evalgate run with a judge (in process)', () => {
  it('writes the records and exits 1 when more than --max-failed of the judge calls failed, naming the judge', async () => {
    const dir = tempDir();
    const suite = judgedSuite(dir, [
      { id: 'a', input: 'JUDGE500 one', references: ['x'] },
      { id: 'b', input: 'JUDGE500 two', references: ['x'] },
    ]);
    let stderr = '';
    const out = join(dir, 'out.jsonl');
    const args = [
      'run',
      '--suite',
      suite,
      '--model',
      'openai:candidate',
      '--base-url',
      server.url,
      '--out',
      out,
      '--no-cache',
      '--retries',
      '0',
    ];
    const code = await runCli(args, { stdout: () => undefined, stderr: (text) => (stderr += text) });
    expect(stderr).toContain('evalgate: the judge: 2 of 2 calls failed (100%), more than 10% may (--max-failed)');
    expect(code).toBe(1);
    expect((await readRecords(out)).every((record) => record.judge_error?.includes('HTTP 500'))).toBe(true);
  });
});

describe('evalgate rejudge (in process)', () => {
  it('refuses a record of a judged scenario without a completion, at its line', async () => {
    const dir = tempDir();
    const suite = await loadSuite(judgedSuite(dir, [{ id: 'a', input: 'q', references: ['r'] }]));
    const file = join(dir, 'records.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ scenario: 'answers', id: 'a', correct: 1 })}\n${JSON.stringify({ scenario: 'answers', id: 'b', correct: 1, prediction: 'r' })}\n`,
    );
    await expect(rejudgeRecords(suite, file, OPTIONS)).rejects.toThrow(`${file}:1: "prediction" is required to judge the record again`);
  });

  it('keeps failed calls and other scenarios as they are, and grades the rest again', async () => {
    const dir = tempDir();
    const suite = await loadSuite(judgedSuite(dir, [{ id: 'a', input: 'q', references: ['r'] }], { template: 'rubric' }));
    const file = join(dir, 'records.jsonl');
    const records = [
      {
        scenario: 'answers',
        id: 'a',
        input: 'q',
        references: ['r'],
        prediction: 'r',
        correct: 0,
        judge: { verdict: 'fail' },
        human: 1,
        provenance: { scorer: 'old judge' },
      },
      { scenario: 'answers', id: 'b', error: 'HTTP 500' },
      { scenario: 'other', id: 'c', correct: 1 },
    ];
    writeFileSync(file, records.map((record) => JSON.stringify(record)).join('\n'));
    const { records: again, judged } = await rejudgeRecords(suite, file, OPTIONS);
    expect(judged).toBe(1);
    expect(again[0]).toMatchObject({ correct: 1, judge: { verdict: 'pass' }, human: 1, prediction: 'r' });
    expect(again[0].provenance?.scorer).toContain('template=rubric:');
    expect(again.slice(1)).toEqual(records.slice(1));
  });
});
