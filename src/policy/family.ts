import { builtinChecks, FAILURE_RATE_CHECK } from './builtin.js';
import type { Check, Policy } from './schema.js';

/*
 * Which hypothesis tests of a policy share the significance level. A gate falsely blocks when any of
 * its blocking tests does, so the blocking checks' paired regression tests and lenient bound tests
 * form one family, corrected together (settings.multiplicity); warn checks, which cannot block, form
 * their own. Non-inferiority and strict bounds pass only when every one of them shows its claim
 * (intersection-union), so they need no correction; nor do trade-offs, which only relax.
 */

export type Test = NonNullable<Check['test']>;
export type Bounds = NonNullable<Check['bounds']>;
export type FamilyName = 'block' | 'warn';

export const testOf = (check: Check, policy: Policy): Test => check.test ?? policy.settings.test;
export const boundsOf = (check: Check, policy: Policy): Bounds => check.bounds ?? policy.settings.bounds;

/** One test of the family: a regression test of a (metric, scope), or a test of one of its bounds (a min or max and its value). */
export function familyKey(kind: 'regression' | 'min' | 'max', metric: string, scenario: string | undefined, limit?: number): string {
  return JSON.stringify([kind, scenario ?? null, metric, limit ?? null]);
}

/** The family a check's corrected tests belong to, if any. */
export function familyOf(check: Check): FamilyName | undefined {
  return check.severity === 'block' ? 'block' : check.severity === 'warn' ? 'warn' : undefined;
}

/** The keys of the corrected tests a check has. */
export function correctedTests(check: Check, policy: Policy): string[] {
  const keys: string[] = [];
  if (check.max_regression !== undefined && testOf(check, policy) === 'regression') {
    keys.push(familyKey('regression', check.metric, check.scenario));
  }
  if (boundsOf(check, policy) === 'lenient') {
    if (check.min !== undefined) keys.push(familyKey('min', check.metric, check.scenario, check.min));
    if (check.max !== undefined) keys.push(familyKey('max', check.metric, check.scenario, check.max));
  }
  return keys;
}

/**
 * Every family's distinct tests, as the policy states them and with the built-in checks the gate tests
 * (src/policy/builtin.ts): the failure-rate test unless `failures` is false (runs in which no call
 * failed: the gate does not test it), and the judge's unknown-verdict test when `judged` (a judged suite,
 * or runs with an unknown verdict or a failed judge call): those that turn out not paired, or trivial,
 * drop out at the gate.
 */
export function familiesOf(policy: Policy, failures = true, judged = false): Record<FamilyName, string[]> {
  const families: Record<FamilyName, Set<string>> = { block: new Set(), warn: new Set() };
  const builtin = builtinChecks(policy, judged).filter((check) => failures || check !== FAILURE_RATE_CHECK);
  for (const check of [...policy.checks, ...builtin]) {
    const family = familyOf(check);
    if (family) for (const key of correctedTests(check, policy)) families[family].add(key);
  }
  return { block: [...families.block], warn: [...families.warn] };
}

/** How many tests the smallest p-value of a family is multiplied by: the family's size, or 1 uncorrected. */
export function correctionFactor(policy: Policy, familySize: number): number {
  return policy.settings.multiplicity === 'none' ? 1 : Math.max(1, familySize);
}

/**
 * The fewest bootstrap resamples with which every test of the policy can reach its level: a p-value
 * is at least 1 / (B + 1), and the correction multiplies the smallest by the family's size, so
 * B + 1 must exceed m / alpha (with the judge's built-in test among them when `judged`). Undefined
 * when significance is off.
 */
export function minimumResamples(policy: Policy, judged = false): number | undefined {
  const { significance } = policy.settings;
  const tested =
    policy.tradeoffs.length > 0 || policy.checks.some((check) => check.max_regression !== undefined || boundsOf(check, policy) !== 'point');
  if (significance === 'off' || !tested) return undefined;
  const families = familiesOf(policy, true, judged);
  const m = Math.max(1, correctionFactor(policy, families.block.length), correctionFactor(policy, families.warn.length));
  // The smallest B with (B + 1) * alpha > m.
  return Math.floor(m / significance + 1e-9);
}
