import { markdownTable } from 'markdown-table';
import type { MetricSet, MetricsReport } from '../metrics/compute.js';
import { METRIC_TABLE_ALIGN, METRIC_TABLE_HEADER, metricRows, withoutIntervalsNote } from './format.js';
import { escapeTerminal } from './escape.js';

/** The readable form of `evalgate metrics`: one table per scope, overall first. */
export function metricsText(report: MetricsReport, minGroupSize: number): string {
  const note = withoutIntervalsNote(report);
  const sections = [...(note ? [`note: ${note}`] : []), scopeText('overall', report.overall, minGroupSize)];
  for (const [scenario, metrics] of Object.entries(report.scenarios)) {
    sections.push(scopeText(`scenario ${escapeTerminal(scenario)}`, metrics, minGroupSize));
  }
  return sections.join('\n\n') + '\n';
}

function scopeText(title: string, metrics: MetricSet, minGroupSize: number): string {
  const rows = metricRows(metrics, minGroupSize, escapeTerminal);
  return `${title}\n${markdownTable([METRIC_TABLE_HEADER, ...rows], { align: METRIC_TABLE_ALIGN })}`;
}
