import type { MetricSet } from '../metrics/compute.js';
import { lookupMetric } from '../metrics/registry.js';

/** Number formatting and the metric table rows shared by the text and markdown reports. */

/** "1 check", "2 checks": a count and its noun, plural unless the count is 1. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** 1 decimal from 100 up, 4 decimals down to 0.001, 3 significant digits below; no trailing zeros. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  const text = magnitude >= 100 ? value.toFixed(1) : magnitude >= 0.001 ? value.toFixed(4) : value.toPrecision(3);
  return text.includes('.') && !text.includes('e') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

export function formatInterval(ci: [number, number] | null): string {
  return ci ? `[${formatNumber(ci[0])}, ${formatNumber(ci[1])}]` : '-';
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
