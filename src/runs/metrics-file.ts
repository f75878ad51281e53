import { z } from 'zod';
import { InputError } from '../errors.js';
import type { MetricsReport, MetricSet } from '../metrics/compute.js';
import { dictionarySchema, own } from '../records/dictionary.js';

/*
 * A metrics file: the JSON of `evalgate metrics --json`, or of an import of another tool's summary
 * numbers. Every metric of every scope, with its interval and n.
 */

export const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');
/** A metric's value as `evalgate metrics --json` writes it; n may be fractional (another tool's weighted samples). */
export const metricValueSchema = z.object({
  value: finiteNumber,
  ci: z.tuple([finiteNumber, finiteNumber]).nullable(),
  n: finiteNumber.refine((n) => n >= 0, 'expected a number >= 0'),
});
/** Scenario and metric names are data: every one is kept, `__proto__` and `constructor` too. */
export const metricsReportSchema = z.object({
  overall: dictionarySchema(metricValueSchema),
  scenarios: dictionarySchema(dictionarySchema(metricValueSchema)),
});

/** Whether parsed JSON claims to be a metrics file (it has "overall"), so that it is checked as one. */
export function looksLikeMetricsFile(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'overall' in value;
}

/** A parsed metrics file, checked; a bad one names the file and the first bad field. */
export function parseMetricsFile(value: unknown, file: string): MetricsReport {
  const parsed = metricsReportSchema.safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new InputError(file, undefined, `not a valid metrics report: "${issue.path.map(String).join('.')}": ${issue.message}`);
  }
  return parsed.data;
}

/** The metric set of a scope ("overall" or a scenario) of a report (or of anything laid out as one). */
export function scopeMetrics<Set = MetricSet>(
  report: { overall: Set; scenarios: Record<string, Set> },
  scenario: string | undefined,
): Set | undefined {
  return scenario === undefined ? report.overall : own(report.scenarios, scenario);
}

/** One metric of a scope of a report (or of anything laid out as one), if it has it. */
export function scopeMetric<Value = MetricSet[string]>(
  report: { overall: Record<string, Value>; scenarios: Record<string, Record<string, Value>> },
  scenario: string | undefined,
  metric: string,
): Value | undefined {
  return own(scopeMetrics(report, scenario), metric);
}
