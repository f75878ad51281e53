import type { Command } from 'commander';
import { escapeTerminal } from '../../report/escape.js';
import { writeRecords } from '../../records/write.js';
import { BaselineAnswers } from '../../runner/baseline-answers.js';
import { CompletionCache } from '../../runner/cache.js';
import { adapterFromSpec } from '../../runner/models/index.js';
import { progressReporter } from '../../runner/progress.js';
import { DEFAULT_MAX_FAILED, DEFAULT_RUN_OPTIONS, describeRun, runSuite, tooManyFailures } from '../../runner/run.js';
import { commandToxicity, lexicalToxicity } from '../../runner/scoring/toxicity.js';
import { loadSuite } from '../../runner/suite.js';
import { MAX_SAMPLES, type Shard } from '../../runner/work-items.js';
import { EXIT_RUN_FAILED, type CommandContext } from '../io.js';
import { integerOption, shardOption, shareOption } from '../options.js';

interface RunFlags {
  suite: string;
  model: string;
  modelRevision?: string;
  baseUrl?: string;
  out: string;
  concurrency: number;
  rpm?: number;
  timeout: number;
  retries: number;
  cacheDir: string;
  cache: boolean;
  shard?: Shard;
  samples: number;
  toxicityCommand?: string;
  maxFailed: number;
  baselineRecords?: string;
}

async function runCommand(flags: RunFlags, { io, setExitCode }: CommandContext): Promise<void> {
  const loaded = await loadSuite(flags.suite);
  const adapter = await adapterFromSpec(flags.model, { baseUrl: flags.baseUrl, revision: flags.modelRevision });
  const baselineAnswers = flags.baselineRecords === undefined ? undefined : await BaselineAnswers.read(flags.baselineRecords, loaded);
  const toxicity = flags.toxicityCommand ? commandToxicity(flags.toxicityCommand, flags.timeout) : await lexicalToxicity();
  try {
    const { records, stats } = await runSuite(loaded, adapter, {
      concurrency: flags.concurrency,
      requestsPerMinute: flags.rpm,
      timeoutMs: flags.timeout,
      retries: flags.retries,
      backoffMs: DEFAULT_RUN_OPTIONS.backoffMs,
      cache: flags.cache ? new CompletionCache(flags.cacheDir) : undefined,
      toxicity,
      shard: flags.shard,
      samples: flags.samples,
      baselineAnswers,
      onProgress: progressReporter(io.stderr, io.interactive === true),
      onWarning: (message) => io.stderr(`evalgate: warning: ${escapeTerminal(message)}\n`),
    });
    await writeRecords(flags.out, records);
    io.stderr(`evalgate: ${flags.out}: ${describeRun(stats)}\n`);
    // The records are written (to see what failed), but a run that is mostly errors is no result.
    const failed = tooManyFailures(stats, flags.maxFailed);
    // So are grades that are mostly the judge's failures.
    const judgeFailed = stats.judge && tooManyFailures(stats.judge, flags.maxFailed);
    for (const problem of [failed, judgeFailed && `the judge: ${judgeFailed}`]) {
      if (!problem) continue;
      io.stderr(`evalgate: ${escapeTerminal(problem)}\n`);
      setExitCode(EXIT_RUN_FAILED);
    }
  } finally {
    await adapter.close();
    await toxicity.close();
  }
}

export function registerRun(program: Command, context: CommandContext): void {
  program
    .command('run')
    .description('Run an evaluation suite against a model and write one record per example (JSON Lines).')
    .requiredOption('--suite <file>', 'suite file (YAML or JSON)')
    .requiredOption('--model <spec>', 'openai:MODEL | command:"CMD ARGS" | replay:RECORDS.jsonl')
    .option('--model-revision <text>', "what the model is (a version, a checkpoint's hash): part of the completion cache's keys")
    .option('--base-url <url>', 'OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)')
    .requiredOption('--out <file>', 'records file to write')
    .option('--concurrency <n>', 'requests in flight', integerOption(1, 1024), DEFAULT_RUN_OPTIONS.concurrency)
    .option('--rpm <n>', 'at most this many requests started per minute', integerOption(1, 1_000_000))
    .option('--timeout <ms>', 'per-request time-out in milliseconds', integerOption(1, 3_600_000), DEFAULT_RUN_OPTIONS.timeoutMs)
    .option('--retries <n>', 'retries of a failed call (429, 5xx, network, time-out)', integerOption(0, 20), DEFAULT_RUN_OPTIONS.retries)
    .option('--cache-dir <dir>', 'completion cache directory', '.evalgate/completions')
    .option('--no-cache', 'ask the model even for cached completions')
    .option('--shard <i/n>', 'run only shard i of n (1-based); an instance and its variants stay together', shardOption)
    .option('--samples <k>', 'ask every example k times (temperature > 0); records carry "sample" 0..k-1', integerOption(1, MAX_SAMPLES), 1)
    .option(
      '--max-failed <share>',
      'exit 1 when more than this share of the calls failed (0.1 or 10%); 0: any failure',
      shareOption,
      DEFAULT_MAX_FAILED,
    )
    .option(
      '--baseline-records <file>',
      "the baseline's records: scenarios with judge_pairwise: baseline compare each completion with the baseline's of its example",
    )
    .option('--toxicity-command <cmd>', 'score toxicity with this program (JSON Lines) instead of the built-in word list')
    .action((flags: RunFlags) => runCommand(flags, context));
}
