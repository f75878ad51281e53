import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateGate } from './gate/evaluate.js';
import { loadRun } from './gate/inputs.js';
import { computeMetrics, DEFAULT_COMPUTE_OPTIONS } from './metrics/compute.js';
import { loadRecordTable } from './metrics/load.js';
import { InputError, UsageError } from './records/errors.js';
import { escapeTerminal } from './report/markdown.js';
import { loadPolicy, PolicyError } from './policy/load.js';
import { policyJsonSchema } from './policy/schema.js';
import { IMPORT_FORMATS, importResults, type ImportFormat } from './importers/index.js';
import { gateMarkdown } from './report/gate-markdown.js';
import { buildGateReport } from './report/gate-report.js';
import { decisionMatrixText } from './report/compare-text.js';
import { gateText } from './report/gate-text.js';
import { metricsText } from './report/metrics-text.js';
import { adapterFromSpec } from './runner/adapters.js';
import { CompletionCache } from './runner/cache.js';
import { commandToxicity, lexicalToxicity } from './runner/toxicity.js';
import { mergeShards } from './runner/merge.js';
import { progressReporter } from './runner/progress.js';
import { DEFAULT_RUN_OPTIONS, describeRun, exampleKeys, runSuite } from './runner/run.js';
import { writeRecords } from './records/write.js';
import { loadSuite } from './runner/suite.js';

/** Exit codes of every evalgate command. */
export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_BAD_INPUT = 2;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Colour the terminal report (stdout is a TTY). */
  colour?: boolean;
  /** stderr is a terminal: progress as a bar rather than log lines. */
  interactive?: boolean;
}

/** --shard i/n */
function shardOption(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new InvalidArgumentError(`expected i/n with 1 <= i <= n, got "${text}"`);
  return { index, count };
}

/** An option that may be given several times. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}


const DEMO_INTRODUCTION = `evalgate demo: a billing customer-support assistant and two candidates to replace it (synthetic data,
examples/billing/generate.mjs). Candidate A is more accurate and faster but overconfident on
ambiguous billing exceptions; candidate B is a little less accurate, well calibrated, slower and
more often rate-limited. Same models, two policies, different decisions:

`;

function integerOption(minimum: number, maximum: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < minimum || value > maximum) {
      throw new InvalidArgumentError(`expected an integer from ${minimum} to ${maximum}, got "${text}"`);
    }
    return value;
  };
}

function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
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

  program
    .command('gate')
    .description('Decide pass / warn / fail for a candidate against a policy and, optionally, a baseline.')
    .requiredOption('--policy <file>', 'policy file (YAML or JSON)')
    .requiredOption('--candidate <file>', "the candidate's records (JSON Lines) or metrics (JSON of evalgate metrics --json)")
    .option('--baseline <file>', "the baseline's records or metrics; without it, regression budgets are skipped")
    .option('--markdown <file>', 'also write the report as markdown (the pull-request comment)')
    .option('--json <file>', 'also write the report as JSON')
    .action(async (flags: { policy: string; candidate: string; baseline?: string; markdown?: string; json?: string }) => {
      const policy = await loadPolicy(flags.policy);
      const candidate = await loadRun(flags.candidate);
      const baseline = flags.baseline ? await loadRun(flags.baseline) : undefined;
      const result = evaluateGate({ policy: policy.policy, candidate, baseline });
      const report = buildGateReport(result, policy, candidate, baseline, result.candidateMetrics.scenarios);
      if (flags.markdown) await writeFile(flags.markdown, gateMarkdown(report, policy.policy.settings.min_group_size));
      if (flags.json) await writeFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
      io.stdout(gateText(report, io.colour ?? false));
      setExitCode(result.verdict === 'fail' ? EXIT_GATE_FAILED : EXIT_OK);
    });

  program
    .command('validate')
    .description('Check policy files; print every problem with its file, line and column.')
    .argument('<policies...>', 'policy files')
    .action(async (files: string[]) => {
      let invalid = false;
      for (const file of files) {
        try {
          const { policy } = await loadPolicy(file);
          io.stdout(`ok: ${file} (${policy.checks.length} checks, ${policy.tradeoffs.length} trade-offs)\n`);
        } catch (error) {
          if (!(error instanceof PolicyError)) throw error;
          invalid = true;
          io.stderr(`${error.problems.join('\n')}\n`);
        }
      }
      setExitCode(invalid ? EXIT_BAD_INPUT : EXIT_OK);
    });

  const compare = async (policyFiles: string[], candidateSpecs: string[], baselineFile: string | undefined) => {
    const candidates = candidateSpecs.map((spec) => {
      const split = spec.indexOf('=');
      if (split <= 0 || split === spec.length - 1) throw new UsageError(`--candidate expects NAME=FILE, got "${spec}"`);
      return { name: spec.slice(0, split), file: spec.slice(split + 1) };
    });
    const policies = await Promise.all(policyFiles.map(loadPolicy));
    const runs = await Promise.all(candidates.map(({ file }) => loadRun(file)));
    const baseline = baselineFile ? await loadRun(baselineFile) : undefined;
    const cells = policies.flatMap((policy) =>
      candidates.map((candidate, index) => ({ policy: policy.policy.name, candidate: candidate.name, result: evaluateGate({ policy: policy.policy, candidate: runs[index], baseline }) })),
    );
    return decisionMatrixText(policies.map((policy) => policy.policy.name), candidates.map(({ name }) => name), cells);
  };

  program
    .command('compare')
    .description('The decision matrix: each candidate under each policy, which one each policy would ship and why not the others.')
    .requiredOption('--policy <file>', 'a policy file (repeat for several)', collect, [])
    .requiredOption('--candidate <name=file>', 'a named candidate (repeat for several)', collect, [])
    .option('--baseline <file>', "the baseline's records or metrics")
    .action(async (flags: { policy: string[]; candidate: string[]; baseline?: string }) => {
      // commander counts the empty default of a repeatable option as given.
      if (flags.policy.length === 0 || flags.candidate.length === 0) throw new UsageError('compare needs at least one --policy and one --candidate NAME=FILE');
      io.stdout(await compare(flags.policy, flags.candidate, flags.baseline));
    });

  program
    .command('demo')
    .description('The bundled example: two candidate billing assistants under two policies, side by side.')
    .action(async () => {
      const root = fileURLToPath(new URL('..', import.meta.url));
      const at = (path: string) => relative(process.cwd(), join(root, path)) || '.';
      io.stdout(DEMO_INTRODUCTION);
      io.stdout(
        await compare(
          [at('policies/customer-support.yml'), at('policies/realtime-chat.yml')],
          [`candidate-a=${at('examples/billing/candidate-a.jsonl')}`, `candidate-b=${at('examples/billing/candidate-b.jsonl')}`],
          at('examples/billing/baseline.jsonl'),
        ),
      );
      io.stdout(`\nOne gate in detail: evalgate gate --policy ${at('policies/customer-support.yml')} --candidate ${at('examples/billing/candidate-a.jsonl')} --baseline ${at('examples/billing/baseline.jsonl')}\n`);
    });

  program
    .command('run')
    .description('Run an evaluation suite against a model and write one record per example (JSON Lines).')
    .requiredOption('--suite <file>', 'suite file (YAML or JSON)')
    .requiredOption('--model <spec>', 'openai:MODEL | command:"CMD ARGS" | replay:RECORDS.jsonl')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)')
    .requiredOption('--out <file>', 'records file to write')
    .option('--concurrency <n>', 'requests in flight', integerOption(1, 1024), DEFAULT_RUN_OPTIONS.concurrency)
    .option('--rpm <n>', 'at most this many requests started per minute', integerOption(1, 1_000_000))
    .option('--timeout <ms>', 'per-request time-out in milliseconds', integerOption(1, 3_600_000), DEFAULT_RUN_OPTIONS.timeoutMs)
    .option('--retries <n>', 'retries of a failed call (429, 5xx, network, time-out)', integerOption(0, 20), DEFAULT_RUN_OPTIONS.retries)
    .option('--cache-dir <dir>', 'completion cache directory', '.evalgate/completions')
    .option('--no-cache', 'ask the model even for cached completions')
    .option('--shard <i/n>', 'run only shard i of n (1-based); an instance and its variants stay together', shardOption)
    .option('--toxicity-command <cmd>', 'score toxicity with this program (JSON Lines) instead of the built-in word list')
    .action(async (flags: { suite: string; model: string; baseUrl?: string; out: string; concurrency: number; rpm?: number; timeout: number; retries: number; cacheDir: string; cache: boolean; shard?: { index: number; count: number }; toxicityCommand?: string }) => {
      const loaded = await loadSuite(flags.suite);
      const adapter = await adapterFromSpec(flags.model, flags.baseUrl);
      const cache = flags.cache ? new CompletionCache(flags.cacheDir) : undefined;
      const toxicity = flags.toxicityCommand ? commandToxicity(flags.toxicityCommand, flags.timeout) : lexicalToxicity();
      try {
        const { records, stats } = await runSuite(loaded, adapter, {
          concurrency: flags.concurrency,
          requestsPerMinute: flags.rpm,
          timeoutMs: flags.timeout,
          retries: flags.retries,
          backoffMs: DEFAULT_RUN_OPTIONS.backoffMs,
          cache,
          toxicity,
          shard: flags.shard,
          onProgress: progressReporter(io.stderr, io.interactive === true),
          onWarning: (message) => io.stderr(`evalgate: warning: ${message}\n`),
        });
        await writeRecords(flags.out, records);
        io.stderr(`evalgate: ${flags.out}: ${describeRun(stats)}\n`);
      } finally {
        await adapter.close();
        await toxicity.close();
      }
    });

  program
    .command('merge')
    .description('Combine the records of shards (evalgate run --shard) into one file; refuse duplicates, and with --suite gaps.')
    .argument('<shards...>', 'records files of the shards')
    .requiredOption('--out <file>', 'merged records file')
    .option('--suite <file>', 'the suite the shards ran: every example must be in exactly one shard')
    .action(async (files: string[], flags: { out: string; suite?: string }) => {
      const expected = flags.suite ? exampleKeys(await loadSuite(flags.suite)) : undefined;
      const records = await mergeShards(files, expected);
      await writeRecords(flags.out, records);
      io.stderr(`evalgate: ${records.length} records from ${files.length} shards to ${flags.out}\n`);
    });

  program
    .command('import')
    .description("Turn another tool's output into evalgate records (or a metrics file of its summary numbers).")
    .requiredOption('--from <tool>', 'helm | lm-eval | promptfoo | metrics')
    .argument(
      '<path>',
      'lm-eval: samples_<task>_<timestamp>.jsonl files (-> records) or a results_*.json (-> metrics), or their folder; helm: a run directory (-> records, or metrics with --summary); promptfoo: the JSON of promptfoo eval -o (-> records); metrics: an evalgate metrics file (checked)',
    )
    .requiredOption('--out <file>', 'records (JSON Lines) or metrics (JSON) file to write')
    .option('--provider <id>', 'promptfoo: the provider to import when the file has several')
    .option('--group-vars <names>', 'promptfoo: test variables to keep as groups, comma-separated')
    .option('--summary', "helm: HELM's own summary numbers (stats.json) as a metrics file instead of records")
    .action(async (path: string, flags: { from: string; out: string; provider?: string; groupVars?: string; summary?: boolean }) => {
      if (!IMPORT_FORMATS.includes(flags.from as ImportFormat)) throw new UsageError(`--from ${flags.from} is not supported; supported: ${IMPORT_FORMATS.join(', ')}`);
      const groupVars = flags.groupVars?.split(',').map((name) => name.trim()).filter(Boolean);
      const imported = await importResults(flags.from as ImportFormat, path, { provider: flags.provider, groupVars, summary: flags.summary });
      if (imported.kind === 'metrics') {
        await writeFile(flags.out, `${JSON.stringify(imported.report)}\n`);
        io.stderr(`evalgate: ${Object.keys(imported.report.overall).length} summary metrics from ${path} to ${flags.out}\n`);
      } else {
        await writeRecords(flags.out, imported.records);
        io.stderr(`evalgate: ${imported.records.length} records from ${path} to ${flags.out}\n`);
      }
    });

  program
    .command('schema')
    .description('Print the JSON Schema of policy files (for editors).')
    .action(() => io.stdout(`${JSON.stringify(policyJsonSchema(), null, 2)}\n`));

  return program;
}

/** Runs one evalgate command line (without "node evalgate") and returns its exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = EXIT_OK;
  const program = buildProgram(io, (code) => (exitCode = code));
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
    if (error instanceof InputError || error instanceof PolicyError || error instanceof UsageError) {
      // Messages quote data (ids, file names): no control character of theirs reaches the terminal or a CI log.
      io.stderr(`evalgate: ${error.message.split('\n').map(escapeTerminal).join('\nevalgate: ')}\n`);
      return EXIT_BAD_INPUT;
    }
    throw error;
  }
}
