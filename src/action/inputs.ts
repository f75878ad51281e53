import type { ActionContext, ActionPort, InputSource } from './context.js';
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
  rejudgeBaseline: 'rejudge-baseline',
} as const;

export const OUTPUT = {
  verdict: 'verdict',
  outcome: 'outcome',
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
  /** With a judged suite: a baseline judged by another judge is judged again with the suite's before the gate. */
  rejudgeBaseline: boolean;
}

/** A true/false input as GitHub reads booleans (true, True, TRUE, false, ...); the fallback when empty. */
function flag(source: InputSource, name: string, fallback: boolean): boolean {
  return source.getInput(name).trim() === '' ? fallback : source.getBooleanInput(name);
}

/** An input that must be one of a few words. */
function choice<T extends string>(source: InputSource, name: string, allowed: readonly T[], fallback: T | undefined): T | undefined {
  const value = source.getInput(name).trim();
  if (value === '') return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`Input "${name}" must be one of ${allowed.join(', ')}; got "${value}"`);
  return value as T;
}

/** An input that must be a whole number from `minimum` to `maximum`; undefined when empty. */
function wholeNumber(source: InputSource, name: string, minimum: number, maximum: number): number | undefined {
  const value = source.getInput(name).trim();
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
function samplesInput(source: InputSource, suite: string | undefined, candidate: string | undefined, report: string | undefined): number {
  const samples = wholeNumber(source, INPUT.samples, 1, MAX_SAMPLES);
  if (samples !== undefined && (!suite || candidate || report)) {
    throw new UsageError(
      'Input "samples" is for the suite run (inputs "suite" and "model", with no "candidate" or "report"): here no suite runs, ' +
        'so it would be ignored. Records given as the candidate carry their own samples (the "sample" field).',
    );
  }
  return samples ?? 1;
}

/** A list input: names separated by commas or line ends. */
function list(source: InputSource, name: string): string[] {
  return source
    .getInput(name)
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * What workflow_run refuses: its workspace holds what a fork's run uploaded, so "the pull request's
 * own copy" of a policy missing at the base would be the fork's. Elsewhere base-branches is unused.
 */
function refuseForEvent(inputs: ActionInputs, event: string, port: ActionPort): void {
  if (event !== 'workflow_run') {
    if (inputs.baseBranches.length > 0) port.warning(`Input "${INPUT.baseBranches}" is for workflow_run events: ignored on ${event}.`);
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

/** The action's inputs, checked against each other and against the event; the token and the context's secrets masked in the log. */
export function readInputs({ inputs: source, eventName, secrets }: ActionContext, port: ActionPort): ActionInputs {
  const optional = (name: string) => source.getInput(name).trim() || undefined;
  const token = optional(INPUT.githubToken);
  if (token) port.setSecret(token);
  for (const secret of secrets) port.setSecret(secret);
  const [candidate, report, suite] = [optional(INPUT.candidate), optional(INPUT.report), optional(INPUT.suite)];
  const inputs: ActionInputs = {
    policy: source.getInput(INPUT.policy, { required: true }).trim(),
    candidate,
    baseline: optional(INPUT.baseline),
    token,
    comment: flag(source, INPUT.comment, true),
    policySource: choice(source, INPUT.policySource, ['base', 'head'], undefined),
    allowNewPolicy: flag(source, INPUT.allowNewPolicy, false),
    saveBaseline: choice(source, INPUT.saveBaseline, ['auto', 'true', 'false'], 'auto')!,
    failOn: choice(source, INPUT.failOn, ['fail', 'warn', 'never'], 'fail')!,
    waiverLabel: optional(INPUT.waiverLabel),
    report,
    evalCommand: optional(INPUT.evalCommand),
    importFormat: choice(source, INPUT.import, IMPORT_FORMATS, undefined),
    suite,
    model: optional(INPUT.model),
    baseUrl: optional(INPUT.baseUrl),
    modelRevision: optional(INPUT.modelRevision),
    samples: samplesInput(source, suite, candidate, report),
    id: optional(INPUT.id),
    requireBaseline: flag(source, INPUT.requireBaseline, false),
    baseBranches: list(source, INPUT.baseBranches),
    rejudgeBaseline: flag(source, INPUT.rejudgeBaseline, true),
  };
  refuseForEvent(inputs, eventName, port);
  return inputs;
}
