import { componentShape } from '../metrics/bound-components.js';
import { LITTLE_BOOTSTRAP_SUBSETS } from '../metrics/compute.js';
import { formatPath, linesOf, type Path } from '../config/yaml-config.js';
import { boundsOf } from './family.js';
import type { Policy } from './schema.js';

/*
 * What a valid policy may not mean: `evalgate validate` prints these and still accepts the policy.
 */

/** Fewer resamples than this a little-bootstrap subset leave the p-values' tails to a handful of resamples. */
export const MIN_RESAMPLES_PER_SUBSET = 50;

/** A policy path and what is wrong there. */
export interface PolicyWarning {
  path: Path;
  message: string;
}

/** The policy's warnings, each "file:line key.path: message" (the line of the path, when the file has it). */
export function formatWarnings(policy: Policy, file: string, text: string): string[] {
  const warnings = policyWarnings(policy);
  const lines = linesOf(
    text,
    warnings.map(({ path }) => path),
  );
  return warnings.map(
    ({ path, message }, index) => `${file}${lines[index] === undefined ? '' : `:${lines[index]}`} ${formatPath(path)}: ${message}`,
  );
}

export function policyWarnings(policy: Policy): PolicyWarning[] {
  const warnings: PolicyWarning[] = [];
  const { resamples } = policy.settings;
  const perSubset = Math.floor(resamples / LITTLE_BOOTSTRAP_SUBSETS);
  if (perSubset < MIN_RESAMPLES_PER_SUBSET) {
    warnings.push({
      path: ['settings', 'resamples'],
      message:
        `${resamples} resamples give ${perSubset} to each of the little bootstrap's ${LITTLE_BOOTSTRAP_SUBSETS} subsets (scopes of more than 500 instances): ` +
        `p-values there rest on a few resamples a subset; use at least ${MIN_RESAMPLES_PER_SUBSET * LITTLE_BOOTSTRAP_SUBSETS}`,
    });
  }
  policy.checks.forEach((check, index) => {
    if (check.min === undefined && check.max === undefined) return;
    if (componentShape(check.metric) === undefined || boundsOf(check, policy) !== 'point') return;
    warnings.push({
      path: ['checks', index],
      message:
        `a point bound on ${check.metric} judges a bias-corrected estimate and has no error control: ` +
        'an unchanged model can fail it most of the time on small suites; use bounds: lenient (fails only what the data shows) or strict',
    });
  });
  return warnings;
}
