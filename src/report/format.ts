import { MAX_INTERVAL_SCENARIOS } from '../limits.js';
import type { MetricSet } from '../metrics/compute.js';
import { shownScope } from '../metrics/names.js';
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

export function formatInterval(ci: [number, number] | null): string {
  return ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '-';
}

type CheckRow = GateReport['checks'][number];

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

/** The columns of the checks' table (markdown; the text report adds the dimension first). */
export const CHECK_TABLE_HEADER = [
  'metric',
  'scope',
  'candidate (95% CI)',
  'baseline',
  'change',
  'can detect (80%)',
  'threshold',
  'status',
];
export const CHECK_TABLE_ALIGN = ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l'];

/**
 * The change and its evidence: paired, with both runs' values on the instances they share (so that
 * the columns add up) and the p-value (adjusted for the family, when that changed it).
 */
export function changeText(check: CheckRow): string {
  const comparison = check.comparison;
  if (!comparison) return '-';
  const sign = comparison.change > 0 ? '+' : '';
  const change = `${sign}${formatNumber(comparison.change)}`;
  if (comparison.method === 'summary') return `${change} (point estimates)`;
  const values = `${formatNumber(comparison.candidate)} vs ${formatNumber(comparison.baseline)} on ${comparison.shared} shared`;
  // The p-value the check decides with: non-inferiority's, the budget test's (a positive budget), or pWorse.
  const [kind, p, pAdjusted] =
    comparison.pNotInferior !== undefined
      ? ['p non-inferior', comparison.pNotInferior, undefined]
      : comparison.pOverBudget !== undefined
        ? ['p over budget', comparison.pOverBudget, comparison.pOverBudgetAdjusted]
        : ['p worse', comparison.pWorse, comparison.pWorseAdjusted];
  if (p === undefined) return `${change} (${values})`;
  const adjusted = pAdjusted !== undefined && pAdjusted !== p ? `, adjusted ${pAdjusted.toPrecision(2)}` : '';
  return `${change} (${values}; ${kind} ${p.toPrecision(2)}${adjusted})`;
}

/**
 * A check's cells under CHECK_TABLE_HEADER: data (names, thresholds) through `escape` for the output
 * format, the status as `status` renders it, followed by the check's flags.
 */
export function checkCells(check: CheckRow, escape: (text: string) => string, status: (status: string) => string): string[] {
  return [
    escape(check.metric),
    escape(shownScope(check)),
    check.candidate ? `${formatNumber(check.candidate.value)} ${formatInterval(check.candidate.ci)}` : '-',
    check.comparison ? formatNumber(check.comparison.baseline) : '-',
    changeText(check),
    detectText(check),
    escape(check.threshold),
    [status(check.status), ...(check.flags ?? [])].join(' · '),
  ];
}

/** The smallest worsening the comparison sees at 80% power, and what the check must detect. */
export function detectText(check: CheckRow): string {
  const power = check.power;
  if (!power) return '-';
  const mde = power.mde === null ? 'unknown' : formatNumber(power.mde);
  return power.detect === null ? mde : `${mde} (must: ${formatNumber(power.detect)})`;
}

/** " · outcome inconclusive" when the outcome says more than the verdict (inconclusive, error). */
export function outcomeNote(report: GateReport): string {
  return report.outcome === undefined || report.outcome === report.verdict ? '' : ` · outcome ${report.outcome}`;
}

/** Statuses every report lists under "what blocks or warns". */
export const NOTED_STATUSES = ['fail', 'warn', 'error', 'inconclusive'];

/**
 * The headline's word on inconclusive checks: which, what each sees against what it must detect, and the
 * shared instances that would settle it (as `evalgate plan` sizes them); undefined when none. Names
 * through `escape` for the output format.
 */
export function inconclusiveText(report: GateReport, escape: (text: string) => string): string | undefined {
  // Those that could not compare at all are counted with the checks that did not run (notRunText).
  const unsure = report.checks.filter((check) => check.status === 'inconclusive' && !didNotRun(check));
  if (unsure.length === 0) return undefined;
  const each = unsure.map((check) => {
    const power = check.power;
    const sees = power?.mde === null || power?.mde === undefined ? 'no spread to see with' : `sees ${formatNumber(power.mde)}`;
    const must =
      power?.detect === null || power?.detect === undefined
        ? ''
        : `, must detect ${formatNumber(power.detect)}${power.detectFrom === 'default' ? ' (default)' : ''}`;
    const settle = power?.instancesNeeded ? `: about ${power.instancesNeeded} shared instances would settle it` : '';
    return `${escape(check.metric)} (${escape(shownScope(check))}) ${sees}${must}${settle}`;
  });
  return `${count(unsure.length, 'check')} inconclusive (cannot see what ${unsure.length === 1 ? 'it' : 'they'} must detect at 80% power; evalgate plan sizes the suite): ${each.join('; ')}`;
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
