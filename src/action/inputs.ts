import * as core from '@actions/core';
import { IMPORT_FORMATS, type ImportFormat } from '../importers/index.js';
import { MAX_SAMPLES } from '../runner/work-items.js';

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
}

/** A true/false input as GitHub reads booleans (true, True, TRUE, false, ...); the fallback when empty. */
function flag(name: string, fallback: boolean): boolean {
  return core.getInput(name).trim() === '' ? fallback : core.getBooleanInput(name);
}

/** An input that must be one of a few words. */
function choice<T extends string>(name: string, allowed: readonly T[], fallback: T | undefined): T | undefined {
  const value = core.getInput(name).trim();
  if (value === '') return fallback;
  if (!allowed.includes(value as T)) throw new Error(`Input "${name}" must be one of ${allowed.join(', ')}; got "${value}"`);
  return value as T;
}

/** An input that must be a whole number from `minimum` to `maximum`; undefined when empty. */
function wholeNumber(name: string, minimum: number, maximum: number): number | undefined {
  const value = core.getInput(name).trim();
  if (value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < minimum || Number(value) > maximum) {
    throw new Error(`Input "${name}" must be a whole number from ${minimum} to ${maximum}; got "${value}"`);
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
    throw new Error(
      'Input "samples" is for the suite run (inputs "suite" and "model", with no "candidate" or "report"): here no suite runs, ' +
        'so it would be ignored. Records given as the candidate carry their own samples (the "sample" field).',
    );
  }
  return samples ?? 1;
}

export function readInputs(): ActionInputs {
  const optional = (name: string) => core.getInput(name).trim() || undefined;
  const token = optional(INPUT.githubToken);
  if (token) core.setSecret(token);
  if (process.env.OPENAI_API_KEY) core.setSecret(process.env.OPENAI_API_KEY);
  const [candidate, report, suite] = [optional(INPUT.candidate), optional(INPUT.report), optional(INPUT.suite)];
  return {
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
  };
}
