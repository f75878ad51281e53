// Mutation testing of the decision code (npm run mutation; docs/benchmarks.md#mutation-testing):
// small changes to the gate, the statistics, the metric definitions and the escaping, each run
// against the in-process tests of jest.mutation.config.js. A mutant no test kills is a decision no
// test pins down.
const report = process.env.EVALGATE_MUTATION_REPORT ?? 'reports/mutation/mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  // One test file imports every mutation test (__tests__/mutation/decision-tests.ts): no related test
  // files to look for; a mutant runs the tests that covered it in the first run (perTest, below).
  jest: { configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
  testRunnerNodeArgs: ['--experimental-vm-modules'],
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
  // too: each runs every test of the files that import its file, seconds with these tests (escape.ts's
  // 20 in 19 s), and the defaults are what the golden intervals pin.
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
  ignorePatterns: ['/dist', '/bench/out', '/coverage', '/reports', '/.evalgate'],
  // A mutant that makes a loop endless (most of them turn a loop's `i++` into `i--`) is stopped after
  // 1.5 times its tests' time in the first run and 3 s more: each such mutant holds a test process
  // that long, and there are about 90 (on a machine others load heavily, add --timeoutMS 60000: a slow
  // run is not a timeout).
  timeoutMS: 3000,
  // Jest keeps each run's ES modules: a test process grows by about 25 MB a mutant, and each run is
  // slower than the one before (loading the tests took 0.36 s in a fresh process, 0.86 s after 90
  // mutants), so it is started afresh every 20 mutants (a start costs about 2 s).
  maxTestRunnerReuse: 20,
  timeoutFactor: 1.5,
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
