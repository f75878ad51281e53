// Lint: typescript-eslint's recommended rules with type information (for floating promises), the
// house limits on size (no function over 80 lines, no source file over 400), and the rooms of src/:
// what each folder may import (docs/architecture.md), so that data keeps flowing one way.
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/** Each room of src/ and the rooms it may import (errors.ts, at the top, any room may). */
const ROOMS = {
  config: [],
  stats: [],
  process: [],
  records: ['stats'],
  metrics: ['records', 'stats'],
  runs: ['records', 'metrics'],
  policy: ['config', 'metrics'],
  gate: ['records', 'metrics', 'stats', 'runs', 'policy'],
  report: ['records', 'metrics', 'runs', 'policy', 'gate'],
  runner: ['records', 'stats', 'config', 'process'],
  importers: ['records', 'metrics', 'runs'],
  pipeline: ['stats', 'records', 'metrics', 'runs', 'policy', 'gate', 'report'],
  cli: ['config', 'stats', 'process', 'records', 'metrics', 'runs', 'policy', 'gate', 'report', 'runner', 'importers', 'pipeline'],
  action: ['config', 'stats', 'process', 'records', 'metrics', 'runs', 'policy', 'gate', 'report', 'runner', 'importers', 'pipeline'],
};

// A new folder of src/ is a new room: it must say here what it may import.
const unplaced = readdirSync('src', { withFileTypes: true }).filter((entry) => entry.isDirectory() && !(entry.name in ROOMS));
if (unplaced.length > 0) throw new Error(`eslint.config.js: src/${unplaced[0].name}/ is in no room of ROOMS: say what it may import`);

/** The report reads gate's result types and the pure functions over them, nothing that decides. */
const GATE_FOR_REPORT = ['!**/gate/types.js', '!**/gate/verdict.js'];

function roomRules(room, allowed) {
  const forbidden = Object.keys(ROOMS).filter((other) => other !== room && !allowed.includes(other));
  const patterns = forbidden.map((other) => ({
    group: [`**/${other}/*`, ...(room === 'report' && other === 'gate' ? GATE_FOR_REPORT : [])],
    message: `src/${room}/ may import only ${allowed.join(', ') || 'nothing of the other rooms'} (docs/architecture.md).`,
  }));
  if (room === 'report')
    patterns.push({ group: ['**/gate/*', ...GATE_FOR_REPORT], message: 'src/report/ reads only gate/types.ts and gate/verdict.ts.' });
  // Only the action's shell talks to GitHub: everything else runs in the CLI too.
  if (room !== 'action') patterns.push({ group: ['@actions/*'], message: 'Only src/action/ imports @actions/*.' });
  return { files: [`src/${room}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'reports/', '.stryker-tmp/', '**/*.mjs', '**/*.js', '!eslint.config.js'] },
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
      'no-restricted-imports': ['error', { patterns: [{ group: ['@actions/*'], message: 'Only src/action/ imports @actions/*.' }] }],
      // The room rules read static imports: a module of src imports another statically.
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/^[.]/]', message: 'Import modules of src statically, so that lint checks the rooms.' },
      ],
      curly: ['error', 'multi-line'],
    },
  },
  // The entries load their program after turning source maps on (scripts/bundle.mjs): one import() each.
  { files: ['src/bin.ts', 'src/index.ts'], rules: { 'no-restricted-syntax': 'off' } },
  // The action reaches the runner through context.ts only (its context and port are handed down), so
  // that run() is tested in the same process.
  {
    files: ['src/action/**/*.ts'],
    ignores: ['src/action/context.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/^[.]/]', message: 'Import modules of src statically, so that lint checks the rooms.' },
        ...[
          'MemberExpression[object.name="process"][property.name="env"]',
          'MemberExpression[object.name="process"][property.value="env"]',
          'VariableDeclarator[init.name="process"] > ObjectPattern > Property[key.name="env"]',
          'ImportDeclaration[source.value=/^(node:)?process$/]',
          'MemberExpression[object.name="github"][property.name="context"]',
          'ImportDeclaration[source.value="@actions/github"] ImportSpecifier[imported.name="context"]',
          'ImportDeclaration[source.value="@actions/github"] ImportNamespaceSpecifier',
          'ImportDeclaration[importKind="value"][source.value=/^@actions[/](core|cache)$/]',
        ].map((selector) => ({
          selector,
          message:
            'Only src/action/context.ts reads the runner (process.env, github.context, @actions/core and cache): take its context and port.',
        })),
      ],
    },
  },
  // The mutation tests' jest plugins: CommonJS, as Stryker's jest runner requires them.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...Object.entries(ROOMS).map(([room, allowed]) => roomRules(room, allowed)),
  // Test servers take async request handlers: a rejection there fails the test run loudly.
  {
    files: ['__tests__/**/*.ts'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }] },
  },
);
