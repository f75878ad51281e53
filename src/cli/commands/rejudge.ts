import type { Command } from 'commander';
import { writeRecords } from '../../records/write.js';
import { escapeTerminal } from '../../report/escape.js';
import { BaselineAnswers } from '../../runner/baseline-answers.js';
import { CompletionCache } from '../../runner/cache.js';
import { describeJudging } from '../../runner/judge.js';
import { progressReporter } from '../../runner/progress.js';
import { rejudgeRecords } from '../../runner/rejudge.js';
import { DEFAULT_RUN_OPTIONS } from '../../runner/run.js';
import { loadSuite } from '../../runner/suite.js';
import type { CommandContext } from '../io.js';
import { integerOption } from '../options.js';

interface RejudgeFlags {
  suite: string;
  records: string;
  out: string;
  concurrency: number;
  timeout: number;
  retries: number;
  cacheDir: string;
  cache: boolean;
  baselineRecords?: string;
}

export function registerRejudge(program: Command, { io }: CommandContext): void {
  program
    .command('rejudge')
    .description("Grade a records file's stored completions again with the suite's current judge (no call to the model under test).")
    .requiredOption('--suite <file>', 'the suite whose judge grades (its judged scenarios)')
    .requiredOption('--records <file>', 'records file whose completions are graded again')
    .requiredOption('--out <file>', 'records file to write')
    .option('--concurrency <n>', 'judge requests in flight', integerOption(1, 1024), DEFAULT_RUN_OPTIONS.concurrency)
    .option('--timeout <ms>', 'per-request time-out in milliseconds', integerOption(1, 3_600_000), DEFAULT_RUN_OPTIONS.timeoutMs)
    .option(
      '--retries <n>',
      'retries of a failed judge call (429, 5xx, network, time-out)',
      integerOption(0, 20),
      DEFAULT_RUN_OPTIONS.retries,
    )
    .option('--cache-dir <dir>', 'completion cache directory (the judge keeps its grades in its judge/ folder)', '.evalgate/completions')
    .option('--no-cache', 'ask the judge even for cached grades')
    .option(
      '--baseline-records <file>',
      "the baseline's records: scenarios with judge_pairwise: baseline compare each completion with the baseline's of its example",
    )
    .action(async (flags: RejudgeFlags) => {
      const loaded = await loadSuite(flags.suite);
      const baselineAnswers = flags.baselineRecords === undefined ? undefined : await BaselineAnswers.read(flags.baselineRecords, loaded);
      const { records, judged, stats } = await rejudgeRecords(loaded, flags.records, {
        concurrency: flags.concurrency,
        timeoutMs: flags.timeout,
        retries: flags.retries,
        backoffMs: DEFAULT_RUN_OPTIONS.backoffMs,
        cache: flags.cache ? new CompletionCache(flags.cacheDir) : undefined,
        baselineAnswers,
        onProgress: progressReporter(io.stderr, io.interactive === true),
        onWarning: (message) => io.stderr(`evalgate: warning: ${escapeTerminal(message)}\n`),
      });
      await writeRecords(flags.out, records);
      io.stderr(`evalgate: ${flags.out}: ${judged} of ${records.length} records judged again; ${describeJudging(stats)}\n`);
    });
}
