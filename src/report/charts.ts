import type { MetricSet, MetricValue } from '../metrics/compute.js';
import { GROUP_FAMILY, parseMetricName, reportedScope, scopeSuffix, type ScopeRef } from '../metrics/names.js';
import { formatNumber } from './format.js';
import type { GateReport } from './json.js';
import { mermaidLabel } from './escape.js';
import { own } from '../records/dictionary.js';

/*
 * The charts of the comment and job summary, as mermaid xychart blocks (GitHub draws mermaid, no SVG),
 * only where a chart answers a reviewer's question: a reliability diagram per gated calibration scope
 * (is the candidate as sure as it is right?), and each gated attribute's accuracy per group (which group
 * is behind, and did it move?). Drawn honestly: xychart draws bars up from the axis minimum, so every
 * value axis starts at 0 and holds only values from 0 up; lines join only ordered categories (confidence
 * bins), never unrelated ones; xychart has no legend, so each chart has a short title and a caption.
 * Every label from data goes through mermaidLabel.
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

/** A chart and the caption under it (markdown text, escaped by its maker). */
export interface CommentChart {
  chart: string;
  caption: string;
}

/** A percentage axis from 0 to 100: bars from zero. */
function xychart(title: string, categories: string[], series: Array<['bar' | 'line', number[]]>, axis: string): string {
  return [
    '```mermaid',
    'xychart-beta',
    `  title ${mermaidLabel(title)}`,
    `  x-axis [${categories.map(mermaidLabel).join(', ')}]`,
    `  y-axis ${mermaidLabel(axis)} 0 --> 100`,
    ...series.map(([kind, values]) => `  ${kind} [${values.map((value) => chartNumber(value * 100)).join(', ')}]`),
    '```',
  ].join('\n');
}

/** Per gated calibration scope: bars the candidate's accuracy per confidence bin, lines its mean confidence (the ideal) and the baseline's accuracy. */
function reliabilityCharts(report: GateReport): CommentChart[] {
  return (report.calibration ?? []).map(({ candidate, baseline, ...scope }) => {
    const bins = candidate.slice(0, MAX_CATEGORIES);
    const baselineOf = (low: number) => baseline?.find((bin) => bin.low === low);
    const withBaseline = baseline !== null && bins.every((bin) => baselineOf(bin.low));
    const series: Array<['bar' | 'line', number[]]> = [
      ['bar', bins.map((bin) => bin.accuracy)],
      ['line', bins.map((bin) => bin.confidence)],
      ...(withBaseline ? [['line', bins.map((bin) => baselineOf(bin.low)!.accuracy)] as ['line', number[]]] : []),
    ];
    const categories = bins.map((bin) => `${percent(bin.low)}-${percent(bin.low + 0.1)} (n ${formatNumber(bin.count)})`);
    const caption =
      `Bars: the candidate's accuracy among the examples it gave each confidence (n examples in the bin; a bin of few examples says little). ` +
      `First line: its mean confidence there, where a calibrated model's bars would reach.${withBaseline ? " Second line: the baseline's accuracy in the same bins." : ''}`;
    return { chart: xychart(`Reliability${scopeSuffix(reportedScope(scope))}`, categories, series, 'accuracy (%)'), caption };
  });
}

/** "40" for 0.4: a bin edge in percent. */
const percent = (value: number) => String(Math.round(value * 100));
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

/** A group's accuracy in each run, with its interval: the candidate's, and the baseline's when it has the group. */
export interface GroupAccuracy {
  group: string;
  candidate: MetricValue;
  baseline: MetricValue | undefined;
}

/** Each group's accuracy in both runs, in the candidate's order. */
export function groupMetrics(report: GateReport, attribute: string, scope: ScopeRef): GroupAccuracy[] {
  const candidate = scopeMetrics(report, scope, false) ?? {};
  const baseline = scopeMetrics(report, scope, true);
  return Object.entries(candidate).flatMap(([metric, value]): GroupAccuracy[] => {
    const { family, group } = parseMetricName(metric) ?? {};
    if (family !== GROUP_FAMILY || group?.attribute !== attribute || group.value === undefined) return [];
    return [{ group: group.value, candidate: value, baseline: own(baseline, metric) }];
  });
}

/** A group's accuracy in each run: [value of the group, candidate, baseline or undefined]. */
export function groupAccuracies(report: GateReport, attribute: string, scope: ScopeRef): Array<[string, number, number | undefined]> {
  return groupMetrics(report, attribute, scope).map(({ group, candidate, baseline }) => [group, candidate.value, baseline?.value]);
}

/** Per gated attribute and scope: a bar per group and run, the baseline's beside the candidate's. */
function groupCharts(report: GateReport): CommentChart[] {
  return gatedGroups(report).flatMap(({ attribute, scope }) => {
    const accuracies = groupAccuracies(report, attribute, scope);
    const withBaseline = accuracies.length > 0 && accuracies.every(([, , baseline]) => baseline !== undefined);
    // Two bars a group with a baseline: half as many groups fit.
    const { shown: groups, note } = firstCategories(withBaseline ? accuracies.slice(0, Math.ceil(MAX_CATEGORIES / 2)) : accuracies);
    if (groups.length === 0) return [];
    const more = groups.length < accuracies.length ? ` (the first ${groups.length} of ${accuracies.length})` : note;
    const categories = groups.flatMap(([value]) => (withBaseline ? [`${value}: baseline`, `${value}: candidate`] : [value]));
    const values = groups.flatMap(([, candidate, baseline]) => (withBaseline ? [baseline!, candidate] : [candidate]));
    const caption = withBaseline
      ? `Each group's accuracy${more}: the baseline's bar, then the candidate's.`
      : `Each group's accuracy in the candidate${more}.`;
    return [{ chart: xychart(`Accuracy per ${attribute}${scopeSuffix(scope)}`, categories, [['bar', values]], 'accuracy (%)'), caption }];
  });
}

/** The budgeted checks with a comparison: each worsening as a share of its budget (1 = the budget). */
export function budgetShares(report: GateReport): Array<{ check: CheckRow; share: number }> {
  return report.checks.flatMap((check) =>
    check.comparison && check.budget && check.budget.value > 0 ? [{ check, share: check.comparison.worsening / check.budget.value }] : [],
  );
}

/** Every chart of the comment, in the order shown. */
export function commentCharts(report: GateReport): CommentChart[] {
  return [...reliabilityCharts(report), ...groupCharts(report)];
}
