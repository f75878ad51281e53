import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { computeMetrics, DEFAULT_COMPUTE_OPTIONS } from './metrics/compute.js';
import { loadRecordTable } from './metrics/load.js';
import { InputError } from './records/errors.js';
import { metricsText } from './report/metrics-text.js';

/** Exit codes of every evalgate command. */
export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function integerOption(minimum: number, maximum: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < minimum || value > maximum) {
      throw new InvalidArgumentError(`expected an integer from ${minimum} to ${maximum}, got "${text}"`);
    }
    return value;
  };
}

function buildProgram(io: CliIo): Command {
  const program = new Command('evalgate')
    .description('Gate model releases on many metrics at once (HELM-style metrics with confidence intervals).')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError();

  program
    .command('metrics')
    .description('Compute every metric, with 95% bootstrap confidence intervals, from a records file (JSON Lines).')
    .argument('<records>', 'records file, one JSON record per line')
    .option('--json', 'print {"overall": {...}, "scenarios": {...}} as JSON on stdout and nothing else')
    .option('--seed <n>', 'seed of the bootstrap', integerOption(0, 2 ** 32 - 1), DEFAULT_COMPUTE_OPTIONS.seed)
    .option('--resamples <n>', 'bootstrap resamples (0: no intervals)', integerOption(0, 1_000_000), DEFAULT_COMPUTE_OPTIONS.resamples)
    .option('--min-group-size <n>', 'smallest group counted in worst-group and gap metrics', integerOption(1, Number.MAX_SAFE_INTEGER), DEFAULT_COMPUTE_OPTIONS.minGroupSize)
    .action(async (records: string, flags: { json?: boolean; seed: number; resamples: number; minGroupSize: number }) => {
      const table = await loadRecordTable(records);
      const report = computeMetrics(table, { seed: flags.seed, resamples: flags.resamples, minGroupSize: flags.minGroupSize });
      io.stdout(flags.json ? `${JSON.stringify(report)}\n` : metricsText(report, flags.minGroupSize));
    });

  return program;
}

/** Runs one evalgate command line (without "node evalgate") and returns its exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT_BAD_INPUT;
    }
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other parse problem is bad usage (already printed).
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (error instanceof InputError) {
      io.stderr(`evalgate: ${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    throw error;
  }
}
