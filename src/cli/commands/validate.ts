import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import { loadPolicy } from '../../policy/load.js';
import { escapeTerminal } from '../../report/escape.js';
import { count } from '../../report/format.js';
import { loadSuite } from '../../runner/suite.js';
import { EXIT_BAD_INPUT, EXIT_OK, printPolicyWarnings, type CommandContext } from '../io.js';

export function registerValidate(program: Command, { io, setExitCode }: CommandContext): void {
  program
    .command('validate')
    .description('Check policy files; print every problem with its file, line and column.')
    .argument('<policies...>', 'policy files')
    .option(
      '--suite <file>',
      "the suite whose runs the policies gate: when it scores with a judge, the gate's test of the judge's unknown verdicts counts in the blocking family",
    )
    .action(async (files: string[], flags: { suite?: string }) => {
      let invalid = false;
      const judged =
        flags.suite !== undefined && (await loadSuite(flags.suite)).suite.scenarios.some((scenario) => scenario.scorer === 'judge');
      for (const file of files) {
        try {
          const { policy, warnings, advice } = await loadPolicy(file, { judged });
          io.stdout(`ok: ${file} (${count(policy.checks.length, 'check')}, ${count(policy.tradeoffs.length, 'trade-off')})\n`);
          printPolicyWarnings(io, [...warnings, ...advice], escapeTerminal);
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          invalid = true;
          io.stderr(`${error.problems.map(escapeTerminal).join('\n')}\n`);
        }
      }
      setExitCode(invalid ? EXIT_BAD_INPUT : EXIT_OK);
    });
}
