import { markdownTable } from 'markdown-table';
import type { MetricSet, MetricsReport } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';
import { formatInterval, formatNumber } from './format.js';

/** The readable form of `evalgate metrics`: one table per scope, overall first. */
export function metricsText(report: MetricsReport, minGroupSize: number): string {
  const sections = [scopeText('overall', report.overall, minGroupSize)];
  for (const [scenario, metrics] of Object.entries(report.scenarios)) {
    sections.push(scopeText(`scenario ${scenario}`, metrics, minGroupSize));
  }
  return sections.join('\n\n') + '\n';
}

function scopeText(title: string, metrics: MetricSet, minGroupSize: number): string {
  const rows = Object.entries(metrics).map(([name, metric]) => {
    const definition = lookupMetric(name);
    const smallGroup = definition?.name === 'group_accuracy' && metric.n < minGroupSize;
    return [
      name,
      formatNumber(metric.value),
      formatInterval(metric.ci),
      String(metric.n),
      definition ? `${definition.dimension} (${definition.direction} is better)` : '',
      smallGroup ? `below min_group_size ${minGroupSize}: not in worst/gap` : '',
    ];
  });
  const table = markdownTable([['metric', 'value', '95% CI', 'n', 'dimension', 'note'], ...rows], {
    align: ['l', 'r', 'r', 'r', 'l', 'l'],
  });
  return `${title}\n${table}`;
}
