import { InputError } from '../errors.js';
import { forEachRecord } from '../records/read.js';
import type { EvalRecord } from '../records/types.js';
import { closeJudges, judgesOf, newJudgeStats, type JudgeStats } from './judge.js';
import type { RunOptions } from './run.js';
import type { LoadedSuite } from './suite.js';

/*
 * `evalgate rejudge`: a records file's stored completions graded again by the suite's current judge,
 * without a call to the model under test, so that a baseline judged by an earlier judge (another model,
 * snapshot, template) can be compared with a candidate judged by this one. Every record of a judged
 * scenario that has a completion is graded again: its `correct`, `judge`, `judge_error`,
 * `judge_pairwise` and `provenance.scorer` replaced; everything else (the failed calls, other scenarios) is kept as it is.
 */

/** The fields a judge writes: taken off a record before it is graded again. */
const JUDGED_FIELDS = ['correct', 'judge', 'judge_error', 'judge_pairwise'] as const;

export async function rejudgeRecords(
  loaded: LoadedSuite,
  file: string,
  options: RunOptions,
): Promise<{ records: EvalRecord[]; judged: number; stats: JudgeStats }> {
  const records: EvalRecord[] = [];
  const work: Array<{ index: number; scenario: number }> = [];
  const scenarioIndex = new Map(loaded.suite.scenarios.map((scenario, index) => [scenario.name, index]));
  await forEachRecord(file, (record, line) => {
    const scenario = scenarioIndex.get(record.scenario);
    if (scenario !== undefined && loaded.suite.scenarios[scenario].scorer === 'judge' && record.error === undefined) {
      if (typeof record.prediction !== 'string') {
        throw new InputError(file, line, `"prediction" is required to judge the record again: the scenario "${record.scenario}" is judged`);
      }
      work.push({ index: records.length, scenario });
    }
    records.push(record);
  });
  const stats = newJudgeStats();
  const warned = new Set<string>();
  const warnOnce = (kind: string, message: string) => {
    if (!warned.has(kind)) options.onWarning?.(message);
    warned.add(kind);
  };
  // The model under test is not known here (records do not name it): the suite's judges are made without that check.
  const judges = await judgesOf(loaded, undefined, stats, options, warnOnce);
  const started = performance.now();
  try {
    let next = 0;
    let done = 0;
    // Each judge's first call is its probe, asked before its others (Judge.grade): a judge that cannot answer stops everything.
    const worker = async () => {
      while (next < work.length) {
        const { index, scenario } = work[next++];
        const record = records[index];
        const kept = { ...record };
        for (const field of JUDGED_FIELDS) delete kept[field];
        records[index] = { ...kept, ...(await judges[scenario]!.grade(kept, record.prediction!)) };
        options.onProgress?.(++done, work.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, work.length)) }, worker));
  } finally {
    await closeJudges(judges);
  }
  stats.seconds = (performance.now() - started) / 1000;
  return { records, judged: work.length, stats };
}
