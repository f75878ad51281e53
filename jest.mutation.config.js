import { fileURLToPath } from 'node:url';
import base from './jest.config.js';

// The tests Stryker runs against each mutant (npm run mutation): fast in-process tests of the decision
// code, on small inputs whose results are worked out by hand (gate-exact, compare-exact, verdict-exact,
// stats-exact, ...), imported by one test file (__tests__/mutation/decision-tests.ts) so that a mutant's
// run loads the sources once, with a test environment that stops a mutant's run at its first failing
// test (__tests__/mutation/bail-environment.cjs). Left out: the tests that run the bundle (dist/ is not
// mutated), start programs or a browser, and the statistical tests that bootstrap thousands of
// instances (gate-decisions, gate-bounds21, population21, simulation21, failure-rate): they test the
// same code, but at seconds per mutant a run would take hours. A new fast test of the decision code is
// imported by decision-tests.ts.
const beside = (file) => fileURLToPath(new URL(file, import.meta.url));

export default {
  ...base,
  testMatch: ['**/__tests__/mutation/decision-tests.ts'],
  testEnvironment: beside('./__tests__/mutation/bail-environment.cjs'),
  globalSetup: beside('./__tests__/mutation/bail-reset.cjs'),
  maxWorkers: 1,
};
