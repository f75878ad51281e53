// The globalSetup of the mutation tests: each jest run (one per mutant under Stryker) starts with no
// failure seen (bail-environment.cjs).
module.exports = () => {
  globalThis[Symbol.for('evalgate.mutation.failed')] = false;
};
