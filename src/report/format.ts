import { MAX_INTERVAL_SCENARIOS } from '../limits.js';
import type { MetricSet } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';
import { countOutcomes, didNotRun } from '../gate/verdict.js';
import type { GateReport } from './json.js';

/** Number formatting and the metric table rows shared by the text and markdown reports. */

/** "1 check", "2 checks": a count and its noun, plural unless the count is 1. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** Below this a value is floating-point residue of a sum that is 0 (an ece of 6.66e-16). */
const RESIDUE = 1e-12;

/** 1 decimal from 100 up, 4 decimals down to 0.001, 3 significant digits below; no trailing zeros. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) < RESIDUE) return '0';
  const magnitude = Math.abs(value);
  const text = magnitude >= 100 ? value.toFixed(1) : magnitude >= 0.001 ? value.toFixed(4) : value.toPrecision(3);
  return text.includes('.') && !text.includes('e') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

export function formatInterval(ci: [number, number] | null): string {
  return ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '-';
}

/** What every report says when some scenarios have point estimates only (MAX_INTERVAL_SCENARIOS); undefined when none. */
export function withoutIntervalsNote(report: {
  scenarios: Record<string, unknown>;
  scenariosWithoutIntervals?: number;
}): string | undefined {
  const without = report.scenariosWithoutIntervals;
  if (!without) return undefined;
  const scenarios = Object.keys(report.scenarios).length;
  return (
    `${without} of the ${scenarios} scenarios have point estimates only, no intervals: intervals are computed for at most ` +
    `${MAX_INTERVAL_SCENARIOS} scenarios (those the checks name, then the first in order; docs/record-format.md#limits)`
  );
}

/**
 * "6 of 8 checks did not run (6 skipped)": every report's headline says it after the verdict, so that
 * no verdict reads as a bare pass over checks that did not look (gate/verdict.ts: didNotRun); '' when all ran.
 */
export function notRunText(report: Pick<GateReport, 'checks'>): string {
  const { notRun, judged } = countOutcomes(report.checks);
  if (notRun === 0) return '';
  const statuses = (['skipped', 'inconclusive', 'error'] as const).flatMap((status) => {
    const n = report.checks.filter((check) => check.status === status && didNotRun(check)).length;
    return n > 0 ? [status === 'error' ? count(n, status) : `${n} ${status}`] : [];
  });
  return `${notRun} of ${count(judged, 'check')} did not run (${statuses.join(', ')})`;
}

/** What every report's headline says when there was no baseline: what became of the regression budgets ('' with a baseline). */
export function noBaselineText(report: Pick<GateReport, 'checks' | 'baseline'>): string {
  if (report.baseline) return '';
  // A check that failed on its bounds says in its reasons what became of its budget.
  const became = (['inconclusive', 'skipped'] as const).find((status) => report.checks.some((check) => check.status === status));
  return `no baseline: regression budgets were ${became ?? 'not checked'}`;
}

/** " · outcome inconclusive" when the outcome says more than the verdict (inconclusive, error). */
export function outcomeNote(report: GateReport): string {
  return report.outcome === undefined || report.outcome === report.verdict ? '' : ` · outcome ${report.outcome}`;
}

export const METRIC_TABLE_HEADER = ['metric', 'value', '95% CI', 'n', 'dimension', 'note'];
export const METRIC_TABLE_ALIGN = ['l', 'r', 'r', 'r', 'l', 'l'];

/** One row per metric: name (as `formatName` renders it), value, interval, n, dimension, note. */
export function metricRows(metrics: MetricSet, minGroupSize: number, formatName: (name: string) => string): string[][] {
  return Object.entries(metrics).map(([name, metric]) => {
    const definition = lookupMetric(name);
    const smallGroup = definition?.name === 'group_accuracy' && metric.n < minGroupSize;
    return [
      formatName(name),
      formatNumber(metric.value),
      formatInterval(metric.ci),
      String(metric.n),
      definition ? `${definition.dimension} (${definition.direction} is better)` : '',
      smallGroup ? `below min_group_size ${minGroupSize}: not in worst/gap` : '',
    ];
  });
}
