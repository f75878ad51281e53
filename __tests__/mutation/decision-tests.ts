// The fast decision tests, the ones Stryker runs against each mutant (stryker-runner.mjs bundles this
// file and what it imports; `npm test` runs each test file on its own). Left out: the tests that run
// the bundle (dist/ is not mutated), start programs or a browser, and the statistical tests that
// bootstrap thousands of instances (gate-decisions, gate-bounds21, population21, simulation21,
// failure-rate): they test the same code, but at seconds per mutant a run would take hours. A new
// fast test of the decision code is imported here. A mutant's run stops at its first failing test,
// so the tests run from the quickest and most pointed (exact cases on tiny inputs) to the slowest
// (the golden intervals, last).
import '../escaping.test.js';
import '../sort.test.js';
import '../random-sort-exact.test.js';
import '../stats-tails-exact.test.js';
import '../stats-exact.test.js';
import '../variance-components.test.js';
import '../bound-estimators-exact.test.js';
import '../metric-statistics-exact.test.js';
import '../bound-components-exact.test.js';
import '../weights.test.js';
import '../bound-estimators.test.js';
import '../bootstrap.test.js';
import '../calibration.test.js';
import '../verdict-exact.test.js';
import '../compare-exact.test.js';
import '../gate-exact.test.js';
import '../metrics.test.js';
import '../judge-metrics.test.js';
import '../judge-corrected.test.js';
import '../golden-intervals.test.js';
