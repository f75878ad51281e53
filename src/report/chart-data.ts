import { ECE_BINS } from '../metrics/calibration.js';
import { z } from 'zod';
import { finiteNumber, metricsReportSchema, nonNegative, probability } from '../metrics/report.js';
import { scenarioOf, SCOPE_KINDS, scopeName, type ScopeRef } from '../metrics/names.js';
import { scopeNamed } from '../metrics/scope.js';
import { FAILED_CALL, KIND_ORIGINAL, type RecordTable } from '../metrics/table.js';
import type { GateResult } from '../gate/types.js';
import type { RunInput } from '../runs/load.js';

/*
 * What the charts draw beyond the checks (added to the JSON report within version 1, every field
 * optional): the candidate's pooled metrics, the baseline's metrics, the confidence bins of each gated
 * calibration scope, and the latency distributions. Point estimates only: the checks carry the intervals.
 */

/** The reliability diagram's bins: ece's (equal-width). */
export const CONFIDENCE_BINS = ECE_BINS;
export const LATENCY_BINS = 20;

/** One confidence bin of a reliability diagram (equal-width bins of a tenth; empty bins left out). */
const calibrationBinSchema = z.object({
  /** The bin's lower edge: 0, 0.1, ..., 0.9. */
  low: probability,
  /** Original, answered records with a confidence in the bin. */
  count: nonNegative,
  accuracy: probability,
  confidence: probability,
});
const binsSchema = z.array(calibrationBinSchema).max(CONFIDENCE_BINS);
const latencyCounts = z.array(nonNegative).max(LATENCY_BINS);

/** The report's chart data, as a report read back is checked (a fork's report draws only numbers). */
export const chartDataSchema = z.object({
  overall: metricsReportSchema.shape.overall,
  baselineMetrics: metricsReportSchema.nullable(),
  /** scopeKind added within version 1, as in the checks. */
  calibration: z.array(
    z.object({
      scope: z.string(),
      scopeKind: z.enum(SCOPE_KINDS).optional(),
      candidate: binsSchema,
      baseline: binsSchema.nullable(),
    }),
  ),
  /** Latencies in milliseconds, counted in bins of equal width shared by both runs; the edges one more than each run's counts. */
  latency: z
    .object({ edges: z.array(finiteNumber).max(LATENCY_BINS + 1), candidate: latencyCounts, baseline: latencyCounts.nullable() })
    .nullable(),
});

export type ChartData = z.output<typeof chartDataSchema>;
export type CalibrationBin = z.output<typeof calibrationBinSchema>;
type LatencyHistogram = NonNullable<ChartData['latency']>;

/** Rows of a scope (overall or a scenario) that answered an original instance: what accuracy and calibration read. */
function answeredOriginals(table: RecordTable, scope: ScopeRef): Int32Array {
  const { rows } = scopeNamed(table, scenarioOf(scope));
  const answered = new Int32Array(rows.length);
  let count = 0;
  for (const row of rows) {
    if (table.kind[row] === KIND_ORIGINAL && !table.failed[row] && Number.isFinite(table.correct[row])) answered[count++] = row;
  }
  return answered.subarray(0, count);
}

/**
 * The reliability diagram's bins of one scope, weighed as `ece` weighs them: an example once, each of
 * its K samples with a confidence 1/K (`count` counts examples); empty when no record there has a confidence.
 */
export function calibrationBins(table: RecordTable, scope: ScopeRef): CalibrationBin[] {
  const count = new Float64Array(CONFIDENCE_BINS);
  const correct = new Float64Array(CONFIDENCE_BINS);
  const confidence = new Float64Array(CONFIDENCE_BINS);
  const samples = table.samples;
  for (const row of answeredOriginals(table, scope)) {
    const value = table.confidence[row];
    if (!Number.isFinite(value)) continue;
    const bin = Math.min(Math.floor(value * CONFIDENCE_BINS), CONFIDENCE_BINS - 1);
    const weight = samples ? 1 / samples.calibrated[samples.exampleOf[row]] : 1;
    count[bin] += weight;
    correct[bin] += weight * table.correct[row];
    confidence[bin] += weight * value;
  }
  return Array.from(count, (n, bin) => ({
    low: bin / CONFIDENCE_BINS,
    count: n,
    accuracy: correct[bin] / n,
    confidence: confidence[bin] / n,
  })).filter((bin) => bin.count > 0);
}

function latencies(table: RecordTable): Float64Array {
  const values = new Float64Array(table.size);
  let count = 0;
  for (let row = 0; row < table.size; row++) {
    // A completion its judge did not grade still took its time, as latency_p50_ms and latency_p95_ms count it.
    if (table.failed[row] !== FAILED_CALL && Number.isFinite(table.latencyMs[row])) values[count++] = table.latencyMs[row];
  }
  return values.subarray(0, count);
}

/** Both runs' latencies over LATENCY_BINS bins from the least to the greatest of either; null without any. */
function latencyHistogram(candidate: RecordTable, baseline: RecordTable | undefined): LatencyHistogram | null {
  const runs = [latencies(candidate), ...(baseline ? [latencies(baseline)] : [])];
  if (runs[0].length === 0) return null;
  let low = Infinity;
  let high = -Infinity;
  for (const values of runs) {
    for (const value of values) {
      if (value < low) low = value;
      if (value > high) high = value;
    }
  }
  const width = (high - low) / LATENCY_BINS || 1;
  const edges = Array.from({ length: LATENCY_BINS + 1 }, (_, bin) => low + bin * width);
  const counts = runs.map((values) => {
    const bins = new Array<number>(LATENCY_BINS).fill(0);
    for (const value of values) bins[Math.min(Math.floor((value - low) / width), LATENCY_BINS - 1)]++;
    return bins;
  });
  return { edges, candidate: counts[0], baseline: baseline ? counts[1] : null };
}

/** The data of the charts of a gate, from its result and its runs. */
export function chartData(result: GateResult, candidate: RunInput, baseline: RunInput | undefined): ChartData {
  const records = (run: RunInput | undefined) => (run?.kind === 'records' ? run.table : undefined);
  const candidateTable = records(candidate);
  const baselineTable = records(baseline);
  const scopes = new Map(
    result.checks.filter((check) => check.dimension === 'calibration').map(({ scope }) => [JSON.stringify(scope), scope]),
  );
  const calibration = candidateTable
    ? [...scopes.values()].map((scope) => ({
        scope: scopeName(scope),
        scopeKind: scope.kind,
        candidate: calibrationBins(candidateTable, scope),
        baseline: baselineTable ? calibrationBins(baselineTable, scope) : null,
      }))
    : [];
  return {
    overall: result.candidateMetrics.overall,
    baselineMetrics: result.baselineMetrics,
    calibration: calibration.filter((scope) => scope.candidate.length > 0),
    latency: candidateTable ? latencyHistogram(candidateTable, baselineTable) : null,
  };
}
