// Jest runs the TypeScript sources as ES modules through swc (transform only);
// `npm test` type-checks them with tsc first.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        // keepImportAttributes: the CLI imports package.json `with { type: 'json' }`, which Jest requires.
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } },
        module: { type: 'es6' },
      },
    ],
  },
  testTimeout: 30000,
  // Two workers, whatever the CPUs (jest's default is one fewer than the CPUs: one on CI's two): most
  // tests wait on the programs they start (the bundle, fake servers, Python's reference).
  maxWorkers: 2,
};
