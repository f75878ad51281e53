import * as cache from '@actions/cache';
import * as core from '@actions/core';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { escapeTerminal } from '../../report/escape.js';

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
function keyPrefix(kind: 'baseline' | 'completions', name: string, identity: unknown[]): string {
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
const shown = (text: string) => escapeTerminal(text.length > 100 ? `${text.slice(0, 99)}…` : text);

/**
 * Runs a cache call on `root/name`, given to @actions/cache as the bare `name`. The entry's version
 * is a hash of the path strings given, and the archive holds paths relative to GITHUB_WORKSPACE
 * (found from the working directory): with both set to `root` for the call, every job, wherever its
 * RUNNER_TEMP lies, saves and restores the same version with the same archive paths.
 */
async function inRoot<T>(root: string, call: () => Promise<T>): Promise<T> {
  const [workspace, directory] = [process.env.GITHUB_WORKSPACE, process.cwd()];
  try {
    process.chdir(root);
    process.env.GITHUB_WORKSPACE = root;
    return await call();
  } finally {
    process.chdir(directory);
    if (workspace === undefined) delete process.env.GITHUB_WORKSPACE;
    else process.env.GITHUB_WORKSPACE = workspace;
  }
}

/**
 * What @actions/cache says of a restore it could not do: it returns undefined for those as for a
 * miss, and tells them apart only in the log, as "Failed to restore: ..." (a warning, or an error
 * for a 5xx) or "Cache restore skipped: ..." (a cache-mode that permits no reads).
 */
const RESTORE_TROUBLE = /^(?:::(?:warning|error)::Failed to restore: |Cache restore skipped: )(.*)$/m;

/** A workflow command's message as written ("%", CR and LF escaped), read back. */
const commandMessage = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

/**
 * Restores the newest entry of `key` (else of a restore key) into `root/name`: its key, or undefined
 * when there is none. A restore that failed otherwise throws the library's reason, noticed as it
 * writes it to the log (which it still does).
 */
async function restoreEntry(root: string, name: string, key: string, restoreKeys: string[]): Promise<string | undefined> {
  let trouble: string | undefined;
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const said = RESTORE_TROUBLE.exec(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))?.[1];
    trouble ??= said === undefined ? undefined : commandMessage(said);
    return write.call(process.stdout, chunk, ...rest);
  }) as typeof process.stdout.write;
  try {
    const matched = await inRoot(root, () => cache.restoreCache([name], key, restoreKeys));
    if (trouble !== undefined) throw new Error(trouble);
    return matched;
  } finally {
    process.stdout.write = write;
  }
}

export async function saveBaseline(
  resultsFile: string,
  owner: BaselineOwner,
  sha: string,
  policySha256: string,
  temporary: string,
): Promise<string | undefined> {
  if (!cache.isFeatureAvailable()) {
    core.warning('The Actions cache is not available here: the baseline was not saved.');
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
    await inRoot(root, () => cache.saveCache([BASELINE_ENTRY], key));
    core.info(`Saved the baseline for policy ${shown(owner.policy)} at ${sha.slice(0, 7)} on ${shown(owner.branch)} (cache key ${key}).`);
    return key;
  } catch (error) {
    core.warning(`The baseline could not be saved in the Actions cache: ${(error as Error).message}`);
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
  owner: BaselineOwner,
  sha: string,
  policySha256: string,
  temporary: string,
): Promise<RestoredBaseline | undefined> {
  if (!cache.isFeatureAvailable()) {
    core.warning('The Actions cache is not available here: no baseline, regression checks are skipped.');
    return undefined;
  }
  const root = await mkdtemp(join(temporary, 'evalgate-restore-'));
  const prefix = baselinePrefix(owner);
  const matched = await restoreEntry(root, BASELINE_ENTRY, `${prefix}${sha}`, [prefix]);
  if (!matched) {
    core.warning(
      `No baseline for policy ${shown(owner.policy)} on ${shown(owner.branch)} in the Actions cache: regression checks are skipped.`,
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
  if (meta.sha !== sha) core.warning(`The baseline comes from commit ${meta.sha.slice(0, 7)}, not from ${sha.slice(0, 7)}.`);
  return { file: join(folder, meta.file), sha: meta.sha, policyChanged: meta.policySha256 !== policySha256 };
}

const completionsPrefix = (suiteName: string) => keyPrefix('completions', suiteName, [suiteName]);

/** Brings back into `directory` the completions an earlier run cached (newest first); warns when it cannot. */
export async function restoreCompletions(directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    const prefix = completionsPrefix(suiteName);
    const matched = await restoreEntry(dirname(directory), basename(directory), `${prefix}${sha}`, [prefix]);
    core.info(matched ? `Completion cache restored (${matched}).` : 'No completion cache yet.');
  } catch (error) {
    core.warning(`The completion cache could not be restored: ${(error as Error).message}`);
  }
}

export async function saveCompletions(directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    await inRoot(dirname(directory), () => cache.saveCache([basename(directory)], `${completionsPrefix(suiteName)}${sha}`));
  } catch (error) {
    core.warning(`The completion cache could not be saved: ${(error as Error).message}`);
  }
}
