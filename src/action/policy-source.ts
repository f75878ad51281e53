import * as core from '@actions/core';
import * as github from '@actions/github';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { loadPolicy, parsePolicy, type LoadedPolicy } from '../policy/load.js';
import { fileAtCommit } from './github/comment.js';
import type { ActionInputs } from './inputs.js';
import type { Octokit, PullRequest } from './pull-request.js';

/** A policy and where it was read, for the report. */
export type SourcedPolicy = LoadedPolicy & { source: string };

/** A path as the repository names it (for the contents API), however the input wrote it: "./p.yml", an absolute path in the workspace, "a/../p.yml". */
function repositoryPath(path: string): string {
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  const inRepository = relative(workspace, resolve(workspace, path)).split(sep).join('/');
  if (inRepository.startsWith('../') || inRepository === '..' || isAbsolute(inRepository)) {
    throw new Error(
      `The policy ${path} is outside the repository, so it cannot be read at the base commit (set policy-source: head to use it as checked out).`,
    );
  }
  return inRepository;
}

/** The policy as the base commit has it (so a pull request cannot loosen its own gate), else the checked-out file. */
export async function readPolicy(
  inputs: ActionInputs,
  pull: PullRequest | undefined,
  octokit: Octokit | undefined,
): Promise<SourcedPolicy> {
  const fromBase = (inputs.policySource ?? (pull ? 'base' : 'head')) === 'base';
  if (fromBase && pull) {
    if (!octokit) throw new Error('Reading the policy at the base commit needs the input github-token (or set policy-source: head).');
    const { owner, repo } = github.context.repo;
    const text = await fileAtCommit(octokit, owner, repo, repositoryPath(inputs.policy), pull.baseSha);
    if (text !== undefined) return { ...parsePolicy(text, inputs.policy), source: `at the base commit ${pull.baseSha.slice(0, 7)}` };
    core.warning(`${inputs.policy} does not exist at the base commit yet: using the pull request's own copy.`);
    return { ...(await loadPolicy(inputs.policy)), source: 'from the pull request (not on the base yet)' };
  }
  return { ...(await loadPolicy(inputs.policy)), source: 'as checked out' };
}
