// Lint: typescript-eslint's recommended rules with type information (for floating promises), plus
// the house limits on size: no function over 80 lines, no source file over 400.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '**/*.mjs', '**/*.js', '!eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-control-regex': 'off', // the escaping module matches control characters on purpose
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      // Only the action's shell talks to GitHub: everything else runs in the CLI too.
      'no-restricted-imports': ['error', { patterns: [{ group: ['@actions/*'], message: 'Only src/action/ imports @actions/*.' }] }],
    },
  },
  { files: ['src/action/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
  // Test servers take async request handlers: a rejection there fails the test run loudly.
  {
    files: ['__tests__/**/*.ts'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }] },
  },
);
