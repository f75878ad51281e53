import { fileURLToPath } from 'node:url';
import base from './jest.config.js';

// The decision tests (__tests__/mutation/decision-tests.ts) as one jest test file, for Stryker's jest
// runner (`npm run mutation -- --jest`, a check that it and the tests' own runner, stryker-runner.mjs,
// agree): jest loads the sources once per test file, so one file that imports them all loads them once
// for each mutant, with a test environment that stops a mutant's run at its first failing test
// (__tests__/mutation/bail-environment.cjs).
const beside = (file) => fileURLToPath(new URL(file, import.meta.url));

export default {
  ...base,
  testMatch: ['**/__tests__/mutation/decision-tests.ts'],
  testEnvironment: beside('./__tests__/mutation/bail-environment.cjs'),
  globalSetup: beside('./__tests__/mutation/bail-reset.cjs'),
  maxWorkers: 1,
};
