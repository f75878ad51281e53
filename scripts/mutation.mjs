// npm run mutation: Stryker over the decision code (stryker.config.mjs), in four runs whose mutants
// are instrumented apart: the gate's files and the escaping (called once per check), the calibration
// metrics, the random numbers and sorting, then the rest of the statistics. Stryker's instrumented
// code counts every expression it runs, so each mutant's tests run as slowly as the instrumented code
// they pass through: the hot loops of the last three, together, made every test of each of them
// several times slower (the decision tests: 1.4 s, 3 s with the rest of the statistics instrumented,
// 7 s with the calibration or with the random numbers and sorting, 12-15 s with all three). Each run
// keeps its own incremental file; their reports are merged into reports/mutation/mutation.json
// (mutation-testing-report-schema), each run's HTML report beside it.
// With --mutate (`npm run mutation -- --mutate src/gate/bounds.ts`), one run of what it names.
// With --jest, Stryker's jest runner (jest.mutation.config.js) instead of the decision tests' own
// (__tests__/mutation/stryker-runner.mjs): the same tests and mutants, three to four times as long
// (jest starts again for every mutant), to check that both runners agree; its incremental results are
// kept apart. Other arguments go to every run (--force, --concurrency 1, --timeoutMS 60000).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const jest = process.argv.includes('--jest');
const args = process.argv.slice(2).filter((arg) => arg !== '--jest');
const runner = jest
  ? { options: ['--testRunner', 'jest'], env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() } }
  : { options: [], env: {} };
const incremental = (name) => `reports/mutation/stryker-incremental${name ? `-${name}` : ''}${jest ? '-jest' : ''}.json`;
const BATCHES = [
  { name: 'gate', mutate: 'src/gate/**/*.ts,!src/gate/types.ts,src/report/escape.ts' },
  { name: 'calibration', mutate: 'src/metrics/calibration.ts' },
  { name: 'random-sort', mutate: 'src/stats/random.ts,src/stats/sort.ts' },
  {
    name: 'statistics',
    mutate: 'src/stats/**/*.ts,!src/stats/random.ts,!src/stats/sort.ts,src/metrics/statistics.ts,src/metrics/bound-components.ts',
  },
];
const REPORTS = 'reports/mutation';

function stryker(extra, env = {}) {
  const result = spawnSync('npx', ['stryker', 'run', ...runner.options, ...extra, ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...runner.env, ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (args.includes('--mutate')) {
  stryker(['--incrementalFile', incremental('')]);
} else {
  mkdirSync(REPORTS, { recursive: true });
  const reports = BATCHES.map(({ name, mutate }) => {
    const report = `${REPORTS}/mutation-${name}.json`;
    stryker(['--mutate', mutate, '--incrementalFile', incremental(name)], {
      EVALGATE_MUTATION_REPORT: `${REPORTS}/mutation-${name}`,
    });
    if (!existsSync(report)) throw new Error(`${report}: Stryker wrote no report`);
    return JSON.parse(readFileSync(report, 'utf8'));
  });
  // One report of every file: the runs' files are apart, their tests the same.
  const merged = { ...reports[0], files: Object.assign({}, ...reports.map((report) => report.files)) };
  writeFileSync(`${REPORTS}/mutation.json`, JSON.stringify(merged));
  console.log(
    `${REPORTS}/mutation.json: ${Object.keys(merged.files).length} files (HTML: ${BATCHES.map(({ name }) => `mutation-${name}.html`).join(', ')})`,
  );
}
