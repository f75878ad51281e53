import type { Command } from 'commander';
import { writeRecords } from '../../records/write.js';
import { count } from '../../report/format.js';
import { mergeShards } from '../../runner/merge.js';
import { loadSuite } from '../../runner/suite.js';
import { exampleKeys, MAX_SAMPLES } from '../../runner/work-items.js';
import type { CommandContext } from '../io.js';
import { integerOption } from '../options.js';

export function registerMerge(program: Command, { io }: CommandContext): void {
  program
    .command('merge')
    .description('Combine the records of shards (evalgate run --shard) into one file; refuse duplicates, and with --suite gaps.')
    .argument('<shards...>', 'records files of the shards')
    .requiredOption('--out <file>', 'merged records file')
    .option('--suite <file>', 'the suite the shards ran: every example must be in exactly one shard')
    .option(
      '--samples <k>',
      'with --suite: the shards ran with --samples k, so every example has k samples',
      integerOption(1, MAX_SAMPLES),
      1,
    )
    .action(async (files: string[], flags: { out: string; suite?: string; samples: number }) => {
      const expected = flags.suite ? exampleKeys(await loadSuite(flags.suite), flags.samples) : undefined;
      const records = await mergeShards(files, expected);
      await writeRecords(flags.out, records);
      io.stderr(`evalgate: ${count(records.length, 'record')} from ${count(files.length, 'shard')} to ${flags.out}\n`);
    });
}
