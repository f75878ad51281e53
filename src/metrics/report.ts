import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../limits.js';
import { dictionarySchema } from '../records/dictionary-schema.js';

/*
 * The JSON of `evalgate metrics --json` (and of a metrics file another tool's summary numbers were
 * imported into): every metric of every scope, with its interval and n. The schema is the one source of
 * its type: a metrics file and a report are read back with it, and what the engine computes has its shape.
 */

export const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');
export const nonNegative = finiteNumber.refine((x) => x >= 0, 'expected a number >= 0');
export const probability = finiteNumber.refine((p) => p >= 0 && p <= 1, 'expected a probability in [0, 1]');

/** A metric's value; n may be fractional (another tool's weighted samples). */
export const metricValueSchema = z.object({
  value: finiteNumber,
  /** 95% bootstrap percentile interval; null when no resampling was asked for. */
  ci: z.tuple([finiteNumber, finiteNumber]).nullable(),
  n: nonNegative,
});

/** A metric's or a scenario's name, as long as names may be (src/limits.ts). */
const name = z.string().max(MAX_NAME_LENGTH, `a name longer than ${MAX_NAME_LENGTH} characters`);
/** Metric -> value; metric names, like scenario names, are data: prototype-free objects (records/dictionary.ts). */
const metricSetSchema = dictionarySchema(metricValueSchema, name);
/** Scenario and metric names are data: every one is kept, `__proto__` and `constructor` too. */
export const metricsReportSchema = z.object({
  overall: metricSetSchema,
  scenarios: dictionarySchema(metricSetSchema, name),
  /**
   * How many scenarios have point estimates only, past MAX_INTERVAL_SCENARIOS (src/limits.ts); absent
   * when every scenario has its intervals (or none was asked for).
   */
  scenariosWithoutIntervals: z.int().positive().optional(),
});

export type MetricValue = z.output<typeof metricValueSchema>;
export type MetricSet = z.output<typeof metricSetSchema>;
export type MetricsReport = z.output<typeof metricsReportSchema>;
