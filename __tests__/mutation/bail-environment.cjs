// The test environment of the mutation tests (jest.mutation.config.js): jest's node environment that,
// while Stryker runs a mutant, skips every test after the first one that fails. One failure kills the
// mutant; the rest would only cost time. Outside a mutant's run (the dry run, any other jest run) it
// is jest's node environment unchanged. The failure is forgotten at the start of each jest run
// (bail-reset.cjs, the run's globalSetup), so a mutant is never judged on another one's failure.
const { TestEnvironment } = require('jest-environment-node');

const FAILED = Symbol.for('evalgate.mutation.failed');

class BailEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (!process.env.__STRYKER_ACTIVE_MUTANT__) return;
    if (event.name === 'test_done' && event.test.errors.length > 0) globalThis[FAILED] = true;
    // jest-circus skips a test whose mode is `skip` when its test_start has been handled.
    else if (event.name === 'test_start' && globalThis[FAILED]) event.test.mode = 'skip';
  }
}

module.exports = BailEnvironment;
