import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';

/*
 * Where the policy input points in the repository. The base commit's copy is read through the contents
 * API by its path in the repository, so that path must be the one the checkout has, however the
 * workflow checked out (actions/checkout `path: repo` puts the repository in a folder of the
 * workspace) and however the input is written ("./p.yml", "a/../p.yml", an absolute path).
 */

export interface PolicyLocation {
  /** The file on disk: absolute, no "." or "..". */
  file: string;
  /** The checkout that holds it: the nearest folder with `.git` (git's top level), else (and on workflow_run) the workspace. */
  root: string;
  /** Its path in the repository, "/"-separated; undefined when the file is outside the checkout. */
  inRepository?: string;
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** The nearest folder from `dir` up that holds `.git` (a folder, or a file in a worktree or submodule): git's top level. */
async function nearestCheckout(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    if (await exists(join(current, '.git'))) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** A path relative to a folder, "/"-separated; undefined when it is not inside it. */
function inside(folder: string, path: string): string | undefined {
  const relativePath = relative(folder, path).split(sep).join('/');
  return relativePath === '' || relativePath === '..' || relativePath.startsWith('../') || isAbsolute(relativePath)
    ? undefined
    : relativePath;
}

/** Whether a checkout is the workspace or inside it, by real paths (the workspace's own path may go through a link). */
async function inWorkspace(checkout: string, workspace: string): Promise<boolean> {
  const [realCheckout, realWorkspace] = await Promise.all([realpath(checkout), realpath(workspace)]);
  return realCheckout === realWorkspace || inside(realWorkspace, realCheckout) !== undefined;
}

/**
 * Where the policy input points. With `findCheckout` (a job that checked the repository out), the
 * path is taken from the working directory and the repository is the checkout that holds it. Without
 * (workflow_run, whose workspace holds what a fork's run uploaded, where a planted `.git` would move
 * the lookup), the path is taken from the workspace and the workspace is the repository's root.
 */
export async function locatePolicy(
  input: string,
  { findCheckout, workspace: workspaceVariable }: { findCheckout: boolean; workspace: string | undefined },
): Promise<PolicyLocation> {
  const workspace = resolve(workspaceVariable || '.');
  if (!findCheckout) {
    const file = resolve(workspace, input);
    return { file, root: workspace, inRepository: inside(workspace, file) };
  }
  const file = resolve(input);
  // The checkout that holds the file, when it is in the workspace; else the workspace itself (a job
  // that did not check out, or a checkout without .git).
  const checkout = await nearestCheckout(dirname(file));
  const root = checkout && (await inWorkspace(checkout, workspace)) ? checkout : workspace;
  return { file, root, inRepository: inside(root, file) };
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
      throw new UsageError(
        `The policy ${input} goes through a symbolic link in the repository (${relative(location.root, current).split(sep).join('/')}): name the file itself.`,
      );
    }
    if (current === location.file && entry.isDirectory()) throw new UsageError(`The policy ${input} is a folder, not a file.`);
  }
}
