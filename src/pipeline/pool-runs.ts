import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { InputError, UsageError } from '../errors.js';
import { forEachRecord } from '../records/read.js';
import { MetricsMemo } from '../gate/compare.js';
import type { Evidence, PooledRun } from '../report/evidence.js';
import type { GateReport } from '../report/json.js';
import { loadRun, type RunInput } from '../runs/load.js';
import { gateRun, type GateRunInputs } from './gate-run.js';
import { changesBetween } from './instance-changes.js';

/*
 * Re-runs are not draws (issue 21): several runs of the same candidate (a re-run of a pull request's
 * head commit under the same policy, or `evalgate gate --prior-run`) are gated as one, run j's records
 * as further samples of each example. The engine averages an example's samples before anything else
 * and the bootstrap resamples instances, so pooling shrinks only the candidate's own sampling noise:
 * a run drawn again cannot replace a failed one, and identical records given twice change nothing
 * (docs/statistics.md, "Re-runs").
 */

export interface RunToPool {
  file: string;
  /** What the report calls it: the file, or the workflow run and attempt that made it. */
  source: string;
  /** The file is itself a pool of these runs (kept by an earlier run): they are listed instead, their samples moved up with it. */
  pooled?: PooledRun[];
}

export interface PooledCandidate {
  /** The pooled records, written to the file `poolRuns` was given. */
  run: RunInput;
  runs: PooledRun[];
}

/** Writes a run's records to the pool with their samples moved up by `offset`; the highest sample written (before the offset), -1 for none. */
async function appendRun(pool: WriteStream, file: string, offset: number): Promise<{ records: number; last: number }> {
  let last = -1;
  const records = await forEachRecord(file, (record, line) => {
    const sample = record.sample ?? 0;
    if (offset + sample > Number.MAX_SAFE_INTEGER) {
      throw new InputError(file, line, `"sample" ${sample} cannot be moved past the earlier runs' samples`);
    }
    last = Math.max(last, sample);
    pool.write(`${JSON.stringify({ ...record, sample: offset + sample })}\n`);
  });
  return { records, last };
}

/** Checks that a run can be pooled (records, each line valid, no example's sample twice), with its file and line in any error. */
async function checkPoolable(file: string): Promise<void> {
  if ((await loadRun(file)).kind === 'metrics') {
    throw new UsageError(
      `${file} is a metrics file: only records files can be pooled (each run's records become further samples of each example)`,
    );
  }
}

/**
 * The runs as one candidate written to `out`, in the order given (the run deciding last): each run's
 * records keep their samples, moved up past every sample of the runs before it, so that no example's
 * samples from two runs coincide. Each run is checked first; the pool then loaded as any records file.
 */
export async function poolRuns(runs: RunToPool[], out: string): Promise<PooledCandidate> {
  for (const { file } of runs) await checkPoolable(file);
  const pool = createWriteStream(out);
  const pooled: PooledRun[] = [];
  let offset = 0;
  try {
    for (const run of runs) {
      const { records, last } = await appendRun(pool, run.file, offset);
      pooled.push(...runsIn(run, records, offset, last, pooled.length));
      offset += last + 1;
    }
  } finally {
    pool.end();
    await once(pool, 'finish');
  }
  try {
    return { run: await loadRun(out), runs: pooled };
  } catch (error) {
    // Each run was read without fault: what fails is the pool (more samples of an example than a records file may hold).
    if (!(error instanceof InputError)) throw error;
    throw new UsageError(`The runs pooled (${runs.map((run) => run.source).join(', ')}) cannot be one candidate: ${error.detail}`);
  }
}

/** The runs a file adds to the pool, numbered on from `before`: itself, or the runs an earlier pool lists (which must add up to it). */
function runsIn({ source, pooled }: RunToPool, records: number, offset: number, last: number, before: number): PooledRun[] {
  if (!pooled) return [{ run: before + 1, source, records, samples: { first: offset, last: offset + last } }];
  if (pooled.reduce((total, run) => total + run.records, 0) !== records) {
    throw new UsageError(`${source}: the pooled runs it lists do not add up to its ${records} records`);
  }
  return pooled.map((run, index) => ({
    ...run,
    run: before + index + 1,
    samples: { first: offset + run.samples.first, last: offset + run.samples.last },
  }));
}

/**
 * The report of the pooled candidate: it decides on every run's records, says so (`evidence`: which run
 * this is, each run's records; `kept`: whether this run's were kept for the next), and names the run
 * deciding now as its candidate, whose records the instance changes show (their lines are its file's).
 * `inputs` are gateRun's but the candidate (the policy, the baseline, and whatever else gateRun is told).
 */
export async function gatePooled(
  inputs: Omit<GateRunInputs, 'candidate'>,
  pooled: PooledCandidate,
  current: RunInput,
  kept?: boolean,
): Promise<GateReport> {
  const changesOf = () => changesBetween(current, inputs.baseline);
  const report = await gateRun({ ...inputs, candidate: pooled.run }, new MetricsMemo(), changesOf);
  const evidence: Evidence = { run: pooled.runs.length, runs: pooled.runs, ...(kept === undefined ? {} : { kept }) };
  return { ...report, candidate: { ...report.candidate, file: current.file }, evidence };
}
