import type { Command } from 'commander';
import { diffRuns } from '../../pipeline/instance-changes.js';
import { CHANGES_LIMIT, instanceChangesText } from '../../report/changes.js';
import { escapeTerminal as shown } from '../../report/escape.js';
import { loadRun } from '../../runs/load.js';
import type { CommandContext } from '../io.js';
import { integerOption } from '../options.js';

export function registerDiff(program: Command, { io }: CommandContext): void {
  program
    .command('diff')
    .description(
      'What changed instance by instance between two records files: right to wrong, wrong to right, and the examples that changed most.',
    )
    .requiredOption('--candidate <file>', "the candidate's records (JSON Lines)")
    .requiredOption('--baseline <file>', "the baseline's records (JSON Lines)")
    .option('--scenario <name>', 'only this scenario')
    .option('--limit <n>', 'examples listed per scenario and direction', integerOption(0, 1_000_000), CHANGES_LIMIT)
    .option('--json', 'print the changes as JSON on stdout and nothing else')
    .action(async (flags: { candidate: string; baseline: string; scenario?: string; limit: number; json?: boolean }) => {
      const [candidate, baseline] = await Promise.all([loadRun(flags.candidate), loadRun(flags.baseline)]);
      const changes = await diffRuns(candidate, baseline, { limit: flags.limit, scenario: flags.scenario });
      if (flags.json) {
        io.stdout(`${JSON.stringify({ candidate: flags.candidate, baseline: flags.baseline, ...changes })}\n`);
        return;
      }
      io.stdout(`evalgate diff: candidate ${shown(flags.candidate)} against baseline ${shown(flags.baseline)}\n\n`);
      io.stdout(instanceChangesText(changes));
    });
}
