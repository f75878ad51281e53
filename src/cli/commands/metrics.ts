import type { Command } from 'commander';
import { computeMetrics, DEFAULT_COMPUTE_OPTIONS } from '../../metrics/compute.js';
import { metricsText } from '../../report/metrics-text.js';
import { loadRecordTable } from '../../runs/records.js';
import type { CommandContext } from '../io.js';
import { integerOption } from '../options.js';

export function registerMetrics(program: Command, { io }: CommandContext): void {
  program
    .command('metrics')
    .description('Compute every metric, with 95% bootstrap confidence intervals, from a records file (JSON Lines).')
    .argument('<records>', 'records file, one JSON record per line')
    .option('--json', 'print {"overall": {...}, "scenarios": {...}} as JSON on stdout and nothing else')
    .option('--seed <n>', 'seed of the bootstrap', integerOption(0, 2 ** 32 - 1), DEFAULT_COMPUTE_OPTIONS.seed)
    .option('--resamples <n>', 'bootstrap resamples (0: no intervals)', integerOption(0, 1_000_000), DEFAULT_COMPUTE_OPTIONS.resamples)
    .option(
      '--min-group-size <n>',
      'smallest group counted in worst-group and gap metrics',
      integerOption(1, Number.MAX_SAFE_INTEGER),
      DEFAULT_COMPUTE_OPTIONS.minGroupSize,
    )
    .action(async (records: string, flags: { json?: boolean; seed: number; resamples: number; minGroupSize: number }) => {
      const table = await loadRecordTable(records);
      const report = computeMetrics(table, { seed: flags.seed, resamples: flags.resamples, minGroupSize: flags.minGroupSize });
      io.stdout(flags.json ? `${JSON.stringify(report)}\n` : metricsText(report, flags.minGroupSize));
    });
}
