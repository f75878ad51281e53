// Mutation testing of the decision code (npm run mutation; docs/benchmarks.md#mutation-testing):
// small changes to the gate, the statistics, the metric definitions and the escaping, each run
// against the in-process tests of jest.mutation.config.js. A mutant no test kills is a decision no
// test pins down.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  // findRelatedTests: a mutant runs only the test files that import its file.
  jest: { configFile: 'jest.mutation.config.js', enableFindRelatedTests: true },
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
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  // Only what the tests read: the records, policies and fixtures they load.
  ignorePatterns: ['/dist', '/bench/out', '/coverage', '/reports', '/.evalgate'],
  timeoutMS: 60000,
  timeoutFactor: 2,
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
