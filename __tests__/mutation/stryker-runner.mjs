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
const KEPT = '__tests__/mutation/decision-tests.bundle.json';

/** Stryker's global namespace: the active mutant, the coverage of each test, the hit limit. */
function stryker() {
  return (globalThis[INSTRUMENTER_CONSTANTS.NAMESPACE] ??= {});
}

/** Where in the test files the caller of `it` is: the first frame of the bundle, mapped back. */
function locator(bundle, sourceMap) {
  return () => {
    const { prepareStackTrace, stackTraceLimit } = Error;
    Error.prepareStackTrace = (_, sites) => sites;
    Error.stackTraceLimit = 50;
    const holder = {};
    Error.captureStackTrace(holder);
    const site = holder.stack.find((frame) => frame.getFileName() === bundle);
    Object.assign(Error, { prepareStackTrace, stackTraceLimit });
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
 * reads it instead of building it again.
 */
async function bundled(root) {
  const kept = join(root, KEPT);
  if (existsSync(kept)) return JSON.parse(readFileSync(kept, 'utf8'));
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
  const program = { code: text('.cjs'), map: text('.map'), packages };
  // Written whole, then renamed: a process starting beside this one reads all of it or none.
  const partial = `${kept}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(program));
  renameSync(partial, kept);
  return program;
}

/**
 * The packages as the bundle's `require` gives them: imported once per process (some are ES modules
 * only, one with a top-level await), marked as ES modules for esbuild's interop.
 */
async function importPackages(specifiers) {
  return new Map(await Promise.all(specifiers.map(async (specifier) => [specifier, { __esModule: true, ...(await import(specifier)) }])));
}

/** The decision tests as a function that loads them afresh and returns the tests they declare. */
async function compileTests(root) {
  const bundle = join(root, BUNDLE);
  const { code, map, packages: specifiers } = await bundled(root);
  const packages = await importPackages(specifiers);
  const program = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: bundle });
  const locate = locator(bundle, new SourceMap(JSON.parse(map)));
  const requireFromBundle = createRequire(bundle);
  return () => {
    const { globals, tests } = collector(locate);
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
    const failure = await runTest(test);
    stryker().currentTestId = undefined;
    const { id, name, fileName, startPosition } = test;
    const result = { id, name, fileName, startPosition, timeSpentMs: Math.round(performance.now() - started) };
    results.push(
      failure === undefined ? { ...result, status: TestStatus.Success } : { ...result, status: TestStatus.Failed, failureMessage: failure },
    );
    if (failure !== undefined && bail) break;
  }
  return results;
}

class DecisionTestRunner {
  // Every run loads the tests afresh: a static mutant (one that runs as the modules load) is loaded active.
  capabilities() {
    return { reloadEnvironment: true };
  }

  async init() {
    process.env.FORCE_COLOR = '0';
    this.load = await compileTests(process.cwd());
  }

  async dryRun({ coverageAnalysis }) {
    const namespace = stryker();
    Object.assign(namespace, {
      activeMutant: undefined,
      hitCount: undefined,
      hitLimit: undefined,
      mutantCoverage: { static: {}, perTest: {} },
    });
    try {
      const tests = await runTests(this.load(), { covering: coverageAnalysis === 'perTest', bail: false });
      return { status: DryRunStatus.Complete, tests, mutantCoverage: coverageAnalysis === 'off' ? undefined : namespace.mutantCoverage };
    } catch (error) {
      return { status: DryRunStatus.Error, errorMessage: String(error?.stack ?? error) };
    }
  }

  async mutantRun({ activeMutant, testFilter, hitLimit, disableBail, mutantActivation }) {
    const namespace = stryker();
    // The coverage counted again as the modules load: a new object each run, so the process keeps its size.
    Object.assign(namespace, { hitLimit, hitCount: hitLimit === undefined ? undefined : 0, mutantCoverage: { static: {}, perTest: {} } });
    // A static mutant is active while the modules load; any other only while its tests run.
    namespace.activeMutant = mutantActivation === 'static' ? activeMutant.id : undefined;
    try {
      const loaded = this.load();
      namespace.activeMutant = activeMutant.id;
      const selected = testFilter ? new Set(testFilter) : undefined;
      const tests = await runTests(selected ? loaded.filter((test) => selected.has(test.id)) : loaded, {
        covering: false,
        bail: !disableBail,
      });
      return toMutantRunResult(
        determineHitLimitReached(namespace.hitCount, namespace.hitLimit) ?? { status: DryRunStatus.Complete, tests },
        disableBail,
      );
    } catch (error) {
      return toMutantRunResult(
        determineHitLimitReached(namespace.hitCount, namespace.hitLimit) ?? {
          status: DryRunStatus.Error,
          errorMessage: String(error?.stack ?? error),
        },
      );
    } finally {
      Object.assign(namespace, { activeMutant: undefined, hitCount: undefined, hitLimit: undefined });
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'decision-tests', DecisionTestRunner)];
