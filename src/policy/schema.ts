import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../limits.js';
import { formatMetricName, type GroupRef } from '../metrics/names.js';
import { DIMENSIONS, type Dimension } from '../metrics/registry.js';

/*
 * The policy file: which metrics must hold which bounds, how much each may regress against the
 * baseline, and which trade-offs the team accepts. Strict everywhere: an unknown key is an error, so
 * that a typo never silently disables a check.
 */

/** A budget in the metric's unit (0.02) or relative to the baseline's value ("5%"). */
export const budgetSchema = z.union([
  z.number().nonnegative(),
  z.string().regex(/^\d+(\.\d+)?%$/, 'expected a number or a percentage such as "5%"'),
]);

/** Names are shown in reports: at most MAX_NAME_LENGTH characters (src/limits.ts). */
const name = z.string().min(1).max(MAX_NAME_LENGTH);
const metricName = name;
const scope = name.optional();

/** A per-group metric's group named as data, beside its family in `metric`: any characters, none escaped. */
const groupSchema = z
  .strictObject({
    attribute: z.string().max(MAX_NAME_LENGTH).describe("An attribute of the records' `groups`"),
    value: z
      .string()
      .max(MAX_NAME_LENGTH)
      .optional()
      .describe("One of its values: group_accuracy's group; none for worst_group_accuracy and group_accuracy_gap"),
  })
  .optional()
  .describe('The group of metric worst_group_accuracy or group_accuracy_gap (attribute), or group_accuracy (attribute and value)');

/** A term with its `group` written into its metric's name, so that all after the policy reads one name (metrics/names.ts). */
function withGroupName<Term extends { metric: string; group?: GroupRef }>(term: Term): Term {
  return term.group ? { ...term, metric: formatMetricName({ family: term.metric, group: term.group }) } : term;
}

/** How a budgeted check judges the comparison with the baseline (docs/statistics.md). */
export const TESTS = ['regression', 'non-inferiority'] as const;
const testSchema = z
  .enum(TESTS)
  .describe(
    'regression: fail when a worsening over the budget is statistically real; non-inferiority: pass only when the candidate is shown to be no worse than the budget',
  );

/** How min and max judge a value with an interval (docs/statistics.md). */
export const BOUNDS = ['point', 'lenient', 'strict'] as const;
const boundsSchema = z
  .enum(BOUNDS)
  .describe(
    'point: the estimate; lenient: fail only when the bound is crossed with confidence; strict: pass only when inside the bound with confidence',
  );

export const checkSchema = z
  .strictObject({
    metric: metricName,
    group: groupSchema,
    scenario: scope.describe('Scope of the check; default: overall'),
    min: z.number().optional().describe('The candidate must be at least this'),
    max: z.number().optional().describe('The candidate must be at most this'),
    max_regression: budgetSchema.optional().describe('Worsening allowed against the baseline: metric units, or "N%" of the baseline'),
    detect: budgetSchema
      .optional()
      .describe(
        'The regression the comparison must be able to catch (80% power): metric units, or "N%" of the baseline; above max_regression',
      ),
    test: testSchema.optional().describe('Default: settings.test'),
    bounds: boundsSchema.optional().describe('Default: settings.bounds'),
    severity: z.enum(['block', 'warn', 'off']).default('block'),
    direction: z
      .enum(['higher', 'lower'])
      .optional()
      .describe('For a metric evalgate does not know (e.g. an imported hellaswag/acc_norm): which way is better'),
    dimension: z
      .enum(DIMENSIONS as [Dimension, ...Dimension[]])
      .optional()
      .describe('For such a metric: its HELM dimension in the report (default: accuracy)'),
    description: z.string().optional(),
  })
  .refine((check) => check.min !== undefined || check.max !== undefined || check.max_regression !== undefined, {
    message: 'a check needs at least one of min, max, max_regression',
  })
  .refine((check) => check.max_regression !== undefined || (check.detect === undefined && check.test === undefined), {
    message: 'detect and test apply to a max_regression: this check has none',
  })
  .refine((check) => check.min !== undefined || check.max !== undefined || check.bounds === undefined, {
    message: 'bounds applies to min and max: this check has neither',
  });

export const tradeoffSchema = z.strictObject({
  name,
  allow: z
    .array(z.strictObject({ metric: metricName, group: groupSchema, scenario: scope, max_regression: budgetSchema }))
    .min(1)
    .describe("Budgets that replace those checks' max_regression while the trade-off applies"),
  when: z
    .array(
      z.strictObject({
        metric: metricName,
        group: groupSchema,
        scenario: scope,
        min_improvement: budgetSchema,
        direction: z.enum(['higher', 'lower']).optional(),
      }),
    )
    .min(1)
    .describe('Improvements that must all be at least this large and statistically real'),
});

export const settingsSchema = z.strictObject({
  significance: z
    .union([z.number().gt(0).lt(1), z.literal('off')])
    .default(0.05)
    .describe('A regression counts only if statistically real at this level; off = point estimates'),
  multiplicity: z
    .enum(['holm', 'bonferroni', 'none'])
    .default('holm')
    .describe("How the blocking checks' tests share the significance level, so that the whole gate falsely blocks at most that often"),
  inconclusive: z
    .enum(['warn', 'block'])
    .optional()
    .describe(
      'What an inconclusive blocking check (a regression check that cannot see what it must detect, its detect or the default) does to the verdict: warn (default) or block',
    ),
  power: z
    .enum(['warn', 'block', 'off'])
    .optional()
    .describe('Deprecated: use inconclusive (warn | block). Read as inconclusive when that is not set; off is read as warn'),
  test: testSchema.default('regression'),
  bounds: boundsSchema.default('point'),
  min_shared_instances: z
    .int()
    .min(1)
    .default(20)
    .describe('A paired comparison on fewer shared instances is an error: its bootstrap p-values mean nothing'),
  min_group_size: z.int().min(1).default(10),
  resamples: z.int().min(1).max(1_000_000).default(2000),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  coverage: z
    .strictObject({
      min: z.number().gt(0).max(1).default(1).describe("The least share of the baseline's instances the candidate must have"),
      severity: z.enum(['block', 'warn', 'off']).default('warn'),
    })
    .default({ min: 1, severity: 'warn' })
    .describe(
      "Whether the candidate answered the baseline's instances (scenario and id; a failed call is no answer): fewer means failed calls, an incomplete run or a changed suite",
    ),
});

export const policySchema = z
  .strictObject({
    version: z.literal(1),
    name,
    description: z.string().optional(),
    settings: settingsSchema.default(settingsSchema.parse({})),
    checks: z.array(checkSchema).min(1),
    tradeoffs: z.array(tradeoffSchema).default([]),
  })
  // Here rather than on each term: a transform inside would drop the defaults around it from the JSON Schema.
  .transform((policy) => ({
    ...policy,
    settings: { ...policy.settings, inconclusive: inconclusiveRule(policy.settings) },
    checks: policy.checks.map(withGroupName),
    tradeoffs: policy.tradeoffs.map((tradeoff) => ({
      ...tradeoff,
      allow: tradeoff.allow.map(withGroupName),
      when: tradeoff.when.map(withGroupName),
    })),
  }));

/**
 * settings.inconclusive, or the deprecated settings.power read as it (off cannot turn the inconclusive
 * status off any more: a pass must be earned, so it reads as warn), or warn.
 */
function inconclusiveRule(settings: z.output<typeof settingsSchema>): 'warn' | 'block' {
  return settings.inconclusive ?? (settings.power === 'block' ? 'block' : 'warn');
}

export type Budget = z.infer<typeof budgetSchema>;
export type Check = z.infer<typeof checkSchema>;
export type Tradeoff = z.infer<typeof tradeoffSchema>;
export type Policy = z.infer<typeof policySchema>;

/** The JSON Schema of policy files, for editors (`evalgate schema`). */
export function policyJsonSchema(): object {
  return {
    ...z.toJSONSchema(policySchema, { io: 'input' }),
    title: 'evalgate policy',
  };
}
