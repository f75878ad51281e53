import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PooledRun } from '../../report/evidence.js';
import type { Job } from '../context.js';
import { keyPrefix, shown } from './cache.js';

/*
 * The candidate's records of a pull request's runs, kept for its re-runs to pool (src/pipeline/pool-runs.ts):
 * an Actions cache entry per run, saved by the pull request's own runs only (events.ts: keepsRuns), under
 * a key of the policy file, id, pull request, head commit, the policy's and the suite's content and the
 * candidate's input, then the run and its attempt (entries are immutable). Each entry holds every run so
 * far (the newest restored by the key's prefix holds them all). The prefix is "evalgate-runs-": no
 * baseline ("evalgate-baseline-") or completion cache key starts with it, and the identity's hash in it
 * keeps another pull request, head commit or policy from ever matching.
 */

const RUNS_ENTRY = 'evalgate-runs';
const META = 'meta.json';
const POOL_FILE = 'pooled.jsonl';

/** Whose runs: one pull request at one head commit, gated under one policy's content with one suite and candidate input. */
export interface RunsOwner {
  path: string;
  policy: string;
  id?: string;
  pullRequest: number;
  headSha: string;
  policySha256: string;
  /** The suite file's sha256 when the action runs one. */
  suiteSha256: string | null;
  /** The candidate's input: the records file given or imported, or the model a suite runs. */
  candidate: string;
}

interface RunsMeta extends RunsOwner {
  runs: PooledRun[];
}

const ownerFields = (owner: RunsOwner) => [
  owner.path,
  owner.policy,
  owner.id ?? null,
  owner.pullRequest,
  owner.headSha,
  owner.policySha256,
  owner.suiteSha256,
  owner.candidate,
];

const runsPrefix = (owner: RunsOwner) =>
  `${keyPrefix('runs', owner.id === undefined ? owner.policy : `${owner.policy}-${owner.id}`, ownerFields(owner))}pr${owner.pullRequest}-${owner.headSha}-`;

const sameOwner = (meta: RunsMeta, owner: RunsOwner) => JSON.stringify(ownerFields(meta)) === JSON.stringify(ownerFields(owner));

export interface KeptRuns {
  /** The pooled records of every run so far. */
  file: string;
  runs: PooledRun[];
}

/**
 * The runs kept so far for the owner (the newest entry holds them all), restored under `temporary`;
 * undefined when there are none or there is no cache. A restore that failed otherwise throws.
 */
export async function restoreRuns({ context: { cache }, port }: Job, owner: RunsOwner, temporary: string): Promise<KeptRuns | undefined> {
  if (!cache.isAvailable()) return undefined;
  const root = await mkdtemp(join(temporary, 'evalgate-runs-restore-'));
  const prefix = runsPrefix(owner);
  const matched = await cache.restore(root, RUNS_ENTRY, prefix, [prefix]);
  if (!matched) return undefined;
  const folder = join(root, RUNS_ENTRY);
  const meta = await readFile(join(folder, META), 'utf8').then(
    (text) => JSON.parse(text) as RunsMeta,
    (error: Error) => {
      throw new Error(`the entry ${matched} has no readable ${META} (${error.message})`);
    },
  );
  if (!sameOwner(meta, owner) || !Array.isArray(meta.runs)) {
    throw new Error(`the entry ${matched} belongs to another pull request, commit or policy`);
  }
  port.info(
    `Restored the candidate's records of ${meta.runs.length} earlier run(s) of pull request #${owner.pullRequest} at ${owner.headSha.slice(0, 7)} (cache key ${matched}).`,
  );
  return { file: join(folder, POOL_FILE), runs: meta.runs };
}

/** Keeps the pooled records of every run so far under this run's key; whether it could (a failure only warns: the next run then pools without it). */
export async function saveRuns(
  { context: { cache }, port }: Job,
  owner: RunsOwner,
  kept: KeptRuns,
  run: string,
  temporary: string,
): Promise<boolean> {
  if (!cache.isAvailable()) {
    // The report and the comment say so (evidence.kept): no annotation on every pull request of a runner without a cache.
    port.info("The Actions cache is not available here: this run's records are not kept, and a re-run of the job decides alone.");
    return false;
  }
  const key = `${runsPrefix(owner)}${run}`;
  try {
    const root = await mkdtemp(join(temporary, 'evalgate-runs-save-'));
    await mkdir(join(root, RUNS_ENTRY));
    await copyFile(kept.file, join(root, RUNS_ENTRY, POOL_FILE));
    const meta: RunsMeta = { ...owner, runs: kept.runs };
    await writeFile(join(root, RUNS_ENTRY, META), JSON.stringify(meta));
    await cache.save(root, RUNS_ENTRY, key);
    port.info(
      `Kept the candidate's records of ${kept.runs.length} run(s) of policy ${shown(owner.policy)} for a re-run to pool (cache key ${key}).`,
    );
    return true;
  } catch (error) {
    port.warning(`This run's records could not be kept in the Actions cache (a re-run pools without them): ${(error as Error).message}`);
    return false;
  }
}
