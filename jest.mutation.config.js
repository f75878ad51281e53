import base from './jest.config.js';

// The tests Stryker runs against each mutant (npm run mutation): fast in-process tests of the decision
// code, on small inputs whose results are worked out by hand (gate-exact, compare-exact, verdict-exact, stats-exact). Left out: the
// tests that run the bundle (dist/ is not mutated), start programs or a browser, and the statistical
// tests that bootstrap thousands of instances (gate-decisions, gate-bounds21, population21,
// simulation21, failure-rate): they test the same code, but at seconds per mutant a run would take
// hours. Stryker runs a mutant against the files among these that import its file (through the tests'
// helpers or its own folder: jest's findRelatedTests over the roots Stryker gives it).
export default {
  ...base,
  testMatch: [
    '**/gate-exact.test.ts',
    '**/compare-exact.test.ts',
    '**/verdict-exact.test.ts',
    '**/stats-exact.test.ts',
    '**/escaping.test.ts',
    '**/bootstrap.test.ts',
    '**/bound-estimators.test.ts',
    '**/calibration.test.ts',
    '**/metrics.test.ts',
    '**/sort.test.ts',
  ],
  maxWorkers: 1,
};
