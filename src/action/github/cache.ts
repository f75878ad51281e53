import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { escapeTerminal } from '../../report/escape.js';
import type { Job } from '../context.js';
import { withoutBaseline } from '../events.js';

/*
 * The baseline lives in the Actions cache: saved by runs that may write it (pushes, manual and
 * scheduled runs: events.ts) under a key unique per policy file, id, branch and commit (cache entries
 * are immutable); restored from the base branch's entries only: the base commit's first, else the
 * newest. Entries go through a fresh folder of RUNNER_TEMP, never the workspace, which a checkout or
 * a fork's artifact fills: no file there can stand in the restore's way.
 */

/** The one name an entry's files are saved and restored under (the cache's version depends on it). */
const BASELINE_ENTRY = 'evalgate-baseline';
const META = 'meta.json';

/** Whose baseline: a policy file (its path in the repository and its name), an id (matrix jobs), a branch. */
export interface BaselineOwner {
  path: string;
  policy: string;
  id?: string;
  branch: string;
}

interface BaselineMeta extends BaselineOwner {
  sha: string;
  /** The policy's sha256 when the baseline was saved: a later run says when the policy changed since. */
  policySha256: string;
  file: string;
}

/** GitHub refuses keys over 512 characters: names appear cut to this, a hash tells them apart. */
const READABLE_KEY_PART = 64;

/**
 * A cache key prefix: a readable part (the name made key-safe and cut), then a hash of everything that
 * identifies the entry, so that neither names that read alike ("my policy", "my_policy"), nor a name
 * that starts another ("support", "support-v2"), nor names cut alike restore each other's entries.
 */
export function keyPrefix(kind: 'baseline' | 'completions' | 'runs', name: string, identity: unknown[]): string {
  const readable = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, READABLE_KEY_PART);
  const hash = createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 16);
  return `evalgate-${kind}-${readable}-${hash}-`;
}

const baselinePrefix = (owner: BaselineOwner) =>
  keyPrefix('baseline', owner.id === undefined ? owner.policy : `${owner.policy}-${owner.id}`, [
    owner.path,
    owner.policy,
    owner.id ?? null,
    owner.branch,
  ]);

/** A name for the log: one line, cut (a policy's name is data). */
export const shown = (text: string) => escapeTerminal(text.length > 100 ? `${text.slice(0, 99)}…` : text);

export async function saveBaseline(
  { context: { cache }, port }: Job,
  resultsFile: string,
  owner: BaselineOwner,
  sha: string,
  policySha256: string,
  temporary: string,
): Promise<string | undefined> {
  if (!cache.isAvailable()) {
    port.warning('The Actions cache is not available here: the baseline was not saved.');
    return undefined;
  }
  const key = `${baselinePrefix(owner)}${sha}`;
  try {
    const root = await mkdtemp(join(temporary, 'evalgate-save-'));
    await mkdir(join(root, BASELINE_ENTRY));
    const file = `baseline-${basename(resultsFile)}`; // never the name of the meta file
    await copyFile(resultsFile, join(root, BASELINE_ENTRY, file));
    const meta: BaselineMeta = { ...owner, sha, policySha256, file };
    await writeFile(join(root, BASELINE_ENTRY, META), JSON.stringify(meta));
    await cache.save(root, BASELINE_ENTRY, key);
    port.info(`Saved the baseline for policy ${shown(owner.policy)} at ${sha.slice(0, 7)} on ${shown(owner.branch)} (cache key ${key}).`);
    return key;
  } catch (error) {
    port.warning(`The baseline could not be saved in the Actions cache: ${(error as Error).message}`);
    return undefined;
  }
}

export interface RestoredBaseline {
  file: string;
  sha: string;
  /** The policy's content is not what it was when the baseline was saved. */
  policyChanged: boolean;
}

const sameOwner = (meta: BaselineMeta, owner: BaselineOwner) =>
  meta.path === owner.path && meta.policy === owner.policy && (meta.id ?? undefined) === owner.id && meta.branch === owner.branch;

/**
 * The baseline of the owner's branch saved at the given commit, else the newest of that branch;
 * undefined (with a warning) when the cache has none or there is no cache. A restore that failed
 * otherwise (the service, the download, the archive, an entry that is not what its key says) throws:
 * the caller decides whether the gate may go on without a baseline.
 */
export async function restoreBaseline(
  { context: { cache, eventName }, port }: Job,
  owner: BaselineOwner,
  sha: string,
  policySha256: string,
  temporary: string,
): Promise<RestoredBaseline | undefined> {
  if (!cache.isAvailable()) {
    port.warning(`The Actions cache is not available here: no baseline, ${withoutBaseline(eventName)}.`);
    return undefined;
  }
  const root = await mkdtemp(join(temporary, 'evalgate-restore-'));
  const prefix = baselinePrefix(owner);
  const matched = await cache.restore(root, BASELINE_ENTRY, `${prefix}${sha}`, [prefix]);
  if (!matched) {
    port.warning(
      `No baseline for policy ${shown(owner.policy)} on ${shown(owner.branch)} in the Actions cache: ${withoutBaseline(eventName)}.`,
    );
    return undefined;
  }
  const folder = join(root, BASELINE_ENTRY);
  const meta = await readFile(join(folder, META), 'utf8').then(
    (text) => JSON.parse(text) as BaselineMeta,
    (error: Error) => {
      throw new Error(`the entry ${matched} has no readable ${META} (${error.message})`);
    },
  );
  if (!sameOwner(meta, owner)) throw new Error(`the entry ${matched} belongs to another policy file, id or branch`);
  if (meta.sha !== sha) port.warning(`The baseline comes from commit ${meta.sha.slice(0, 7)}, not from ${sha.slice(0, 7)}.`);
  return { file: join(folder, meta.file), sha: meta.sha, policyChanged: meta.policySha256 !== policySha256 };
}

const completionsPrefix = (suiteName: string) => keyPrefix('completions', suiteName, [suiteName]);

/** Brings back into `directory` the completions an earlier run cached (newest first); warns when it cannot. */
export async function restoreCompletions(
  { context: { cache }, port }: Job,
  directory: string,
  suiteName: string,
  sha: string,
): Promise<void> {
  if (!cache.isAvailable()) return;
  try {
    const prefix = completionsPrefix(suiteName);
    const matched = await cache.restore(dirname(directory), basename(directory), `${prefix}${sha}`, [prefix]);
    port.info(matched ? `Completion cache restored (${matched}).` : 'No completion cache yet.');
  } catch (error) {
    port.warning(`The completion cache could not be restored: ${(error as Error).message}`);
  }
}

export async function saveCompletions({ context: { cache }, port }: Job, directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isAvailable()) return;
  try {
    await cache.save(dirname(directory), basename(directory), `${completionsPrefix(suiteName)}${sha}`);
  } catch (error) {
    port.warning(`The completion cache could not be saved: ${(error as Error).message}`);
  }
}
