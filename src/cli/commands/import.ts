import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { IMPORT_FORMATS, importResults, MAPPABLE_FIELDS, parseColumnMap, writeImported, type ImportFormat } from '../../importers/index.js';
import type { CommandContext } from '../io.js';
import { collect } from '../options.js';

interface ImportFlags {
  from: string;
  out: string;
  provider?: string;
  groupVars?: string;
  groupKeys?: string;
  model?: string;
  map: string[];
  scenario?: string;
  summary?: boolean;
}

const PATH_HELP = [
  'lm-eval: samples_<task>_<timestamp>.jsonl files (-> records) or a results_*.json (-> metrics), or their folder',
  'helm: a run directory (-> records, or metrics with --summary)',
  'promptfoo: the JSON of promptfoo eval -o (-> records)',
  'inspect: an Inspect AI log (.eval or .json), or a folder of them: the newest log of each task (-> records)',
  'csv, jsonl: a table of per-example results, mapped with --map (-> records)',
  'metrics: an evalgate metrics file (checked)',
].join('; ');

/** A comma-separated list of names, or undefined. */
const names = (list: string | undefined) =>
  list
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);

export function registerImport(program: Command, { io }: CommandContext): void {
  program
    .command('import')
    .description("Turn another tool's output into evalgate records (or a metrics file of its summary numbers).")
    .requiredOption('--from <tool>', IMPORT_FORMATS.join(' | '))
    .argument('<path>', PATH_HELP)
    .requiredOption('--out <file>', 'records (JSON Lines) or metrics (JSON) file to write')
    .option('--provider <id>', 'promptfoo: the provider to import when the file has several')
    .option('--group-vars <names>', 'promptfoo: test variables to keep as groups, comma-separated')
    .option('--group-keys <names>', 'inspect: sample metadata keys to keep as groups, comma-separated')
    .option('--model <name>', 'inspect: the model whose logs to import when a folder has several')
    .option(
      '--map <field=column,...>',
      `csv, jsonl: the column (or JSON field) of each record field: ${MAPPABLE_FIELDS}; a number field's column may end in *FACTOR (latency_ms=latency_s*1000)`,
      collect,
      [],
    )
    .option('--scenario <name>', 'csv, jsonl: the scenario of every row, when the table has no scenario column')
    .option('--summary', "helm: HELM's own summary numbers (stats.json) as a metrics file instead of records")
    .action(async (path: string, flags: ImportFlags) => {
      if (!IMPORT_FORMATS.includes(flags.from as ImportFormat)) {
        throw new UsageError(`--from ${flags.from} is not supported; supported: ${IMPORT_FORMATS.join(', ')}`);
      }
      const imported = await importResults(flags.from as ImportFormat, path, {
        provider: flags.provider,
        groupVars: names(flags.groupVars),
        groupKeys: names(flags.groupKeys),
        model: flags.model,
        ...parseColumnMap(flags.map),
        scenario: flags.scenario,
        summary: flags.summary,
        onWarning: (message) => io.stderr(`evalgate: warning: ${message}\n`),
      });
      await writeImported(flags.out, imported);
      const what =
        imported.kind === 'metrics'
          ? `${Object.keys(imported.report.overall).length} summary metrics`
          : `${imported.records.length} records`;
      io.stderr(`evalgate: ${what} from ${path} to ${flags.out}\n`);
    });
}
