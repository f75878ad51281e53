// The decision tests run in one Node process, again and again (stryker-runner.mjs): the jest API they
// use (`describe`, `it`, `it.each`, `expect`, `jest.spyOn`, from '@jest/globals') made from jest's own
// packages (expect, jest-each, jest-mock), without jest's per-run start (its configuration, module
// registry and test files loaded again for each mutant, 0.4 s of a mutant's 0.5 s). What the tests
// need of jest and nothing more: a describe's name and its tests' names joined as jest joins them,
// tests run in the order they were declared, an async test awaited. Anything else (hooks, `.only`,
// `.skip`, snapshots) is an error at load, not a test silently left out.
import { expect } from 'expect';
import { bind } from 'jest-each';
import { ModuleMocker } from 'jest-mock';

function unsupported(name) {
  return () => {
    throw new Error(`${name}: not supported by the mutation tests' harness (__tests__/mutation/harness.mjs)`);
  };
}

/**
 * Collects the tests a test program declares: `globals` is what it imports from '@jest/globals';
 * `locate()` says where the current call to `it` (or `it.each`) is: { fileName, startPosition }, or {}.
 */
export function collector(locate) {
  const tests = [];
  const titles = [];
  const describe = (title, declare) => {
    titles.push(title);
    try {
      const returned = declare();
      if (returned instanceof Promise) throw new Error(`describe "${title}": returns a promise; declare its tests synchronously`);
    } finally {
      titles.pop();
    }
  };
  const declare = (title, run, where) => {
    const name = [...titles, title].join(' ');
    tests.push({ id: name, name, run, ...where });
  };
  const it = (title, run) => declare(title, run, locate());
  // A table's tests are where its `it.each` starts, before its rows: an edit to a row is in their range.
  it.each = (...table) => {
    const where = locate();
    return bind((title, run) => declare(title, run, where))(...table);
  };
  describe.each = bind(describe, false);
  for (const name of ['only', 'skip', 'todo', 'failing', 'concurrent']) {
    it[name] = unsupported(`it.${name}`);
    describe[name] = unsupported(`describe.${name}`);
  }
  const mocker = new ModuleMocker(globalThis);
  const jest = { spyOn: mocker.spyOn.bind(mocker), fn: mocker.fn.bind(mocker) };
  const hooks = Object.fromEntries(['beforeAll', 'afterAll', 'beforeEach', 'afterEach'].map((hook) => [hook, unsupported(hook)]));
  const globals = { describe, it, test: it, expect, jest, ...hooks };
  return { globals, tests };
}

function messageOf(error) {
  try {
    return String(error?.stack ?? error?.message ?? error);
  } catch {
    return 'a value with no text thrown';
  }
}

/**
 * Runs one test: { failed: false }, or { failed: true, message }. As in jest, an error the test
 * leaves behind (a promise rejected with no handler, an exception thrown from a timer) before its
 * next turn of the event loop fails it.
 */
export async function runTest(test) {
  expect.setState({ currentTestName: test.name, assertionCalls: 0, expectedAssertionsNumber: null, isExpectingAssertions: false });
  const strays = [];
  const stray = (error) => strays.push(error);
  process.on('unhandledRejection', stray).on('uncaughtException', stray);
  try {
    await test.run();
    const [unmet] = expect.extractExpectedAssertionsErrors();
    if (unmet) throw unmet.error;
    await new Promise(setImmediate);
    if (strays.length > 0) throw strays[0];
    return { failed: false };
  } catch (error) {
    return { failed: true, message: messageOf(error) };
  } finally {
    process.off('unhandledRejection', stray).off('uncaughtException', stray);
  }
}
