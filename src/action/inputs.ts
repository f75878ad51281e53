import * as core from '@actions/core';
import { IMPORT_FORMATS, type ImportFormat } from '../importers/index.js';
import { MAX_SAMPLES } from '../runner/work-items.js';
import { UsageError } from '../errors.js';

/** Every input of action.yml, by name, in one place. */
export const INPUT = {
  policy: 'policy',
  candidate: 'candidate',
  baseline: 'baseline',
  githubToken: 'github-token',
  comment: 'comment',
  policySource: 'policy-source',
  allowNewPolicy: 'allow-new-policy',
  saveBaseline: 'save-baseline',
  failOn: 'fail-on',
  waiverLabel: 'waiver-label',
  report: 'report',
  evalCommand: 'eval-command',
  import: 'import',
  suite: 'suite',
  model: 'model',
  baseUrl: 'base-url',
  modelRevision: 'model-revision',
  samples: 'samples',
  id: 'id',
  requireBaseline: 'require-baseline',
  baseBranches: 'base-branches',
} as const;

export const OUTPUT = {
  verdict: 'verdict',
  failedChecks: 'failed-checks',
  report: 'report',
  htmlReport: 'html-report',
  commentUrl: 'comment-url',
  records: 'records',
} as const;

export interface ActionInputs {
  policy: string;
  candidate?: string;
  baseline?: string;
  token?: string;
  comment: boolean;
  policySource?: 'base' | 'head';
  /** A policy the base commit does not have may gate (the pull request's copy). */
  allowNewPolicy: boolean;
  saveBaseline: 'auto' | 'true' | 'false';
  failOn: 'fail' | 'warn' | 'never';
  waiverLabel?: string;
  report?: string;
  evalCommand?: string;
  importFormat?: ImportFormat;
  suite?: string;
  model?: string;
  baseUrl?: string;
  /** What the model is (`evalgate run --model-revision`): part of the completion cache's keys. */
  modelRevision?: string;
  /** How many times the suite run asks each example (`evalgate run --samples`); 1 unless given with `suite`. */
  samples: number;
  /** Tells apart jobs that gate several models under one policy: their baselines, comments and statuses. */
  id?: string;
  /** No baseline found fails the step. */
  requireBaseline: boolean;
  /** On workflow_run: the branches besides the default branch whose pull requests are gated. */
  baseBranches: string[];
}

/** A true/false input as GitHub reads booleans (true, True, TRUE, false, ...); the fallback when empty. */
function flag(name: string, fallback: boolean): boolean {
  return core.getInput(name).trim() === '' ? fallback : core.getBooleanInput(name);
}

/** An input that must be one of a few words. */
function choice<T extends string>(name: string, allowed: readonly T[], fallback: T | undefined): T | undefined {
  const value = core.getInput(name).trim();
  if (value === '') return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`Input "${name}" must be one of ${allowed.join(', ')}; got "${value}"`);
  return value as T;
}

/** An input that must be a whole number from `minimum` to `maximum`; undefined when empty. */
function wholeNumber(name: string, minimum: number, maximum: number): number | undefined {
  const value = core.getInput(name).trim();
  if (value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < minimum || Number(value) > maximum) {
    throw new UsageError(`Input "${name}" must be a whole number from ${minimum} to ${maximum}; got "${value}"`);
  }
  return Number(value);
}

/**
 * The suite run's samples per example (default 1). Given when no suite runs (no `suite`, or a
 * `candidate` or `report` instead), it fails rather than be ignored.
 */
function samplesInput(suite: string | undefined, candidate: string | undefined, report: string | undefined): number {
  const samples = wholeNumber(INPUT.samples, 1, MAX_SAMPLES);
  if (samples !== undefined && (!suite || candidate || report)) {
    throw new UsageError(
      'Input "samples" is for the suite run (inputs "suite" and "model", with no "candidate" or "report"): here no suite runs, ' +
        'so it would be ignored. Records given as the candidate carry their own samples (the "sample" field).',
    );
  }
  return samples ?? 1;
}

/** A list input: names separated by commas or line ends. */
function list(name: string): string[] {
  return core
    .getInput(name)
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * What workflow_run refuses: its workspace holds what a fork's run uploaded, so "the pull request's
 * own copy" of a policy missing at the base would be the fork's. Elsewhere base-branches is unused.
 */
function refuseForEvent(inputs: ActionInputs, event: string): void {
  if (event !== 'workflow_run') {
    if (inputs.baseBranches.length > 0) core.warning(`Input "${INPUT.baseBranches}" is for workflow_run events: ignored on ${event}.`);
    return;
  }
  if (inputs.allowNewPolicy) {
    throw new UsageError(
      `Input "${INPUT.allowNewPolicy}: true" is refused on workflow_run: the workspace holds what the fork's run uploaded, so a policy ` +
        "missing at the base commit would be the fork's own. Merge the policy into the base branch first (a pull request from a branch of this repository may use allow-new-policy).",
    );
  }
  if (inputs.id !== undefined && inputs.baseBranches.includes(inputs.id)) {
    // "evalgate: <policy> (<id>)" would be the status context of pull requests into that branch.
    throw new UsageError(
      `Input "${INPUT.id}" must not be the name of a branch "${INPUT.baseBranches}" lists (${inputs.id}): their status contexts would be one.`,
    );
  }
}

/** The action's inputs, checked against each other and against the event (`event`: the event's name). */
export function readInputs(event: string): ActionInputs {
  const optional = (name: string) => core.getInput(name).trim() || undefined;
  const token = optional(INPUT.githubToken);
  if (token) core.setSecret(token);
  if (process.env.OPENAI_API_KEY) core.setSecret(process.env.OPENAI_API_KEY);
  const [candidate, report, suite] = [optional(INPUT.candidate), optional(INPUT.report), optional(INPUT.suite)];
  const inputs: ActionInputs = {
    policy: core.getInput(INPUT.policy, { required: true }).trim(),
    candidate,
    baseline: optional(INPUT.baseline),
    token,
    comment: flag(INPUT.comment, true),
    policySource: choice(INPUT.policySource, ['base', 'head'], undefined),
    allowNewPolicy: flag(INPUT.allowNewPolicy, false),
    saveBaseline: choice(INPUT.saveBaseline, ['auto', 'true', 'false'], 'auto')!,
    failOn: choice(INPUT.failOn, ['fail', 'warn', 'never'], 'fail')!,
    waiverLabel: optional(INPUT.waiverLabel),
    report,
    evalCommand: optional(INPUT.evalCommand),
    importFormat: choice(INPUT.import, IMPORT_FORMATS, undefined),
    suite,
    model: optional(INPUT.model),
    baseUrl: optional(INPUT.baseUrl),
    modelRevision: optional(INPUT.modelRevision),
    samples: samplesInput(suite, candidate, report),
    id: optional(INPUT.id),
    requireBaseline: flag(INPUT.requireBaseline, false),
    baseBranches: list(INPUT.baseBranches),
  };
  refuseForEvent(inputs, event);
  return inputs;
}
