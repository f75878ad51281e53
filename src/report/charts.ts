import type { MetricSet } from '../metrics/compute.js';
import { GROUP_FAMILY, parseMetricName, reportedScope, scopeSuffix, type ScopeRef } from '../metrics/names.js';
import { formatNumber } from './format.js';
import type { GateReport } from './json.js';
import { mermaidLabel } from './escape.js';
import { own } from '../records/dictionary.js';

/*
 * The charts of the comment and job summary, as mermaid xychart blocks (GitHub draws mermaid, no SVG):
 * a reliability diagram per gated calibration scope, accuracy per group for each gated attribute, and
 * each budgeted regression's worsening as a share of its budget. Every label from data goes through
 * mermaidLabel. xychart has no legend: each title says which series is which.
 */

/** More categories than this make a chart unreadable (and the comment long): the first ones are drawn. */
const MAX_CATEGORIES = 20;

/** The first MAX_CATEGORIES items, and a note for the title when there were more. */
export function firstCategories<T>(items: T[]): { shown: T[]; note: string } {
  const note = items.length > MAX_CATEGORIES ? ` (the first ${MAX_CATEGORIES} of ${items.length})` : '';
  return { shown: items.slice(0, MAX_CATEGORIES), note };
}

type CheckRow = GateReport['checks'][number];

/** Beyond this a value is off any chart; clamped, it stays a plain decimal (String(1e21) has an exponent). */
const CHART_LIMIT = 1e6;

/** A plain decimal (mermaid reads no exponent), 4 places, within ±CHART_LIMIT. */
const chartNumber = (value: number) => String(Math.round(Math.min(Math.max(value, -CHART_LIMIT), CHART_LIMIT) * 1e4) / 1e4);

function xychart(
  title: string,
  categories: string[],
  series: Array<['bar' | 'line', number[]]>,
  range: [number, number],
  axis = 'accuracy',
): string {
  return [
    '```mermaid',
    'xychart-beta',
    `  title ${mermaidLabel(title)}`,
    `  x-axis [${categories.map(mermaidLabel).join(', ')}]`,
    `  y-axis ${mermaidLabel(axis)} ${chartNumber(range[0])} --> ${chartNumber(range[1])}`,
    ...series.map(([kind, values]) => `  ${kind} [${values.map(chartNumber).join(', ')}]`),
    '```',
  ].join('\n');
}

/** Per gated calibration scope: bars the candidate's accuracy per confidence bin, lines its mean confidence (the ideal) and the baseline's accuracy. */
function reliabilityCharts(report: GateReport): string[] {
  return (report.calibration ?? []).map(({ candidate, baseline, ...scope }) => {
    const bins = candidate.slice(0, MAX_CATEGORIES);
    const baselineOf = (low: number) => baseline?.find((bin) => bin.low === low);
    const withBaseline = baseline !== null && bins.every((bin) => baselineOf(bin.low));
    const series: Array<['bar' | 'line', number[]]> = [
      ['bar', bins.map((bin) => bin.accuracy)],
      ['line', bins.map((bin) => bin.confidence)],
      ...(withBaseline ? [['line', bins.map((bin) => baselineOf(bin.low)!.accuracy)] as ['line', number[]]] : []),
    ];
    const title = `Reliability${scopeSuffix(reportedScope(scope))}: candidate accuracy (bars) vs mean confidence (line)${withBaseline ? ', baseline accuracy (2nd line)' : ''}`;
    const categories = bins.map((bin) => `${formatNumber(bin.low)}-${formatNumber(bin.low + 0.1)}`);
    return xychart(title, categories, series, [0, 1]);
  });
}

function scopeMetrics(report: GateReport, scope: ScopeRef, baseline: boolean): MetricSet | undefined {
  const source = baseline ? (report.baselineMetrics ?? undefined) : { overall: report.overall, scenarios: report.scenarios };
  if (!source) return undefined;
  return scope.kind === 'pooled' ? source.overall : own(source.scenarios, scope.scenario);
}

/** The gated (attribute, scope) pairs, each once, in the order of the checks. */
export function gatedGroups(report: GateReport): Array<{ attribute: string; scope: ScopeRef }> {
  const seen = new Set<string>();
  return report.checks.flatMap((check: CheckRow) => {
    const attribute = parseMetricName(check.metric)?.group?.attribute;
    const scope = reportedScope(check);
    const key = JSON.stringify([attribute, scope]);
    if (attribute === undefined || seen.has(key)) return [];
    seen.add(key);
    return [{ attribute, scope }];
  });
}

/** A group's accuracy in each run: [value of the group, candidate, baseline or undefined]. */
export function groupAccuracies(report: GateReport, attribute: string, scope: ScopeRef): Array<[string, number, number | undefined]> {
  const candidate = scopeMetrics(report, scope, false) ?? {};
  const baseline = scopeMetrics(report, scope, true);
  return Object.entries(candidate).flatMap(([metric, { value }]): Array<[string, number, number | undefined]> => {
    const { family, group } = parseMetricName(metric) ?? {};
    if (family !== GROUP_FAMILY || group?.attribute !== attribute || group.value === undefined) return [];
    return [[group.value, value, own(baseline, metric)?.value]];
  });
}

/** Per gated attribute and scope: bars the candidate's accuracy per group, a line the baseline's. */
function groupCharts(report: GateReport): string[] {
  return gatedGroups(report).flatMap(({ attribute, scope }) => {
    const { shown: groups, note } = firstCategories(groupAccuracies(report, attribute, scope));
    if (groups.length === 0) return [];
    const withBaseline = groups.every(([, , baseline]) => baseline !== undefined);
    const title = `Accuracy per ${attribute}${scopeSuffix(scope)}${note}: candidate (bars)${withBaseline ? ' vs baseline (line)' : ''}`;
    return [
      xychart(
        title,
        groups.map(([value]) => value),
        [
          ['bar', groups.map(([, value]) => value)],
          ...(withBaseline ? [['line', groups.map(([, , value]) => value!)] as ['line', number[]]] : []),
        ],
        [0, 1],
      ),
    ];
  });
}

/** The budgeted checks with a comparison: each worsening as a share of its budget (1 = the budget). */
export function budgetShares(report: GateReport): Array<{ check: CheckRow; share: number }> {
  return report.checks.flatMap((check) =>
    check.comparison && check.budget && check.budget.value > 0 ? [{ check, share: check.comparison.worsening / check.budget.value }] : [],
  );
}

/** Bars: each budgeted check's worsening over its budget; a line at 1, the budget. */
function budgetChart(report: GateReport): string | undefined {
  const { shown: shares, note } = firstCategories(budgetShares(report));
  if (shares.length === 0) return undefined;
  const values = shares.map(({ share }) => share);
  const range: [number, number] = [Math.min(0, ...values), Math.max(1.25, ...values)];
  return xychart(
    `Worsening as a share of the budget${note} (bars; the line at 1 is the budget, below 0 is better)`,
    shares.map(({ check }) => `${check.metric}${scopeSuffix(reportedScope(check))}`),
    [
      ['bar', values],
      ['line', values.map(() => 1)],
    ],
    range,
    'share of budget',
  );
}

/** Every chart of the comment, in the order shown. */
export function commentCharts(report: GateReport): string[] {
  const budget = budgetChart(report);
  return [...(budget ? [budget] : []), ...reliabilityCharts(report), ...groupCharts(report)];
}
