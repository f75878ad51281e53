import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { isBadInput } from '../errors.js';
import { escapeTerminal } from '../report/escape.js';
import { registerCompare } from './commands/compare.js';
import { registerDemo } from './commands/demo.js';
import { registerDiff } from './commands/diff.js';
import { registerGate } from './commands/gate.js';
import { registerImport } from './commands/import.js';
import { registerMerge } from './commands/merge.js';
import { registerRejudge } from './commands/rejudge.js';
import { registerMetrics } from './commands/metrics.js';
import { registerPlan } from './commands/plan.js';
import { registerRun } from './commands/run.js';
import { registerSchema } from './commands/schema.js';
import { registerValidate } from './commands/validate.js';
import { EXIT_BAD_INPUT, EXIT_OK, type CliIo, type CommandContext } from './io.js';

export { EXIT_BAD_INPUT, EXIT_GATE_FAILED, EXIT_OK, type CliIo } from './io.js';

/** Every command, in the order `evalgate --help` lists them. */
const COMMANDS = [
  registerMetrics,
  registerGate,
  registerValidate,
  registerCompare,
  registerDiff,
  registerDemo,
  registerPlan,
  registerRun,
  registerMerge,
  registerRejudge,
  registerImport,
  registerSchema,
];

function buildProgram(context: CommandContext): Command {
  const program = new Command('evalgate')
    .description('Gate model releases on many metrics at once (HELM-style metrics with confidence intervals).')
    // The bundle inlines package.json's version: nothing is read at run time.
    .version(packageJson.version, '-V, --version', 'print the version of evalgate')
    .exitOverride()
    .configureOutput({ writeOut: context.io.stdout, writeErr: context.io.stderr })
    .showHelpAfterError();
  for (const register of COMMANDS) register(program, context);
  return program;
}

/** Runs one evalgate command line (without "node evalgate") and returns its exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = EXIT_OK;
  const program = buildProgram({ io, setExitCode: (code) => (exitCode = code) });
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT_BAD_INPUT;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other parse problem is bad usage (already printed).
      return error.exitCode === 0 ? EXIT_OK : EXIT_BAD_INPUT;
    }
    if (isBadInput(error)) {
      // Messages quote data (ids, file names): no control character of theirs reaches the terminal or a CI log.
      io.stderr(`evalgate: ${error.message.split('\n').map(escapeTerminal).join('\nevalgate: ')}\n`);
      return EXIT_BAD_INPUT;
    }
    throw error;
  }
}
