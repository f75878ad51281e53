import * as cache from '@actions/cache';
import * as core from '@actions/core';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { escapeTerminal } from '../../report/escape.js';

/*
 * The baseline lives in the Actions cache: saved by runs that may write it (pushes, manual and
 * scheduled runs: events.ts) under a key unique per policy file, id, branch and commit (cache entries
 * are immutable); restored from the base branch's entries only: the base commit's first, else the
 * newest. Cache trouble only ever warns.
 */

/** Saved and restored at the same path (the cache's version depends on it), relative to the workspace. */
const DIRECTORY = join('.evalgate', 'baseline');
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

export async function saveBaseline(
  resultsFile: string,
  owner: BaselineOwner,
  sha: string,
  policySha256: string,
): Promise<string | undefined> {
  if (!cache.isFeatureAvailable()) {
    core.warning('The Actions cache is not available here: the baseline was not saved.');
    return undefined;
  }
  const key = `${baselinePrefix(owner)}${sha}`;
  try {
    await rm(DIRECTORY, { recursive: true, force: true });
    await mkdir(DIRECTORY, { recursive: true });
    const file = `baseline-${basename(resultsFile)}`; // never the name of the meta file
    await copyFile(resultsFile, join(DIRECTORY, file));
    const meta: BaselineMeta = { ...owner, sha, policySha256, file };
    await writeFile(join(DIRECTORY, META), JSON.stringify(meta));
    await cache.saveCache([DIRECTORY], key);
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
 * undefined (with a warning) when there is none.
 */
export async function restoreBaseline(owner: BaselineOwner, sha: string, policySha256: string): Promise<RestoredBaseline | undefined> {
  if (!cache.isFeatureAvailable()) {
    core.warning('The Actions cache is not available here: no baseline, regression checks are skipped.');
    return undefined;
  }
  try {
    await rm(DIRECTORY, { recursive: true, force: true });
    const prefix = baselinePrefix(owner);
    const matched = await cache.restoreCache([DIRECTORY], `${prefix}${sha}`, [prefix]);
    if (!matched) {
      core.warning(
        `No baseline for policy ${owner.policy} on ${owner.branch} in the Actions cache (or the cache could not be reached): regression checks are skipped.`,
      );
      return undefined;
    }
    const meta = JSON.parse(await readFile(join(DIRECTORY, META), 'utf8')) as BaselineMeta;
    if (!sameOwner(meta, owner)) {
      core.warning(`The cached baseline ${matched} belongs to another policy file, id or branch: not used, regression checks are skipped.`);
      return undefined;
    }
    if (meta.sha !== sha) core.warning(`The baseline comes from commit ${meta.sha.slice(0, 7)}, not from ${sha.slice(0, 7)}.`);
    return { file: join(DIRECTORY, meta.file), sha: meta.sha, policyChanged: meta.policySha256 !== policySha256 };
  } catch (error) {
    core.warning(`The baseline could not be restored from the Actions cache: ${(error as Error).message}`);
    return undefined;
  }
}

const completionsPrefix = (suiteName: string) => keyPrefix('completions', suiteName, [suiteName]);

/** Brings back into `directory` the completions an earlier run cached (newest first); warns when it cannot. */
export async function restoreCompletions(directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    const matched = await cache.restoreCache([directory], `${completionsPrefix(suiteName)}${sha}`, [completionsPrefix(suiteName)]);
    core.info(matched ? `Completion cache restored (${matched}).` : 'No completion cache yet.');
  } catch (error) {
    core.warning(`The completion cache could not be restored: ${(error as Error).message}`);
  }
}

export async function saveCompletions(directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    await cache.saveCache([directory], `${completionsPrefix(suiteName)}${sha}`);
  } catch (error) {
    core.warning(`The completion cache could not be saved: ${(error as Error).message}`);
  }
}
