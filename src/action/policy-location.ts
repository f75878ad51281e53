import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/*
 * Where the policy input points in the repository. The base commit's copy is read through the contents
 * API by its path in the repository, so that path must be the one the checkout has, however the
 * workflow checked out (actions/checkout `path: repo` puts the repository in a folder of the
 * workspace) and however the input is written ("./p.yml", "a/../p.yml", an absolute path).
 */

export interface PolicyLocation {
  /** The file on disk: absolute, no "." or "..". */
  file: string;
  /** The checkout that holds it: the nearest folder with `.git` (git's top level), else the workspace. */
  root: string;
  /** Its path in the repository, "/"-separated; undefined when the file is outside the checkout. */
  inRepository?: string;
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** The nearest folder from `dir` up to the workspace that holds `.git` (a folder, or a file in a worktree or submodule). */
async function checkoutRoot(dir: string, workspace: string): Promise<string | undefined> {
  for (let current = dir; current === workspace || current.startsWith(`${workspace}${sep}`); current = dirname(current)) {
    if (await exists(join(current, '.git'))) return current;
    if (current === workspace) return undefined;
  }
  return undefined;
}

export async function locatePolicy(input: string): Promise<PolicyLocation> {
  const workspace = resolve(process.env.GITHUB_WORKSPACE || '.');
  const file = resolve(input);
  const root = (await checkoutRoot(dirname(file), workspace)) ?? workspace;
  const path = relative(root, file).split(sep).join('/');
  const inside = path !== '' && path !== '..' && !path.startsWith('../') && !isAbsolute(path);
  return { file, root, inRepository: inside ? path : undefined };
}

/**
 * Refuses what the contents API and the checkout would not agree on: a symbolic link anywhere in the
 * path inside the repository (the API does not follow a link to a folder, and a link lets the checked-
 * out copy be another file than the one named), and a folder.
 */
export async function refuseLinksAndFolders(input: string, location: PolicyLocation): Promise<void> {
  let current = location.root;
  for (const part of (location.inRepository ?? '').split('/').filter(Boolean)) {
    current = join(current, part);
    const entry = await lstat(current).catch(() => undefined);
    if (!entry) return; // not checked out (a job that reads the policy only at the base)
    if (entry.isSymbolicLink()) {
      throw new Error(
        `The policy ${input} goes through a symbolic link in the repository (${relative(location.root, current).split(sep).join('/')}): name the file itself.`,
      );
    }
    if (current === location.file && entry.isDirectory()) throw new Error(`The policy ${input} is a folder, not a file.`);
  }
}
