import * as cache from '@actions/cache';
import * as core from '@actions/core';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/*
 * The baseline lives in the Actions cache: saved on pushes to the default branch under a key unique
 * per policy and commit (cache entries are immutable), restored on pull requests (the base commit's
 * entry first) and on manual or scheduled runs (this commit's), else the newest one for the policy.
 * Cache trouble only ever warns.
 */

/** Saved and restored at the same path (the cache's version depends on it), relative to the workspace. */
const DIRECTORY = join('.evalgate', 'baseline');
const META = 'meta.json';

interface BaselineMeta {
  sha: string;
  policy: string;
  file: string;
}

/**
 * A cache key prefix for a policy's baseline or a suite's completions: the name made key-safe, then a
 * hash of the exact name, so that neither two names that read alike ("my policy", "my_policy") nor one
 * name that starts another ("support", "support-v2") can restore each other's entries.
 */
function keyPrefix(kind: 'baseline' | 'completions', name: string): string {
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 12);
  return `evalgate-${kind}-${name.replace(/[^A-Za-z0-9._-]+/g, '_')}-${hash}-`;
}

export async function saveBaseline(resultsFile: string, policyName: string, sha: string): Promise<string | undefined> {
  if (!cache.isFeatureAvailable()) {
    core.warning('The Actions cache is not available here: the baseline was not saved.');
    return undefined;
  }
  const key = `${keyPrefix('baseline', policyName)}${sha}`;
  try {
    await rm(DIRECTORY, { recursive: true, force: true });
    await mkdir(DIRECTORY, { recursive: true });
    const file = `baseline-${basename(resultsFile)}`; // never the name of the meta file
    await copyFile(resultsFile, join(DIRECTORY, file));
    const meta: BaselineMeta = { sha, policy: policyName, file };
    await writeFile(join(DIRECTORY, META), JSON.stringify(meta));
    await cache.saveCache([DIRECTORY], key);
    core.info(`Saved the baseline for policy ${policyName} at ${sha} (cache key ${key}).`);
    return key;
  } catch (error) {
    core.warning(`The baseline could not be saved in the Actions cache: ${(error as Error).message}`);
    return undefined;
  }
}

export interface RestoredBaseline {
  file: string;
  sha: string;
}

/** The baseline saved for the given commit, else the newest for the policy; undefined (with a warning) when there is none. */
export async function restoreBaseline(policyName: string, sha: string): Promise<RestoredBaseline | undefined> {
  if (!cache.isFeatureAvailable()) {
    core.warning('The Actions cache is not available here: no baseline, regression checks are skipped.');
    return undefined;
  }
  try {
    await rm(DIRECTORY, { recursive: true, force: true });
    const matched = await cache.restoreCache([DIRECTORY], `${keyPrefix('baseline', policyName)}${sha}`, [
      keyPrefix('baseline', policyName),
    ]);
    if (!matched) {
      core.warning(
        `No baseline for policy ${policyName} in the Actions cache (or the cache could not be reached): regression checks are skipped.`,
      );
      return undefined;
    }
    const meta = JSON.parse(await readFile(join(DIRECTORY, META), 'utf8')) as BaselineMeta;
    if (meta.policy !== policyName) {
      core.warning(`The cached baseline belongs to policy ${meta.policy}, not ${policyName}: not used, regression checks are skipped.`);
      return undefined;
    }
    if (meta.sha !== sha) core.warning(`The baseline comes from commit ${meta.sha.slice(0, 7)}, not from ${sha.slice(0, 7)}.`);
    return { file: join(DIRECTORY, meta.file), sha: meta.sha };
  } catch (error) {
    core.warning(`The baseline could not be restored from the Actions cache: ${(error as Error).message}`);
    return undefined;
  }
}

/** Brings back into `directory` the completions an earlier run cached (newest first); warns when it cannot. */
export async function restoreCompletions(directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    const matched = await cache.restoreCache([directory], `${keyPrefix('completions', suiteName)}${sha}`, [
      keyPrefix('completions', suiteName),
    ]);
    core.info(matched ? `Completion cache restored (${matched}).` : 'No completion cache yet.');
  } catch (error) {
    core.warning(`The completion cache could not be restored: ${(error as Error).message}`);
  }
}

export async function saveCompletions(directory: string, suiteName: string, sha: string): Promise<void> {
  if (!cache.isFeatureAvailable()) return;
  try {
    await cache.saveCache([directory], `${keyPrefix('completions', suiteName)}${sha}`);
  } catch (error) {
    core.warning(`The completion cache could not be saved: ${(error as Error).message}`);
  }
}
