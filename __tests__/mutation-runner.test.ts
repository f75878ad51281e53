/**
 * The mutation tests' runner (__tests__/mutation/stryker-runner.mjs), end to end: Stryker itself, with
 * that runner, on a small project of one source file and one jest test file, each mutant's status
 * read from the JSON report. What the runner must get right for a score to be true: a mutant a test
 * fails on is killed, and by that test; one no test fails on survives; code that runs as its module
 * loads is loaded with the mutant active (a static mutant); an endless loop stops at Stryker's hit
 * limit; a function no test runs has no coverage; tests run again with no state of an earlier run.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

const SOURCE = `
const GREETING = 'hello';
let calls = 0;

export function greet(name: string): string {
  return GREETING + ' ' + name;
}

export function sum(values: number[]): number {
  let total = 0;
  for (let index = 0; index < values.length; index++) total += values[index];
  return total;
}

export function clamp(value: number): number {
  return value > 10 ? 10 : value;
}

export function countCall(): number {
  calls += 1;
  return calls > 99 ? 99 : calls;
}

export function neverTested(value: number): number {
  return value * 2;
}

export function notify(value: number): number {
  void Promise.resolve(value).then((settled) => {
    if (settled < 0) throw new Error('negative');
  });
  return value;
}
`;

const TESTS = `
import { describe, expect, it } from '@jest/globals';
import { clamp, countCall, greet, notify, sum } from '../src/numbers.js';

describe('numbers', () => {
  it('greets', () => {
    expect(greet('you')).toBe('hello you');
  });
  it.each([
    [[1, 2, 3], 6],
    [[], 0],
  ])('sums %j', (values, total) => {
    expect(sum(values)).toBe(total);
  });
  it('clamps', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([clamp(3), clamp(20)]).toEqual([3, 10]);
  });
  it('counts from one in every run', () => {
    expect(countCall()).toBe(1);
  });
  it('notifies', () => {
    expect(notify(1)).toBe(1);
  });
});
`;

interface Mutant {
  mutatorName: string;
  static?: boolean;
  coveredBy?: string[];
  replacement: string;
  status: string;
  statusReason?: string;
  killedBy?: string[];
  location: { start: { line: number } };
}

function mutationRun(): { mutants: Mutant[]; tests: { id: string; name: string; location?: { start: { line: number } } }[] } {
  const project = mkdtempSync(join(tmpdir(), 'evalgate-mutation-'));
  mkdirSync(join(project, 'src'));
  mkdirSync(join(project, '__tests__/mutation'), { recursive: true });
  writeFileSync(join(project, 'src/numbers.ts'), SOURCE);
  writeFileSync(join(project, '__tests__/numbers.test.ts'), TESTS);
  writeFileSync(join(project, '__tests__/mutation/decision-tests.ts'), "import '../numbers.test.js';\n");
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  // A program the runner kept in another run, copied into the sandbox as Stryker copies every file: built again, not run.
  const elsewhere = {
    root: project,
    code: "throw new Error('a program built elsewhere')",
    map: '{"version":3,"sources":[],"mappings":""}',
    packages: [],
  };
  writeFileSync(join(project, '__tests__/mutation/decision-tests.bundle.json'), JSON.stringify(elsewhere));
  const config = {
    plugins: [join(ROOT, '__tests__/mutation/stryker-runner.mjs')],
    testRunner: 'decision-tests',
    mutate: ['src/numbers.ts'],
    coverageAnalysis: 'perTest',
    ignoreStatic: false,
    checkers: [],
    concurrency: 1,
    reporters: ['json'],
    jsonReporter: { fileName: 'mutation.json' },
    tempDirName: '.stryker-tmp',
    // A test process started afresh every two mutants: the later ones read the program the first built.
    maxTestRunnerReuse: 2,
  };
  writeFileSync(join(project, 'stryker.config.json'), JSON.stringify(config));
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`stryker exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(readFileSync(join(project, 'mutation.json'), 'utf8'));
  rmSync(project, { recursive: true });
  return { mutants: report.files['src/numbers.ts'].mutants, tests: report.testFiles['__tests__/numbers.test.ts'].tests };
}

describe('the mutation tests runner, run by Stryker', () => {
  const { mutants, tests } = mutationRun();
  const mutant = (line: number, replacement: string) => {
    const found = mutants.find((candidate) => candidate.location.start.line === line && candidate.replacement === replacement);
    if (!found)
      throw new Error(
        `no mutant "${replacement}" on line ${line}: ${JSON.stringify(mutants.map((m) => [m.location.start.line, m.replacement]))}`,
      );
    return found;
  };

  const test = (name: string) => {
    const found = tests.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no test "${name}": ${JSON.stringify(tests.map(({ name }) => name))}`);
    return found;
  };
  const lineOf = (text: string) => TESTS.split('\n').findIndex((line) => line.includes(text)) + 1;

  it('kills a mutant a test fails on, naming that test (jest full name: describe and test), having run only the tests that reach it', () => {
    expect(mutant(6, '""')).toMatchObject({
      status: 'Killed',
      static: false,
      coveredBy: [test('numbers greets').id],
      killedBy: [test('numbers greets').id],
    });
    expect(mutant(11, 'total -= values[index]')).toMatchObject({ status: 'Killed', killedBy: [test('numbers sums [1,2,3]').id] });
  });

  it('awaits an async test, and fails a test on a promise rejected with no handler', () => {
    expect(mutant(16, 'value <= 10')).toMatchObject({ status: 'Killed', killedBy: [test('numbers clamps').id] });
    expect(mutant(30, 'true')).toMatchObject({ status: 'Killed', killedBy: [test('numbers notifies').id] });
  });

  it('loads a module with its static mutant active', () => {
    expect(mutant(2, '""')).toMatchObject({ status: 'Killed', static: true });
  });

  it('stops an endless loop at the hit limit', () => {
    expect(mutant(11, 'index--')).toMatchObject({ status: 'Timeout', statusReason: expect.stringContaining('Hit limit reached') });
  });

  it('lets a mutant no test tells apart survive, and says a function no test runs is not covered', () => {
    expect(mutant(16, 'value >= 10')).toMatchObject({ status: 'Survived' });
    expect(mutant(25, 'value / 2')).toMatchObject({ status: 'NoCoverage' });
  });

  it("runs each mutant's tests in modules loaded afresh: no count carried from a run before", () => {
    // Equivalent for the tests, so it survives; counted on from an earlier run, it would be killed.
    expect(mutant(21, 'calls >= 99')).toMatchObject({ status: 'Survived' });
    expect(mutant(20, 'calls -= 1')).toMatchObject({ status: 'Killed' });
  });

  it("says where each test is, for Stryker's incremental mode: a table's tests where its it.each starts", () => {
    // The report's lines count from 1.
    expect(test('numbers counts from one in every run').location?.start.line).toBe(lineOf('counts from one'));
    expect(test('numbers sums []').location?.start.line).toBe(lineOf('it.each'));
  });
});
