import { describe, expect, it } from '@jest/globals';
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, constants, createWriteStream, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_LINE_BYTES, MAX_NESTING_DEPTH } from '../src/limits.js';
import { collidingIds } from './helpers/colliding-ids.js';
import { evalgate, readJsonLines, writeSuite } from './helpers/evalgate.js';
import { tempDir } from './helpers/records.js';
import type { RunResult } from './helpers/run.js';

/*
 * Input written by a pull request, a fork or a model endpoint costs bounded time and memory, and is
 * refused with its file and line, never a crash: every test runs the bundled CLI on real files.
 */

const record = (id: string, extra: object = {}) => JSON.stringify({ scenario: 's', id, correct: 1, ...extra });

/** `evalgate run` of a suite whose model fails every call: for suites refused before any model is asked. */
const runWithoutModel = (suite: string, dir: string) =>
  evalgate(['run', '--suite', suite, '--model', 'command:node -e "process.exit(3)"', '--out', join(dir, 'out.jsonl')]);

/** `depth` arrays nested in one another. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** Runs the bundled CLI, killed if it has not ended within `ms` (then `code` is null). */
function evalgateWithin(ms: number, args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/cli.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a line longer than 16 MiB', () => {
  it('is refused at its line, though the record on it is valid', async () => {
    const file = join(tempDir(), 'records.jsonl');
    writeFileSync(file, `${record('1')}\n${record('2', { input: 'a'.repeat(MAX_LINE_BYTES) })}\n`);
    const result = await evalgate(['metrics', file]);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toBe(`evalgate: ${file}:2: line 2 is longer than 16 MiB (16777216 bytes), the longest line evalgate reads\n`);
  });

  it('is refused before the rest of it is read: a line that never ends', async () => {
    // A named pipe that gives 24 MiB without a newline and stays open: a reader that waits for the
    // line's end (or holds it all) never finishes.
    const dir = tempDir();
    const fifo = join(dir, 'endless.jsonl');
    execFileSync('mkfifo', [fifo]);
    const writer = createWriteStream(fifo);
    writer.on('error', () => undefined); // the reader goes away
    const megabyte = Buffer.alloc(1 << 20, 'a');
    for (let index = 0; index < 24; index++) writer.write(megabyte);
    try {
      const result = await evalgateWithin(15_000, ['merge', '--out', join(dir, 'out.jsonl'), fifo]);
      expect(result.stderr).toBe(`evalgate: ${fifo}:1: line 1 is longer than 16 MiB (16777216 bytes), the longest line evalgate reads\n`);
      expect(result.code).toBe(2);
    } finally {
      // Unblocks the writer's open, should the reader never have opened the pipe.
      closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
      writer.destroy();
    }
  });

  it("ends a model command's protocol: the run stops at its first call with the reason", async () => {
    const dir = tempDir();
    const model = join(dir, 'endless-model.mjs');
    // Answers with 20 MiB that never end in a newline, then waits.
    writeFileSync(model, `process.stdout.write('{"id": "0", "text": "' + 'a'.repeat(20 * 1024 * 1024)); setInterval(() => {}, 1000);\n`);
    const suite = writeSuite(dir, [
      { id: '1', input: 'q1', references: ['a'] },
      { id: '2', input: 'q2', references: ['a'] },
    ]);
    const out = join(dir, 'records.jsonl');
    const args = ['run', '--suite', suite, '--model', `command:node ${model}`, '--out', out, '--timeout', '10000', '--retries', '0'];
    const result = await evalgateWithin(30_000, args);
    // A program that broke the protocol answers no call again: the run stops, writing nothing.
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'cannot answer: its first call failed (the model command wrote a line longer than 16 MiB (16777216 bytes) (line 1 of its output)); nothing was written',
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('ids made to collide', () => {
  it('cost what other ids do: the instance hash is seeded per run, and a long run of one hash goes to a Map (65,536 such ids took 37 s)', async () => {
    const file = join(tempDir(), 'colliding.jsonl');
    // The hash of the first version, unseeded, is this one under seed 0: what an attacker could aim at.
    writeFileSync(
      file,
      `${collidingIds(16)
        .map((id) => record(id))
        .join('\n')}\n`,
    );
    const result = await evalgateWithin(20_000, ['metrics', file, '--json', '--resamples', '0']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).overall.accuracy.n).toBe(65_536);
  });
});

describe('deep nesting', () => {
  it('is refused at its line when merge would write it (it crashed with a stack overflow)', async () => {
    const dir = tempDir();
    const shard = join(dir, 'shard.jsonl');
    writeFileSync(shard, `${record('1')}\n{"scenario": "s", "id": "2", "correct": 1, "input": ${nested(100_000)}}\n`);
    const result = await evalgate(['merge', '--out', join(dir, 'out.jsonl'), shard]);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toBe(`evalgate: ${shard}:2: arrays and objects nest more than ${MAX_NESTING_DEPTH} levels deep\n`);
  });

  it('is refused at its line in a field whose error message quotes it', async () => {
    const file = join(tempDir(), 'records.jsonl');
    writeFileSync(file, `{"scenario": "s", "id": "1", "correct": ${nested(100_000)}}\n`);
    const result = await evalgate(['metrics', file]);
    expect(result.stderr).toBe(`evalgate: ${file}:1: arrays and objects nest more than ${MAX_NESTING_DEPTH} levels deep\n`);
    expect(result.code).toBe(2);
  });

  it('is allowed up to the limit: the record itself is the first level', async () => {
    const dir = tempDir();
    const at = join(dir, 'at.jsonl');
    const over = join(dir, 'over.jsonl');
    writeFileSync(at, `{"scenario": "s", "id": "1", "correct": 1, "input": ${nested(MAX_NESTING_DEPTH - 1)}}\n`);
    writeFileSync(over, `{"scenario": "s", "id": "1", "correct": 1, "input": ${nested(MAX_NESTING_DEPTH)}}\n`);
    expect((await evalgate(['merge', '--out', join(dir, 'out.jsonl'), at])).code).toBe(0);
    expect(readJsonLines(join(dir, 'out.jsonl'))[0].input).toEqual(JSON.parse(nested(MAX_NESTING_DEPTH - 1)));
    expect((await evalgate(['merge', '--out', join(dir, 'out2.jsonl'), over])).stderr).toContain(`${over}:1: arrays and objects nest`);
  });

  it("is refused in another tool's JSON file (promptfoo's test case)", async () => {
    const dir = tempDir();
    const file = join(dir, 'promptfoo.json');
    const result = (testIdx: number) =>
      `{"testIdx": ${testIdx}, "promptIdx": 0, "provider": {"id": "openai:m"}, "success": true, "score": 1, "testCase": {"vars": {"deep": ${nested(100_000)}}}}`;
    writeFileSync(file, `{"results": {"results": [${result(0)}, ${result(1)}]}}`);
    const imported = await evalgate(['import', '--from', 'promptfoo', file, '--out', join(dir, 'records.jsonl')]);
    expect(imported.stderr).toBe(`evalgate: ${file}: arrays and objects nest more than ${MAX_NESTING_DEPTH} levels deep\n`);
    expect(imported.code).toBe(2);
  });
});

/** Nine levels of ten aliases each: a billion "lol"s, in a few lines. */
const BILLION_LAUGHS = [
  'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]',
  ...'bcdefghi'.split('').map((name, index) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghi'[index]}`).join(', ')}]`),
];

describe('YAML aliases', () => {
  it('an alias bomb in a policy is a bad policy at the alias that multiplies, not an internal error', async () => {
    const policy = join(tempDir(), 'bomb.yml');
    writeFileSync(
      policy,
      ['version: 1', 'name: bomb', ...BILLION_LAUGHS, 'checks:', '  - metric: accuracy', '    min: 0.5', ''].join('\n'),
    );
    const validated = await evalgate(['validate', policy]);
    // Line 4 is "b: &b [*a, ...]": its aliases repeat "a", which holds no alias; line 5's repeat "b", which does.
    const problem = `${policy}:5:8 aliases expand to too many values (an alias bomb?): this alias repeats a node that holds aliases; write the values out`;
    expect([validated.code, validated.stdout, validated.stderr]).toEqual([2, '', `${problem}\n`]);
    const records = join(tempDir(), 'records.jsonl');
    writeFileSync(records, `${record('1')}\n`);
    const gated = await evalgate(['gate', '--policy', policy, '--candidate', records]);
    expect([gated.code, gated.stderr]).toEqual([2, `evalgate: ${problem}\n`]);
  });

  it('an alias bomb in a suite is a bad suite at its file and line, before any model is asked', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: '1', input: 'q', references: ['a'] }]);
    writeFileSync(suite, `${BILLION_LAUGHS.join('\n')}\n${readFileSync(suite, 'utf8')}`);
    const result = await runWithoutModel(suite, dir);
    expect(result.stderr).toMatch(new RegExp(`^evalgate: ${suite}:3:8 aliases expand to too many values`));
    expect(result.code).toBe(2);
  });

  it('an alias of an anchor that does not exist is a bad policy at the alias', async () => {
    const policy = join(tempDir(), 'unresolved.yml');
    writeFileSync(policy, 'version: 1\nname: p\nchecks: *nothing\n');
    const validated = await evalgate(['validate', policy]);
    expect([validated.code, validated.stderr]).toEqual([2, `${policy}:3:9 alias *nothing names no anchor set before it\n`]);
  });

  it('a policy nested deeper than the parser can read is a bad policy at its line', async () => {
    const policy = join(tempDir(), 'deep.yml');
    writeFileSync(policy, `version: 1\nname: p\nchecks: ${nested(100_000)}\n`);
    const validated = await evalgate(['validate', policy]);
    expect(validated.stderr).toMatch(new RegExp(`^${policy}:3:\\d+ nested too deeply to be read\\n$`));
    expect(validated.code).toBe(2);
  });
});

describe('names', () => {
  const long = 'n'.repeat(70_000);

  it.each([
    ['a scenario', { scenario: long }, '"scenario" must be at most 200 characters, got 70000'],
    ['an id', { id: long }, '"id" must be at most 200 characters, got 70000'],
    [
      'a perturbation',
      { perturbation: { name: long, kind: 'robustness' } },
      '"perturbation.name" must be at most 200 characters, got 70000',
    ],
    ['a group attribute', { groups: { [long]: 'a' } }, 'a "groups" attribute must be at most 200 characters, got 70000'],
    ['a group value', { groups: { dialect: long } }, '"groups.dialect" must be at most 200 characters, got 70000'],
  ])('%s of 70,000 characters in a record is refused at its line', async (_, fields, message) => {
    const file = join(tempDir(), 'records.jsonl');
    writeFileSync(file, `${record('1')}\n${JSON.stringify({ scenario: 's', id: '2', correct: 1, ...fields })}\n`);
    const result = await evalgate(['metrics', file]);
    expect([result.code, result.stdout, result.stderr]).toEqual([2, '', `evalgate: ${file}:2: ${message}\n`]);
  });

  it('of 200 characters are read', async () => {
    const file = join(tempDir(), 'records.jsonl');
    const name = 'n'.repeat(200);
    writeFileSync(file, `${JSON.stringify({ scenario: name, id: name, correct: 1, groups: { [name]: name } })}\n`);
    const result = await evalgate(['metrics', file, '--json', '--resamples', '0']);
    expect(result.code).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout).scenarios)).toEqual([name]);
  });

  it('of 70,000 characters in a policy are refused at their line and column', async () => {
    const policy = join(tempDir(), 'policy.yml');
    writeFileSync(
      policy,
      `version: 1\nname: ${long}\nchecks:\n  - metric: accuracy\n    scenario: ${long}\n    max_regression: 0.1\n` +
        `tradeoffs:\n  - name: ${long}\n    allow: [{ metric: accuracy, scenario: s, max_regression: 0.2 }]\n    when: [{ metric: ece, min_improvement: 0.01 }]\n`,
    );
    const result = await evalgate(['validate', policy]);
    expect(result.code).toBe(2);
    const tooBig = 'too big: expected string to have <=200 characters';
    expect(result.stderr).toBe(
      [
        `${policy}:2:7 name: ${tooBig}`,
        `${policy}:5:15 checks[0].scenario: ${tooBig}`,
        `${policy}:8:11 tradeoffs[0].name: ${tooBig}`,
        '',
      ].join('\n'),
    );
  });

  it('of 70,000 characters in a metrics file are refused', async () => {
    const file = join(tempDir(), 'metrics.json');
    const metric = { value: 0.9, ci: null, n: 10 };
    writeFileSync(file, JSON.stringify({ overall: { accuracy: metric }, scenarios: { [long]: { accuracy: metric } } }));
    const policy = join(tempDir(), 'policy.yml');
    writeFileSync(policy, 'version: 1\nname: p\nchecks:\n  - metric: accuracy\n    min: 0.5\n');
    const result = await evalgate(['gate', '--policy', policy, '--candidate', file]);
    expect(result.stderr).toBe(
      `evalgate: ${file}: not a valid metrics report: "scenarios.${'n'.repeat(57)}...": a name longer than 200 characters\n`,
    );
    expect(result.code).toBe(2);
  });

  it('of 70,000 characters in a suite or its data are refused before any model is asked', async () => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: long, input: 'q', references: ['a'] }]);
    const ids = await runWithoutModel(suite, dir);
    expect(ids.stderr).toMatch(new RegExp(`^evalgate: ${dir}/data.jsonl:1: "id": .*200`));
    writeSuite(dir, [{ id: '1', input: 'q', references: ['a'] }]);
    writeFileSync(suite, readFileSync(suite, 'utf8').replace('name: s', `name: ${long}`));
    const names = await runWithoutModel(suite, dir);
    expect(names.stderr).toMatch(
      new RegExp(`^evalgate: ${suite}:4:\\d+ scenarios\\[0\\]\\.name: too big: expected string to have <=200 characters`),
    );
    expect([ids.code, names.code]).toEqual([2, 2]);
  });
});

describe('the regex scorer', () => {
  /** A model command that answers every request with `answer`. */
  function answering(dir: string, answer: string): string {
    const model = join(dir, 'model.mjs');
    writeFileSync(
      model,
      `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(JSON.stringify({ id: JSON.parse(line).id, text: ${JSON.stringify(answer)} }) + '\\n'));
`,
    );
    return `command:node ${model}`;
  }

  it('scores a completion against a catastrophically backtracking pattern in linear time', async () => {
    // JavaScript's RegExp takes minutes of CPU on this pattern and completion, deaf to --timeout and SIGTERM.
    const dir = tempDir();
    const suite = writeSuite(
      dir,
      [
        { id: '1', input: 'q1', references: ['a'.repeat(33)] },
        { id: '2', input: 'q2', references: ['a'.repeat(33)] },
      ],
      'scorer: regex\nscorer_options: { pattern: "^(a+)+$" }',
    );
    const out = join(dir, 'records.jsonl');
    const args = ['run', '--suite', suite, '--model', answering(dir, `${'a'.repeat(33)}b`), '--out', out, '--no-cache'];
    const result = await evalgateWithin(20_000, args);
    expect([result.code, result.stdout]).toEqual([0, '']);
    expect(readJsonLines(out).map((line) => line.correct)).toEqual([0, 0]);
  });

  it('still extracts the first group, across lines', async () => {
    const dir = tempDir();
    const suite = writeSuite(
      dir,
      [{ id: '1', input: 'q', references: ['refund'] }],
      'scorer: regex\nscorer_options: { pattern: "answer:.(\\\\w+)" }',
    );
    const out = join(dir, 'records.jsonl');
    const result = await evalgate([
      'run',
      '--suite',
      suite,
      '--model',
      answering(dir, 'I think\nthe answer:\nRefund, then'),
      '--out',
      out,
      '--no-cache',
    ]);
    expect(result.code).toBe(0);
    expect(readJsonLines(out)[0].correct).toBe(1);
  });

  it.each([
    ['a lookahead', 'answer(?=:)'],
    ['a lookbehind', '(?<=answer: )\\\\w+'],
    ['a backreference', '(\\\\w)\\\\1'],
  ])("refuses %s (RE2 has none) when the suite loads, at the suite's line", async (_, pattern) => {
    const dir = tempDir();
    const suite = writeSuite(dir, [{ id: '1', input: 'q', references: ['a'] }], `scorer: regex\nscorer_options: { pattern: "${pattern}" }`);
    const result = await runWithoutModel(suite, dir);
    expect(result.stderr).toMatch(
      new RegExp(
        `^evalgate: ${suite}:7:\\d+ scenarios\\[0\\]\\.scorer_options\\.pattern: not a pattern the linear-time engine \\(RE2\\) reads: `,
      ),
    );
    expect(result.code).toBe(2);
  });
});
