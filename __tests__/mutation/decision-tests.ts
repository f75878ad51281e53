// The fast decision tests as one jest test file, for Stryker (jest.mutation.config.js): jest loads the
// sources once per test file, so one file that imports them all loads them once for each mutant
// instead of once per test file (the tests, their names and what they cover are unchanged). A mutant's
// run stops at its first failing test (bail-environment.cjs), so the tests run from the quickest and
// most pointed (exact cases on tiny inputs) to the slowest (the golden intervals, last).
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
