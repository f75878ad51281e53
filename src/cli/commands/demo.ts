import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../io.js';
import { decisionMatrix } from './compare.js';

const DEMO_INTRODUCTION = `evalgate demo: a billing customer-support assistant and two candidates to replace it (synthetic data,
examples/billing/generate.mjs). Candidate A is more accurate and faster but overconfident on
ambiguous billing exceptions; candidate B is a little less accurate, well calibrated, slower and
more often rate-limited. Same models, two policies, different decisions:

`;

/** The folder of evalgate's package.json: above dist/cli.js when bundled, above src/cli/commands/ in the sources. */
function packageRoot(): string {
  for (let folder = dirname(fileURLToPath(import.meta.url)); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) {
      throw new UsageError('demo needs the files of the evalgate package (package.json, policies/, examples/) beside dist/cli.js');
    }
  }
}

export function registerDemo(program: Command, { io }: CommandContext): void {
  program
    .command('demo')
    .description('The bundled example: two candidate billing assistants under two policies, side by side.')
    .option('--html <file>', "also write the matrix as one self-contained HTML page, each cell linking to its gate's report")
    .action(async (flags: { html?: string }) => {
      const root = packageRoot();
      const at = (path: string) => relative(process.cwd(), join(root, path)) || '.';
      io.stdout(DEMO_INTRODUCTION);
      io.stdout(
        await decisionMatrix(
          [at('policies/customer-support.yml'), at('policies/realtime-chat.yml')],
          [`candidate-a=${at('examples/billing/candidate-a.jsonl')}`, `candidate-b=${at('examples/billing/candidate-b.jsonl')}`],
          at('examples/billing/baseline.jsonl'),
          flags.html,
        ),
      );
      const runs = `--candidate ${at('examples/billing/candidate-a.jsonl')} --baseline ${at('examples/billing/baseline.jsonl')}`;
      io.stdout(`\nOne gate in detail: npx evalgate gate --policy ${at('policies/customer-support.yml')} ${runs}\n`);
      io.stdout(`The examples candidate A broke and fixed: npx evalgate diff ${runs}\n`);
    });
}
