import { markdownTable } from 'markdown-table';
import type { MetricsReport } from '../metrics/compute.js';
import { METRIC_TABLE_ALIGN, METRIC_TABLE_HEADER, metricRows } from './format.js';

/** Text that came from data (scenario and group names) made inert in markdown. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#!|~&]/g, (character) => `\\${character}`).replace(/\r?\n/g, ' ');
}

/** The metrics as markdown, for the job summary: overall, then each scenario. */
export function metricsMarkdown(report: MetricsReport, minGroupSize: number): string {
  const table = (metrics: MetricsReport['overall']) =>
    markdownTable([METRIC_TABLE_HEADER, ...metricRows(metrics, minGroupSize, escapeMarkdown)], { align: METRIC_TABLE_ALIGN });
  const parts = ['## evalgate metrics', '', '### overall', '', table(report.overall)];
  for (const [scenario, metrics] of Object.entries(report.scenarios)) {
    parts.push('', `### scenario ${escapeMarkdown(scenario)}`, '', table(metrics));
  }
  return `${parts.join('\n')}\n`;
}
