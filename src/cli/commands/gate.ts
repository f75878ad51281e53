import type { Command } from 'commander';
import type { MissingBaseline } from '../../gate/not-compared.js';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetricsMemo } from '../../gate/compare.js';
import { baselineMetricsInThread, candidateMetricsInThread, gateRun } from '../../pipeline/gate-run.js';
import { MetricsThread, threadsFromEnv, type MetricsThreads } from '../../pipeline/metrics-thread.js';
import { gatePooled, poolRuns } from '../../pipeline/pool-runs.js';
import { loadPolicy, type LoadedPolicy } from '../../policy/load.js';
import { writeGateHtml } from '../../report/html.js';
import { writeGateReport, type GateReport } from '../../report/json.js';
import { gateMarkdown } from '../../report/markdown.js';
import { gateText } from '../../report/text.js';
import { loadRun } from '../../runs/load.js';
import { EXIT_GATE_FAILED, EXIT_OK, printPolicyWarnings, type CommandContext } from '../io.js';
import { escapeTerminal } from '../../report/escape.js';
import { collect, missingBaselineOption } from '../options.js';

interface GateFlags {
  policy: string;
  candidate: string;
  priorRun: string[];
  baseline?: string;
  missingBaseline: MissingBaseline;
  markdown?: string;
  json?: string;
  html?: string;
  verbose?: boolean;
}

/** A file's size, 0 when it cannot be read (loadRun then says why). */
const fileBytes = (file: string) =>
  stat(file).then(
    ({ size }) => size,
    () => 0,
  );

/**
 * The report of the candidate, pooled with the earlier runs given (in a temporary folder, removed after),
 * against the baseline if given. A candidate alone is read first: its metrics are computed in a second
 * thread (for a large run; the thread's program loads while this one reads) while this one reads the
 * baseline and compares.
 */
async function gateCandidate(policy: LoadedPolicy, flags: GateFlags, threads: MetricsThreads): Promise<GateReport> {
  const { missingBaseline } = flags;
  const loadBaseline = () => (flags.baseline ? loadRun(flags.baseline) : Promise.resolve(undefined));
  if (flags.priorRun.length === 0) {
    const memo = new MetricsMemo();
    const ahead = MetricsThread.ahead(threads, await fileBytes(flags.candidate));
    const candidate = await loadRun(flags.candidate).catch((error: unknown) => {
      ahead?.end();
      throw error;
    });
    const thread = candidateMetricsInThread(policy, candidate, memo, threads, ahead);
    const baseline = await loadBaseline();
    if (thread) baselineMetricsInThread(policy, baseline, memo, thread);
    return gateRun({ policy, candidate, baseline, missingBaseline }, memo);
  }
  const baseline = await loadBaseline();
  const folder = await mkdtemp(join(tmpdir(), 'evalgate-pool-'));
  try {
    const runs = [...flags.priorRun, flags.candidate].map((file) => ({ file, source: file }));
    const pooled = await poolRuns(runs, join(folder, 'pooled.jsonl'));
    return await gatePooled({ policy, baseline, missingBaseline }, pooled, await loadRun(flags.candidate));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export function registerGate(program: Command, { io, setExitCode }: CommandContext): void {
  program
    .command('gate')
    .description('Decide pass / warn / fail for a candidate against a policy and, optionally, a baseline.')
    .requiredOption('--policy <file>', 'policy file (YAML or JSON)')
    .requiredOption('--candidate <file>', "the candidate's records (JSON Lines) or metrics (JSON of evalgate metrics --json)")
    .option(
      '--prior-run <file>',
      "earlier runs' records of the same candidate (repeatable, oldest first): pooled with --candidate, each run's records as further samples of each example",
      collect,
      [],
    )
    .option('--baseline <file>', "the baseline's records or metrics; without it, regression budgets are skipped (see --missing-baseline)")
    .option(
      '--missing-baseline <what>',
      'skip | inconclusive: what a regression budget ends as without a baseline (inconclusive, as the action on a pull request: the verdict warns)',
      missingBaselineOption,
      'skip',
    )
    .option('--markdown <file>', 'also write the report as markdown (the pull-request comment)')
    .option('--json <file>', 'also write the report as JSON')
    .option('--html <file>', 'also write the report as one self-contained HTML page (charts as inline SVG, no script)')
    .option('--verbose', "also print each check's tests, power and counts, and the changed examples' texts")
    .action(async (flags: GateFlags) => {
      const policy = await loadPolicy(flags.policy);
      printPolicyWarnings(io, policy.warnings, escapeTerminal);
      const report = await gateCandidate(policy, flags, threadsFromEnv(io.threads));
      if (flags.markdown) await writeFile(flags.markdown, gateMarkdown(report, { minGroupSize: policy.policy.settings.min_group_size }));
      if (flags.json) await writeGateReport(flags.json, report);
      if (flags.html) await writeGateHtml(flags.html, report, { minGroupSize: policy.policy.settings.min_group_size });
      io.stdout(gateText(report, { colour: io.colour ?? false, verbose: flags.verbose ?? false }));
      setExitCode(report.verdict === 'fail' ? EXIT_GATE_FAILED : EXIT_OK);
    });
}
