import { markdownTable } from 'markdown-table';
import type { MetricSet, MetricsReport } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';
import { formatInterval, formatNumber } from './format.js';

/** Text that came from data (scenario and group names) made inert in markdown. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~&]/g, (character) => `\\${character}`).replace(/\r?\n/g, ' ');
}

function scopeTable(metrics: MetricSet, minGroupSize: number): string {
  const rows = Object.entries(metrics).map(([name, metric]) => {
    const definition = lookupMetric(name);
    const smallGroup = definition?.name === 'group_accuracy' && metric.n < minGroupSize;
    return [
      `\`${name.replace(/`/g, "'")}\``,
      formatNumber(metric.value),
      formatInterval(metric.ci),
      String(metric.n),
      definition?.dimension ?? '',
      smallGroup ? `below ${minGroupSize}: not in worst/gap` : '',
    ];
  });
  return markdownTable([['metric', 'value', '95% CI', 'n', 'dimension', 'note'], ...rows], { align: ['l', 'r', 'r', 'r', 'l', 'l'] });
}

/** The metrics as markdown, for the job summary: overall, then each scenario. */
export function metricsMarkdown(report: MetricsReport, minGroupSize: number): string {
  const parts = ['## evalgate metrics', '', '### overall', '', scopeTable(report.overall, minGroupSize)];
  for (const [scenario, metrics] of Object.entries(report.scenarios)) {
    parts.push('', `### scenario ${escapeMarkdown(scenario)}`, '', scopeTable(metrics, minGroupSize));
  }
  return `${parts.join('\n')}\n`;
}
