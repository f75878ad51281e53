// Mutation testing of the decision code (npm run mutation; docs/benchmarks.md#mutation-testing):
// small changes to the gate, the statistics, the metric definitions and the escaping, each run
// against the fast in-process decision tests (__tests__/mutation/decision-tests.ts). A mutant no test
// kills is a decision no test pins down.
const report = process.env.EVALGATE_MUTATION_REPORT ?? 'reports/mutation/mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  // The decision tests run by __tests__/mutation/stryker-runner.mjs: bundled once, loaded afresh for
  // each mutant in a process that lives on (jest's own runner started jest again for each mutant: 0.4
  // s of the 0.5 s a mutant took), with jest's API (expect, jest-each, jest-mock).
  // `npm run mutation -- --jest` runs them with Stryker's jest runner instead, to check the two agree.
  plugins: ['./__tests__/mutation/stryker-runner.mjs', '@stryker-mutator/jest-runner'],
  testRunner: 'decision-tests',
  jest: { configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
  mutate: [
    'src/gate/**/*.ts',
    // The decision's data: zod schemas and types, no decision to mutate.
    '!src/gate/types.ts',
    'src/stats/**/*.ts',
    'src/metrics/calibration.ts',
    'src/metrics/statistics.ts',
    'src/metrics/bound-components.ts',
    'src/report/escape.ts',
  ],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants: the defaults, the invisible characters, z(0.975)) are run
  // too: each runs every decision test (2 to 10 s, the instrumented statistics the slowest), and the
  // defaults are what the golden intervals pin.
  ignoreStatic: false,
  checkers: [],
  // A change re-tests only the mutants it touched; the file is kept out of git (CI caches it).
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  // scripts/mutation.mjs names each of its runs' reports (EVALGATE_MUTATION_REPORT) and merges them.
  jsonReporter: { fileName: `${report}.json` },
  htmlReporter: { fileName: `${report}.html` },
  // Only what the tests read: the records, policies and fixtures they load.
  ignorePatterns: ['/dist', '/bench/out', '/coverage', '/reports', '/.evalgate', '/__tests__/mutation/decision-tests.bundle.json*'],
  // A mutant that makes a loop endless (most of them turn a loop's `i++` into `i--`) is stopped when
  // its code has run 100 times as often as in the first run (Stryker's hit limit), or else after 1.5
  // times its tests' time in the first run and 3 s more, its test process then started again: there
  // are about 90 (on a machine others load heavily, add --timeoutMS 60000: a slow run is not a
  // timeout).
  timeoutMS: 3000,
  timeoutFactor: 1.5,
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
