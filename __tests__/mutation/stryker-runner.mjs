// Stryker's test runner for the decision tests (stryker.config.mjs, `testRunner: 'decision-tests'`).
// The tests (decision-tests.ts, Stryker's instrumented sources under them) are bundled once a run with
// esbuild and compiled once per test process into a function; each mutant's run calls it, which loads
// every module afresh (no state of one mutant's run reaches the next, as with jest) in tens of
// milliseconds, then runs the tests the first run found covering the mutant, through the jest API of
// harness.mjs. A run stops at its first failing test: one failure kills the mutant.
import { INSTRUMENTER_CONSTANTS } from '@stryker-mutator/api/core';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { determineHitLimitReached, DryRunStatus, TestStatus, toMutantRunResult } from '@stryker-mutator/api/test-runner';
import { build } from 'esbuild';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin, SourceMap } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { compileFunction } from 'node:vm';
import { collector, runTest } from './harness.mjs';

const ENTRY = '__tests__/mutation/decision-tests.ts';
// The name the bundle's code runs under: never written, it names the code in stack traces.
const BUNDLE = '__tests__/mutation/decision-tests.bundle.cjs';
const BUNDLE_CACHE = '__tests__/mutation/decision-tests.bundle.json';

/** Stryker's global namespace: the active mutant, the coverage of each test, the hit limit. */
function stryker() {
  return (globalThis[INSTRUMENTER_CONSTANTS.NAMESPACE] ??= {});
}

/** Where in the test files the caller of `it` is: the first frame of the bundle, mapped back. */
function locator(bundle, sourceMap) {
  return () => {
    const { prepareStackTrace, stackTraceLimit } = Error;
    const holder = {};
    let sites;
    try {
      Object.assign(Error, { prepareStackTrace: (_, callSites) => callSites, stackTraceLimit: 50 });
      Error.captureStackTrace(holder);
      sites = holder.stack; // made when first read: while prepareStackTrace gives the call sites
    } finally {
      Object.assign(Error, { prepareStackTrace, stackTraceLimit });
    }
    const site = sites.find((frame) => frame.getFileName() === bundle);
    if (!site) return {};
    const entry = sourceMap.findEntry(site.getLineNumber() - 1, site.getColumnNumber() - 1);
    if (!entry.originalSource) return {};
    const fileName = entry.originalSource.startsWith('file://')
      ? new URL(entry.originalSource).pathname
      : resolve(dirname(bundle), entry.originalSource);
    return { fileName, startPosition: { line: entry.originalLine, column: entry.originalColumn } };
  };
}

/**
 * The decision tests as one CommonJS program: its code, source map and the packages it imports (left
 * out: npm's packages are not mutated). Built by the first test process of a Stryker run and kept in
 * its sandbox, whose files do not change during the run: a test process started after a timeout
 * reads it instead of building it again. A kept program names the sandbox it was built in: one
 * copied from elsewhere (Stryker copies a project's files into each new sandbox) is built again.
 */
async function bundled(root) {
  const cache = join(root, BUNDLE_CACHE);
  const kept = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : undefined;
  if (kept?.root === root) return kept;
  const { outputFiles, metafile } = await build({
    entryPoints: [join(root, ENTRY)],
    outfile: join(root, BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'external',
    packages: 'external',
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const text = (extension) => outputFiles.find((file) => file.path.endsWith(extension)).text;
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports);
  const packages = [...new Set(imports.filter((i) => i.external && !isBuiltin(i.path) && i.path !== '@jest/globals').map((i) => i.path))];
  const program = { root, code: text('.cjs'), map: text('.map'), packages };
  // Written whole, then renamed: a process starting beside this one reads all of it or none.
  const partial = `${cache}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(program));
  renameSync(partial, cache);
  return program;
}

/**
 * The packages as the bundle's `require` gives them: imported once per process (some are ES modules
 * only, one with a top-level await), marked as ES modules for esbuild's interop.
 */
async function importPackages(specifiers) {
  return new Map(await Promise.all(specifiers.map(async (specifier) => [specifier, { __esModule: true, ...(await import(specifier)) }])));
}

/**
 * The decision tests as a function that loads them afresh and returns the tests they declare, with
 * where each is when `located` (the first run's: Stryker's incremental mode compares them; finding
 * them costs a quarter of a load).
 */
async function compileTests(root) {
  const bundle = join(root, BUNDLE);
  const { code, map, packages: specifiers } = await bundled(root);
  const packages = await importPackages(specifiers);
  const program = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: bundle });
  const locate = locator(bundle, new SourceMap(JSON.parse(map)));
  const requireFromBundle = createRequire(bundle);
  const nowhere = () => ({});
  return ({ located }) => {
    const { globals, tests } = collector(located ? locate : nowhere);
    const module = { exports: {} };
    const require = (id) => (id === '@jest/globals' ? globals : (packages.get(id) ?? requireFromBundle(id)));
    program(module.exports, require, module, bundle, dirname(bundle));
    return tests;
  };
}

/** Runs `tests` in order, each as Stryker's test `id` while it runs when `covering`; stops at the first failure when `bail`. */
async function runTests(tests, { covering, bail }) {
  const results = [];
  for (const test of tests) {
    if (covering) stryker().currentTestId = test.id;
    const started = performance.now();
    const { failed, message } = await runTest(test);
    stryker().currentTestId = undefined;
    const { id, name, fileName, startPosition } = test;
    const result = { id, name, fileName, startPosition, timeSpentMs: Math.round(performance.now() - started) };
    results.push(failed ? { ...result, status: TestStatus.Failed, failureMessage: message } : { ...result, status: TestStatus.Success });
    if (failed && bail) break;
  }
  return results;
}

/** The tests of `testFilter` (Stryker's ids, from the first run), in their order; an id that names none is an error. */
function selected(tests, testFilter) {
  if (!testFilter) return tests;
  const ids = new Set(tests.map((test) => test.id));
  const unknown = testFilter.filter((id) => !ids.has(id));
  if (unknown.length > 0)
    throw new Error(
      `no test named ${unknown.map((id) => JSON.stringify(id)).join(', ')} in this run (a title that changes from run to run?)`,
    );
  const wanted = new Set(testFilter);
  return tests.filter((test) => wanted.has(test.id));
}

/** Stryker's namespace as a run starts: what is not given is unset; coverage counted afresh (a new object each run keeps the process's size). */
function resetNamespace(given = {}) {
  return Object.assign(
    stryker(),
    { activeMutant: undefined, hitCount: undefined, hitLimit: undefined, mutantCoverage: { static: {}, perTest: {} } },
    given,
  );
}

const errorText = (error) => String(error?.stack ?? error);

class DecisionTestRunner {
  // Every run loads the tests afresh: a static mutant (one that runs as the modules load) is loaded active.
  capabilities() {
    return { reloadEnvironment: true };
  }

  async init() {
    this.load = await compileTests(process.cwd());
  }

  async dryRun({ coverageAnalysis }) {
    const namespace = resetNamespace();
    try {
      const tests = await runTests(this.load({ located: true }), { covering: coverageAnalysis === 'perTest', bail: false });
      return { status: DryRunStatus.Complete, tests, mutantCoverage: coverageAnalysis === 'off' ? undefined : namespace.mutantCoverage };
    } catch (error) {
      return { status: DryRunStatus.Error, errorMessage: errorText(error) };
    }
  }

  async mutantRun({ activeMutant, testFilter, hitLimit, disableBail, mutantActivation }) {
    // A static mutant is active while the modules load; any other only while its tests run.
    const namespace = resetNamespace({
      hitLimit,
      hitCount: hitLimit === undefined ? undefined : 0,
      activeMutant: mutantActivation === 'static' ? activeMutant.id : undefined,
    });
    let result;
    try {
      const loaded = this.load({ located: false });
      namespace.activeMutant = activeMutant.id;
      const tests = await runTests(selected(loaded, testFilter), { covering: false, bail: !disableBail });
      result = { status: DryRunStatus.Complete, tests };
    } catch (error) {
      result = { status: DryRunStatus.Error, errorMessage: errorText(error) };
    }
    result = determineHitLimitReached(namespace.hitCount, namespace.hitLimit) ?? result;
    resetNamespace();
    return toMutantRunResult(result, disableBail);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'decision-tests', DecisionTestRunner)];
