import { loadPolicy, parsePolicy, type LoadedPolicy } from '../policy/load.js';
import type { Job } from './context.js';
import { fileAtCommit } from './github/comment.js';
import type { ActionInputs } from './inputs.js';
import { locatePolicy, refuseLinksAndFolders } from './policy-location.js';
import type { BaseCommit, Octokit } from './pull-request.js';
import { UsageError } from '../errors.js';
import { escapeTerminal } from '../report/escape.js';

/** A policy, where it was read (for the report), and its path in the repository (for the baseline's cache key). */
export type SourcedPolicy = LoadedPolicy & { source: string; path: string };

/**
 * The policy as the base commit has it, so that a pull request cannot loosen its own gate; else the
 * checked-out file. Fails closed: a policy the base does not have gates only when the workflow allows
 * a new policy (allow-new-policy), and then says so.
 */
export async function readPolicy(
  inputs: ActionInputs,
  base: BaseCommit | undefined,
  octokit: Octokit | undefined,
  job: Job,
): Promise<SourcedPolicy> {
  const policy = await policyAsSourced(inputs, base, octokit, job);
  // Deprecated keys (settings.power), each with its file and line and how to migrate.
  for (const warning of policy.warnings) job.port.warning(escapeTerminal(warning));
  return policy;
}

async function policyAsSourced(
  inputs: ActionInputs,
  base: BaseCommit | undefined,
  octokit: Octokit | undefined,
  { context, port }: Job,
): Promise<SourcedPolicy> {
  // On workflow_run the workspace holds what a fork's run uploaded: no repository is looked for in it.
  const location = await locatePolicy(inputs.policy, { findCheckout: context.eventName !== 'workflow_run', workspace: context.workspace });
  const path = location.inRepository ?? location.file;
  const fromBase = (inputs.policySource ?? (base ? 'base' : 'head')) === 'base';
  if (!fromBase || !base) return { ...(await loadPolicy(inputs.policy)), source: 'as checked out', path };

  if (!octokit) throw new UsageError('Reading the policy at the base commit needs the input github-token (or set policy-source: head).');
  if (location.inRepository === undefined) {
    throw new UsageError(
      `The policy ${inputs.policy} is outside the repository, so it cannot be read at the base commit (set policy-source: head to use it as checked out).`,
    );
  }
  await refuseLinksAndFolders(inputs.policy, location);
  const { owner, repo } = context.repo;
  const commit = base.sha.slice(0, 7);
  const text = await fileAtCommit(octokit, owner, repo, location.inRepository, base.sha);
  if (text !== undefined) return { ...parsePolicy(text, inputs.policy), source: `at the base commit ${commit}`, path };
  if (!inputs.allowNewPolicy) {
    throw new UsageError(
      `The policy ${inputs.policy} does not exist at the base commit ${commit}: a pull request cannot bring its own policy. ` +
        `Looked up ${location.inRepository} in ${owner}/${repo}; if this pull request adds the policy, set allow-new-policy: true.`,
    );
  }
  port.warning(`${inputs.policy} does not exist at the base commit yet (allow-new-policy): the pull request's own copy gates.`);
  // The file as located (links refused above), not the input, which "a/../b" may point elsewhere through a link.
  const checkedOut = await loadPolicy(location.file);
  return { ...checkedOut, file: inputs.policy, source: 'from the pull request (not on the base yet)', path };
}
