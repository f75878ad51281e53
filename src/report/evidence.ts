import { z } from 'zod';

/*
 * What a gate decided on when it pooled the candidate's runs (a re-run of the same pull request, head
 * commit and policy, or `evalgate gate --prior-run`): which run this is, and each run's records, run j's
 * records being sample j of each example (their own samples kept, offset). Added within report v1.
 */

const pooledRunSchema = z.object({
  /** 1 for the first run. */
  run: z.int().positive(),
  /** Where its records came from: a file, or the workflow run and its attempt. */
  source: z.string(),
  records: z.int().nonnegative(),
  /** The samples its records are in the pooled candidate: `sample` + first (last: the highest). */
  samples: z.object({ first: z.int().nonnegative(), last: z.int().nonnegative() }),
});

export const evidenceSchema = z
  .object({
    /** Which run this is: the last of `runs`. */
    run: z.int().positive(),
    runs: z.array(pooledRunSchema).min(1),
    /** The action: whether this run's records were kept (in the Actions cache) for the next run to pool. */
    kept: z.boolean().optional(),
  })
  .refine(
    (evidence) => evidence.run === evidence.runs.length && evidence.runs.every((run, index) => run.run === index + 1),
    'run is the last of runs, numbered from 1',
  );

export type Evidence = z.output<typeof evidenceSchema>;
export type PooledRun = Evidence['runs'][number];

/** "run 3: the candidate's records of runs 1-3 pooled (900 records, each run's as further samples)", in plain text. */
export function evidenceText({ run, runs, kept }: Evidence): string {
  const records = runs.reduce((total, entry) => total + entry.records, 0);
  const decided =
    runs.length === 1
      ? `run 1: decided on this run's ${records} records`
      : `run ${run}: decided on the candidate's records of runs 1-${run} pooled (${records} records; run j's records are further samples of each example)`;
  const keeping = kept === undefined ? '' : kept ? '; kept for a re-run to pool' : '; not kept: a re-run decides alone';
  return `Evidence: ${decided}${keeping}.`;
}
