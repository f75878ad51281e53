import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { IMPORT_FORMATS, importResults, writeImported, type ImportFormat } from '../../importers/index.js';
import type { CommandContext } from '../io.js';

interface ImportFlags {
  from: string;
  out: string;
  provider?: string;
  groupVars?: string;
  summary?: boolean;
}

export function registerImport(program: Command, { io }: CommandContext): void {
  program
    .command('import')
    .description("Turn another tool's output into evalgate records (or a metrics file of its summary numbers).")
    .requiredOption('--from <tool>', IMPORT_FORMATS.join(' | '))
    .argument(
      '<path>',
      'lm-eval: samples_<task>_<timestamp>.jsonl files (-> records) or a results_*.json (-> metrics), or their folder; helm: a run directory (-> records, or metrics with --summary); promptfoo: the JSON of promptfoo eval -o (-> records); metrics: an evalgate metrics file (checked)',
    )
    .requiredOption('--out <file>', 'records (JSON Lines) or metrics (JSON) file to write')
    .option('--provider <id>', 'promptfoo: the provider to import when the file has several')
    .option('--group-vars <names>', 'promptfoo: test variables to keep as groups, comma-separated')
    .option('--summary', "helm: HELM's own summary numbers (stats.json) as a metrics file instead of records")
    .action(async (path: string, flags: ImportFlags) => {
      if (!IMPORT_FORMATS.includes(flags.from as ImportFormat)) {
        throw new UsageError(`--from ${flags.from} is not supported; supported: ${IMPORT_FORMATS.join(', ')}`);
      }
      const groupVars = flags.groupVars
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const imported = await importResults(flags.from as ImportFormat, path, {
        provider: flags.provider,
        groupVars,
        summary: flags.summary,
      });
      await writeImported(flags.out, imported);
      const what =
        imported.kind === 'metrics'
          ? `${Object.keys(imported.report.overall).length} summary metrics`
          : `${imported.records.length} records`;
      io.stderr(`evalgate: ${what} from ${path} to ${flags.out}\n`);
    });
}
