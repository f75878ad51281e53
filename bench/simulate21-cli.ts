// Issue 21's "Why", reproduced through the CLI as a user meets it: each trial writes records files and
// a policy, runs `node dist/cli.js gate ... --json report.json` (the committed bundle: `npm run bundle`
// first after a change of src/) and reads the report. Run by `node bench/run.mjs --only simulation21`
// (--part cli), or alone: node bench/out/simulate21-cli.mjs '{"trials": 200}'.
//
// Scenarios (records from bench/population21.ts; every trial its own seed, so results do not depend
// on the order or concurrency of the trials):
//   small       40 instances, a true 15-point accuracy drop, accuracy max_regression 0.02 and no
//               detect: the share of clean passes.
//   lenient     one run (no baseline) at 200, 300 and 2,000 instances gated on lenient bounds set at the
//               population values (each check on its own: multiplicity none): the share blocked per
//               check, and whether each check's 95% interval covers the population value.
//   realistic   A/A at 300 instances, a realistic policy (ece_10_bin max 0.04, gap max 0.08, worst
//               group min 0.70, five regression checks with budgets 0.01 and 5% on latency) in point
//               (default) and lenient mode: the share of pairs blocked.
//   resamples   A/A at 600 instances (the little bootstrap), one accuracy check with budget 0 and 40 (20 before
//               the built-in failure-rate check made two tests of it) or
//               2,000 resamples: the paired spread and the share blocked.
//   reruns      at the size `evalgate plan` recommends for an accuracy check (budget 0, detect 0.08), a
//               candidate truly 0.08 worse; after a failed first run the same commit is re-run up to 5
//               times, each run deciding alone (before issue 21), or on all runs' records pooled as samples
//               (`gate --prior-run`, as the action pools a pull request's re-runs).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalRecord } from '../src/records/types.js';
import { Random } from '../src/stats/random.js';
import { EQUAL_GROUPS, Generator, populationValues, type PopulationValues } from './population21.js';
import { meanOf, rate } from './sim21-common.js';

interface Options {
  trials: number;
  /** Trials of the 2,000-instance runs and of the re-run scenario (slower). */
  slowTrials: number;
  concurrency: number;
  scenarios: string[];
  cli: string;
}

interface CheckReport {
  metric: string;
  status: string;
  candidate: { value: number; ci: [number, number] | null } | null;
  comparison: { worsening: number; sd?: number; pWorse?: number } | null;
}
interface GateReport {
  verdict: 'pass' | 'warn' | 'fail';
  outcome: 'pass' | 'warn' | 'inconclusive' | 'fail' | 'error';
  checks: CheckReport[];
}

const root = mkdtempSync(join(tmpdir(), 'evalgate-sim21-'));

function writeRecords(file: string, records: EvalRecord[]): string {
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

/** One `evalgate gate`, its JSON report and exit code. */
function gate(
  cli: string,
  dir: string,
  policy: string,
  candidate: string,
  baseline?: string,
  priorRuns: string[] = [],
): Promise<GateReport & { exit: number }> {
  const report = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  const args = [
    ...[cli, 'gate', '--policy', policy, '--candidate', candidate, ...(baseline ? ['--baseline', baseline] : []), '--json', report],
    ...priorRuns.flatMap((file) => ['--prior-run', file]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exit) => {
      if (exit !== 0 && exit !== 1) return reject(new Error(`evalgate gate exited ${exit}: ${stderr}`));
      resolve({ ...(JSON.parse(readFileSync(report, 'utf8')) as GateReport), exit });
    });
  });
}

/** Runs trial(0..count-1) with at most `concurrency` at once; results in trial order. */
async function pool<T>(count: number, concurrency: number, trial: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await trial(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

function trialDir(scenario: string, index: number): string {
  const dir = join(root, `${scenario}-${index}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const policyFile = (dir: string, name: string, yaml: string) => {
  const file = join(dir, `${name}.yml`);
  writeFileSync(file, yaml);
  return file;
};

const regressionChecks = [
  '  - metric: accuracy\n    max_regression: 0.01\n',
  '  - metric: ece\n    max_regression: 0.01\n',
  '  - metric: accuracy_robust\n    max_regression: 0.01\n',
  '  - metric: accuracy_fair\n    max_regression: 0.01\n',
  '  - metric: latency_p95_ms\n    max_regression: 5%\n',
].join('');

const OUTCOMES = ['pass', 'warn', 'inconclusive', 'fail', 'error'] as const;

async function small(options: Options) {
  const verdicts = await pool(options.trials, options.concurrency, async (index) => {
    const dir = trialDir('small', index);
    const generator = new Generator(new Random(1000 + index), EQUAL_GROUPS);
    const instances = generator.instances(40);
    const baseline = writeRecords(join(dir, 'baseline.jsonl'), generator.records(instances, { variants: 1 }));
    const candidate = writeRecords(join(dir, 'candidate.jsonl'), generator.records(instances, { variants: 1, drop: 0.15 }));
    const policy = policyFile(dir, 'policy', 'version: 1\nname: small\nchecks:\n  - metric: accuracy\n    max_regression: 0.02\n');
    const report = await gate(options.cli, dir, policy, candidate, baseline);
    rmSync(dir, { recursive: true });
    return { verdict: report.verdict, outcome: report.outcome };
  });
  const count = (verdict: string) => verdicts.filter((v) => v.verdict === verdict).length;
  const outcomes = Object.fromEntries(
    OUTCOMES.map((outcome) => [outcome, rate(verdicts.filter((v) => v.outcome === outcome).length, verdicts.length)]),
  );
  return { instances: 40, drop: 0.15, pass: rate(count('pass'), verdicts.length), warn: rate(count('warn'), verdicts.length), outcomes };
}

const LENIENT_METRICS = [
  ['ece_10_bin', 'max'],
  ['ece', 'max'],
  ['group_accuracy_gap:region', 'max'],
  ['worst_group_accuracy:region', 'min'],
  ['accuracy', 'min'],
  ['latency_p95_ms', 'max'],
] as const;
const populationKey = (metric: string) => metric.split(':')[0] as keyof PopulationValues;

function lenientPolicy(truth: PopulationValues): string {
  const checks = LENIENT_METRICS.map(
    ([metric, side]) => `  - metric: ${metric}\n    ${side}: ${(truth[populationKey(metric)] as number).toPrecision(6)}\n`,
  );
  return `version: 1\nname: lenient at the population values\nsettings:\n  bounds: lenient\n  multiplicity: none\nchecks:\n${checks.join('')}`;
}

async function lenient(options: Options, n: number, trials: number) {
  const truth = populationValues(EQUAL_GROUPS);
  const reports = await pool(trials, options.concurrency, async (index) => {
    const dir = trialDir(`lenient-${n}`, index);
    const generator = new Generator(new Random(2000 + 7 * n + index), EQUAL_GROUPS);
    const candidate = writeRecords(join(dir, 'candidate.jsonl'), generator.records(generator.instances(n)));
    const report = await gate(options.cli, dir, policyFile(dir, 'policy', lenientPolicy(truth)), candidate);
    rmSync(dir, { recursive: true });
    return report;
  });
  return {
    instances: n,
    checks: LENIENT_METRICS.map(([metric]) => {
      const t = truth[populationKey(metric)] as number;
      const results = reports.map((report) => report.checks.find((check) => check.metric === metric)!);
      const covered = results.filter(({ candidate }) => candidate?.ci && candidate.ci[0] <= t && t <= candidate.ci[1]).length;
      return {
        metric,
        truth: t,
        blocks: rate(results.filter(({ status }) => status === 'fail').length, trials),
        cover95: rate(covered, trials),
        meanEstimate: meanOf(results.map(({ candidate }) => candidate?.value ?? NaN)).mean,
      };
    }),
  };
}

async function realistic(options: Options) {
  const bounds =
    '  - metric: ece_10_bin\n    max: 0.04\n  - metric: group_accuracy_gap:region\n    max: 0.08\n  - metric: worst_group_accuracy:region\n    min: 0.7\n';
  const verdicts = await pool(options.trials, options.concurrency, async (index) => {
    const dir = trialDir('realistic', index);
    const generator = new Generator(new Random(3000 + index), EQUAL_GROUPS);
    const instances = generator.instances(300);
    const baseline = writeRecords(join(dir, 'baseline.jsonl'), generator.records(instances));
    const candidate = writeRecords(join(dir, 'candidate.jsonl'), generator.records(instances));
    const result: Record<string, GateReport['verdict']> = {};
    for (const mode of ['point', 'lenient']) {
      const policy = policyFile(
        dir,
        mode,
        `version: 1\nname: realistic\nsettings:\n  bounds: ${mode}\nchecks:\n${bounds}${regressionChecks}`,
      );
      result[mode] = (await gate(options.cli, dir, policy, candidate, baseline)).verdict;
    }
    rmSync(dir, { recursive: true });
    return result;
  });
  const blocked = (mode: string) => rate(verdicts.filter((v) => v[mode] === 'fail').length, verdicts.length);
  return { instances: 300, point: blocked('point'), lenient: blocked('lenient') };
}

async function resamples(options: Options) {
  const counts = [40, 2000];
  const results = await pool(options.trials, options.concurrency, async (index) => {
    const dir = trialDir('resamples', index);
    const generator = new Generator(new Random(4000 + index), EQUAL_GROUPS);
    const instances = generator.instances(600);
    const baseline = writeRecords(join(dir, 'baseline.jsonl'), generator.records(instances, { variants: 1 }));
    const candidate = writeRecords(join(dir, 'candidate.jsonl'), generator.records(instances, { variants: 1 }));
    const out: Array<{ sd: number; blocked: boolean }> = [];
    for (const count of counts) {
      const policy = policyFile(
        dir,
        `r${count}`,
        `version: 1\nname: resamples\nsettings:\n  resamples: ${count}\nchecks:\n  - metric: accuracy\n    max_regression: 0\n`,
      );
      const report = await gate(options.cli, dir, policy, candidate, baseline);
      out.push({ sd: report.checks[0].comparison!.sd!, blocked: report.verdict === 'fail' });
    }
    rmSync(dir, { recursive: true });
    return out;
  });
  return {
    instances: 600,
    rows: counts.map((count, k) => ({
      resamples: count,
      sd: meanOf(results.map((r) => r[k].sd)),
      blocks: rate(results.filter((r) => r[k].blocked).length, results.length),
    })),
  };
}

interface PlanRow {
  metric: string;
  budget: number;
  mde: number;
  needed: number | null;
}

/** `evalgate plan --json`'s rows for a policy on a pair of records files. */
async function planRows(options: Options, policy: string, baseline: string, candidate: string): Promise<PlanRow[]> {
  const args = [options.cli, 'plan', '--policy', policy, '--baseline', baseline, '--candidate', candidate, '--json'];
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`evalgate plan exited ${code}`))));
  });
  return (JSON.parse(stdout) as { rows: PlanRow[] }).rows;
}

/** Instances `evalgate plan` says the check needs, from a pilot A/A pair of 300 instances. */
async function plannedInstances(options: Options, dir: string, policy: string): Promise<number> {
  const generator = new Generator(new Random(5000), EQUAL_GROUPS);
  const instances = generator.instances(300);
  const baseline = writeRecords(join(dir, 'pilot-baseline.jsonl'), generator.records(instances, { variants: 1 }));
  const candidate = writeRecords(join(dir, 'pilot-candidate.jsonl'), generator.records(instances, { variants: 1 }));
  return (await planRows(options, policy, baseline, candidate))[0].needed!;
}

/** The smallest `detect` that `plan` says the design sees: (MDE80 - b) / 0.85 above the budget (plan's margin). */
const seenDetect = ({ budget, mde }: PlanRow) => budget + (mde - budget) / 0.85;

/**
 * The Done-when's A/A case: 600 instances with their robustness and fairness variants, five blocking
 * regression checks (budgets 0.01, 5% on latency), each with a `detect` that `plan` says this design
 * sees (set once from a pilot A/A pair of the same size). The share of pairs blocked and inconclusive.
 */
async function aa600(options: Options) {
  const n = 600;
  const setup = trialDir('aa600-setup', 0);
  const pilot = new Generator(new Random(5600), EQUAL_GROUPS);
  const pilotInstances = pilot.instances(n);
  const rows = await planRows(
    options,
    policyFile(setup, 'pilot', `version: 1\nname: aa600 pilot\nchecks:\n${regressionChecks}`),
    writeRecords(join(setup, 'pilot-baseline.jsonl'), pilot.records(pilotInstances)),
    writeRecords(join(setup, 'pilot-candidate.jsonl'), pilot.records(pilotInstances)),
  );
  // Unit metrics in steps of 0.005; latency as a share of the baseline (its budget is 5% of it), in whole percents.
  const detects = rows.map((row) =>
    row.metric === 'latency_p95_ms'
      ? `${Math.ceil((100 * seenDetect(row)) / (row.budget / 0.05))}%`
      : (Math.ceil(seenDetect(row) / 0.005) * 0.005).toFixed(3),
  );
  const checks = regressionChecks
    .split('  - metric: ')
    .slice(1)
    .map((check, k) => `  - metric: ${check}    detect: ${detects[k]}\n`)
    .join('');
  const policy = policyFile(setup, 'policy', `version: 1\nname: aa600\nchecks:\n${checks}`);
  const planned = await planRows(options, policy, join(setup, 'pilot-baseline.jsonl'), join(setup, 'pilot-candidate.jsonl'));
  const results = await pool(options.trials, options.concurrency, async (index) => {
    const dir = trialDir('aa600', index);
    const generator = new Generator(new Random(7000 + index), EQUAL_GROUPS);
    const instances = generator.instances(n);
    const baseline = writeRecords(join(dir, 'baseline.jsonl'), generator.records(instances));
    const candidate = writeRecords(join(dir, 'candidate.jsonl'), generator.records(instances));
    const report = await gate(options.cli, dir, policy, candidate, baseline);
    rmSync(dir, { recursive: true });
    return { blocked: report.verdict === 'fail', inconclusive: report.checks.some(({ status }) => status === 'inconclusive') };
  });
  return {
    instances: n,
    checks: planned.map((row, k) => ({ metric: row.metric, detect: detects[k], mde: row.mde, needed: row.needed })),
    blocks: rate(results.filter((r) => r.blocked).length, results.length),
    inconclusive: rate(results.filter((r) => r.inconclusive).length, results.length),
  };
}

async function reruns(options: Options) {
  const detect = 0.08;
  const setup = trialDir('reruns-setup', 0);
  const policy = policyFile(
    setup,
    'policy',
    `version: 1\nname: reruns\nchecks:\n  - metric: accuracy\n    max_regression: 0\n    detect: ${detect}\n`,
  );
  const n = await plannedInstances(options, setup, policy);
  const RERUNS = 5;
  const prs = await pool(options.slowTrials, options.concurrency, async (index) => {
    const dir = trialDir('reruns', index);
    const generator = new Generator(new Random(6000 + index), EQUAL_GROUPS);
    const instances = generator.instances(n);
    const baseline = writeRecords(join(dir, 'baseline.jsonl'), generator.records(instances, { variants: 1 }));
    const runs = [writeRecords(join(dir, 'run-1.jsonl'), generator.records(instances, { variants: 1, drop: detect }))];
    const first = await gate(options.cli, dir, policy, runs[0], baseline);
    // The re-run at which each rule first passes (0: never within RERUNS).
    const escape = { independent: 0, pooled: 0 };
    if (first.verdict === 'fail') {
      for (let k = 2; k <= RERUNS + 1 && (escape.independent === 0 || escape.pooled === 0); k++) {
        runs.push(writeRecords(join(dir, `run-${k}.jsonl`), generator.records(instances, { variants: 1, drop: detect })));
        if (escape.independent === 0) {
          const alone = await gate(options.cli, dir, policy, runs[k - 1], baseline);
          if (alone.verdict !== 'fail') escape.independent = k - 1;
        }
        if (escape.pooled === 0) {
          // As the action pools a pull request's re-runs: this run, the earlier ones as --prior-run (oldest first).
          const all = await gate(options.cli, dir, policy, runs[k - 1], baseline, runs.slice(0, k - 1));
          if (all.verdict !== 'fail') escape.pooled = k - 1;
        }
      }
    }
    rmSync(dir, { recursive: true });
    return { failed: first.verdict === 'fail', escape };
  });
  const failed = prs.filter((pr) => pr.failed);
  const escaped = (rule: 'independent' | 'pooled', within: number) =>
    rate(failed.filter((pr) => pr.escape[rule] > 0 && pr.escape[rule] <= within).length, failed.length);
  return {
    instances: n,
    detect,
    firstBlocks: rate(failed.length, prs.length),
    escapes: [1, 2, 3, 5].map((within) => ({ within, independent: escaped('independent', within), pooled: escaped('pooled', within) })),
  };
}

async function main() {
  const given = JSON.parse(process.argv[2] ?? '{}') as Partial<Options>;
  const options: Options = {
    trials: 200,
    slowTrials: 100,
    concurrency: 2,
    scenarios: ['small', 'aa600', 'lenient', 'realistic', 'resamples', 'reruns'],
    cli: 'dist/cli.js',
    ...given,
  };
  const results: Record<string, unknown> = { trials: options.trials, slowTrials: options.slowTrials };
  const timed = async (name: string, run: () => Promise<object>) => {
    if (!options.scenarios.includes(name)) return;
    const started = Date.now();
    process.stderr.write(`simulation21 (CLI): ${name}...\n`);
    results[name] = { ...(await run()), seconds: (Date.now() - started) / 1000 };
  };
  try {
    await timed('small', () => small(options));
    await timed('aa600', () => aa600(options));
    await timed('lenient', async () => ({
      runs: [
        await lenient(options, 200, options.trials),
        await lenient(options, 300, options.trials),
        await lenient(options, 2000, options.slowTrials),
      ],
    }));
    await timed('realistic', () => realistic(options));
    await timed('resamples', () => resamples(options));
    await timed('reruns', () => reruns(options));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  console.log(JSON.stringify(results));
}

await main();
