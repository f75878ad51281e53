import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { gateAll } from '../../pipeline/gate-run.js';
import { loadPolicy } from '../../policy/load.js';
import { decisionMatrixText } from '../../report/compare.js';
import { decisionMatrixHtml } from '../../report/compare-html.js';
import { loadRun } from '../../runs/load.js';
import type { CommandContext } from '../io.js';
import { collect } from '../options.js';

/** The decision matrix of the candidates ("NAME=FILE") under the policies, as text; also as an HTML page into `htmlFile`. */
export async function decisionMatrix(
  policyFiles: string[],
  candidateSpecs: string[],
  baselineFile: string | undefined,
  htmlFile?: string,
): Promise<string> {
  const candidates = candidateSpecs.map((spec) => {
    const split = spec.indexOf('=');
    if (split <= 0 || split === spec.length - 1) throw new UsageError(`--candidate expects NAME=FILE, got "${spec}"`);
    return { name: spec.slice(0, split), file: spec.slice(split + 1) };
  });
  const policies = await Promise.all(policyFiles.map((file) => loadPolicy(file)));
  const runs = await Promise.all(candidates.map(async ({ name, file }) => ({ name, run: await loadRun(file) })));
  const baseline = baselineFile ? await loadRun(baselineFile) : undefined;
  const cells = await gateAll(policies, runs, baseline);
  const policyNames = policies.map((policy) => policy.policy.name);
  const candidateNames = candidates.map(({ name }) => name);
  if (htmlFile) {
    const minGroupSize = (name: string) => policies.find((policy) => policy.policy.name === name)!.policy.settings.min_group_size;
    await writeFile(htmlFile, await decisionMatrixHtml(policyNames, candidateNames, cells, minGroupSize));
  }
  return decisionMatrixText(policyNames, candidateNames, cells);
}

export function registerCompare(program: Command, { io }: CommandContext): void {
  program
    .command('compare')
    .description('The decision matrix: each candidate under each policy, which one each policy would ship and why not the others.')
    .requiredOption('--policy <file>', 'a policy file (repeat for several)', collect, [])
    .requiredOption('--candidate <name=file>', 'a named candidate (repeat for several)', collect, [])
    .option('--baseline <file>', "the baseline's records or metrics")
    .option('--html <file>', "also write the matrix as one self-contained HTML page, each cell linking to its gate's report")
    .action(async (flags: { policy: string[]; candidate: string[]; baseline?: string; html?: string }) => {
      // commander counts the empty default of a repeatable option as given.
      if (flags.policy.length === 0 || flags.candidate.length === 0) {
        throw new UsageError('compare needs at least one --policy and one --candidate NAME=FILE');
      }
      io.stdout(await decisionMatrix(flags.policy, flags.candidate, flags.baseline, flags.html));
    });
}
