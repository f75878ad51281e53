import { z } from 'zod';
import { InputError } from '../errors.js';
import { MAX_NAME_LENGTH } from '../limits.js';
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
/** A metric's or a scenario's name, as long as names may be (src/limits.ts). */
const name = z.string().max(MAX_NAME_LENGTH, `a name longer than ${MAX_NAME_LENGTH} characters`);
/** Scenario and metric names are data: every one is kept, `__proto__` and `constructor` too. */
export const metricsReportSchema = z.object({
  overall: dictionarySchema(metricValueSchema, name),
  scenarios: dictionarySchema(dictionarySchema(metricValueSchema, name), name),
  scenariosWithoutIntervals: z.int().positive().optional(),
});

/**
 * Whether a file's first JSON value claims to be a metrics file, so that it is checked as one: an object
 * with "overall" or "scenarios" and neither "scenario" nor "id", which every record has (a record may
 * carry an extra field named "overall") and a metrics file never has at its top.
 */
export function looksLikeMetricsFile(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const has = (key: string) => Object.hasOwn(value, key);
  return (has('overall') || has('scenarios')) && !has('scenario') && !has('id');
}

/** A parsed metrics file, checked; a bad one names the file and the first bad field. */
export function parseMetricsFile(value: unknown, file: string): MetricsReport {
  const parsed = metricsReportSchema.safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    // A name too long is quoted short: the message must not be as long as the name.
    const path = issue.path.map((part) => (String(part).length > 60 ? `${String(part).slice(0, 57)}...` : String(part))).join('.');
    throw new InputError(file, undefined, `not a valid metrics report: "${path}": ${issue.message}`);
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
