import type { Command } from 'commander';
import { markdownTable } from 'markdown-table';
import { planSuite, type PlanRow } from '../../pipeline/plan.js';
import { loadPolicy } from '../../policy/load.js';
import { escapeTerminal as shown } from '../../report/escape.js';
import { formatNumber } from '../../report/format.js';
import { loadRun } from '../../runs/load.js';
import { printPolicyWarnings, type CommandContext } from '../io.js';

function verdict(row: PlanRow): string {
  if (row.mde === null) return 'unknown: the runs show no spread';
  if (row.needed === null) return 'detect is not above the budget';
  return row.needed <= row.instances ? 'enough' : `needs ${row.needed} instances (${row.needed - row.instances} more)`;
}

/** Samples per example: now, needed for what the check must detect, and the share of the variance within examples. */
function samplesCell(row: PlanRow): string {
  const within = row.withinShare === null ? '' : ` (${Math.round(row.withinShare * 100)}% within)`;
  const needed = row.samplesNeeded === null ? `-${within}: ${row.samplesNote}` : `${row.samplesNeeded} needed${within}`;
  return `${formatNumber(row.samples)} now, ${needed}`;
}

function planText(rows: PlanRow[], problems: Array<{ metric: string; scope: string; reason: string }>, paired: boolean): string {
  const table = markdownTable(
    [
      [
        'metric',
        'scope',
        'budget',
        'must detect',
        'spread',
        'instances',
        'can detect now (80%)',
        'for what it must detect',
        'samples per example',
      ],
      ...rows.map((row) => [
        shown(row.metric),
        shown(row.scope),
        formatNumber(row.budget),
        row.detectFrom === 'default' ? `${formatNumber(row.detect)} (default)` : formatNumber(row.detect),
        formatNumber(row.spread),
        String(row.instances),
        row.mde === null ? '-' : formatNumber(row.mde),
        verdict(row),
        shown(samplesCell(row)),
      ]),
    ],
    { align: ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l'] },
  );
  const spread = paired
    ? 'spread: the standard error of the paired comparison (bootstrap of the shared instances).'
    : "spread: sqrt(2) x the baseline's standard error, the spread of two independent runs; a candidate (--candidate) gives the paired spread, usually smaller.";
  const lines = [
    table,
    '',
    spread,
    'instances needed: for MDE80 = b + (z(1 - alpha / m) + z(0.8)) spread <= b + 0.85 (detect - b), with a margin so that the run-to-run spread of the bootstrap does not make a suite sized exactly inconclusive half the time.',
    'must detect (default): the check states no detect: max(3 x budget, 0.05) on a [0, 1] metric, 3 x a relative budget, 10% of the baseline for a budget of 0 on another metric.',
    "samples per example: now, and needed at today's instances for what it must detect (with the same margin); within: the share of the variance that is noise within examples (more samples shrink it as 1/K).",
    ...problems.map((problem) => `not planned: ${shown(problem.metric)} (${shown(problem.scope)}): ${shown(problem.reason)}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerPlan(program: Command, { io }: CommandContext): void {
  program
    .command('plan')
    .description(
      'Size the suite: per regression check, the smallest regression it sees today (80% power) and the instances it needs to see what it must detect.',
    )
    .requiredOption('--policy <file>', 'policy file (YAML or JSON)')
    .requiredOption('--baseline <file>', "the baseline's records")
    .option('--candidate <file>', "a candidate's records, for the paired spread")
    .option('--json', 'print the plan as JSON')
    .action(async (flags: { policy: string; baseline: string; candidate?: string; json?: boolean }) => {
      const policy = await loadPolicy(flags.policy);
      printPolicyWarnings(io, policy.warnings, shown);
      const baseline = await loadRun(flags.baseline);
      const candidate = flags.candidate ? await loadRun(flags.candidate) : undefined;
      const { rows, problems } = planSuite(policy, baseline, candidate);
      io.stdout(flags.json ? `${JSON.stringify({ rows, problems }, null, 2)}\n` : planText(rows, problems, candidate !== undefined));
    });
}
