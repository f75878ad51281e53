import type { TopLevelSpec } from 'vega-lite';
import type { MetricSet, MetricValue } from '../metrics/report.js';
import { scopeLabel, shownScope, type ScopeRef } from '../metrics/names.js';
import { own } from '../records/dictionary.js';
import type { CalibrationBin } from './chart-data.js';
import { budgetShares, firstCategories, gatedGroups, groupMetrics } from './charts.js';
import { plainLabel } from './escape.js';
import { formatNumber } from './format.js';
import type { GateReport } from './json.js';

/*
 * The HTML report's charts: vega-lite specs compiled and rendered to SVG in Node by vega (no DOM, no
 * canvas, no script in the page). Data goes in as data values under fixed field names (a field name is
 * read as a path); vega escapes the text it writes into the SVG, and labels are made visible and cut first.
 */

export interface Chart {
  title: string;
  svg: string;
}

/** A chart to draw: its title and its spec. */
type Spec = [title: string, spec: TopLevelSpec];

const FONT = 'system-ui, sans-serif';

/** vega and vega-lite are loaded when a chart is drawn: every other command starts without them. */
async function render(spec: TopLevelSpec): Promise<string> {
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const base = { config: { font: FONT, view: { stroke: null }, axis: { labelLimit: 320 } }, background: 'white' } as const;
/** The same colour for each run in every chart. */
const RUN_COLOUR = {
  field: 'run',
  type: 'nominal',
  scale: { domain: ['candidate', 'baseline'], range: ['#e8590c', '#1c7ed6'] },
  title: null,
} as const;

/**
 * One forest plot of every budgeted check on one shared scale: each change as a share of its budget (1 =
 * the budget, below 0 = better) with its 95% interval, sorted by how close it came to its budget.
 */
function forestSpecs(report: GateReport): Spec[] {
  const rows = budgetShares(report)
    .map(({ check, share }) => {
      const sign = check.direction === 'higher' ? -1 : 1; // worsening = change signed by direction
      const ci = check.comparison!.ci?.map((end) => (sign * end) / check.budget!.value).sort((a, b) => a - b);
      return { label: plainLabel(`${check.metric} (${shownScope(check)})`), share, low: ci?.[0] ?? share, high: ci?.[1] ?? share };
    })
    .sort((a, b) => b.share - a.share);
  if (rows.length === 0) return [];
  const { shown: values, note } = firstCategories(rows);
  const y = { field: 'label', type: 'nominal', title: null, sort: null } as const;
  const x = { type: 'quantitative', title: 'worsening / budget (1 = the budget, below 0 = better)' } as const;
  const spec: TopLevelSpec = {
    ...base,
    width: 560,
    layer: [
      { data: { values }, mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, x: { ...x, field: 'low' }, x2: { field: 'high' } } },
      { data: { values }, mark: { type: 'point', filled: true, size: 60 }, encoding: { y, x: { ...x, field: 'share' } } },
      {
        data: { values: [{ at: 1 }] },
        mark: { type: 'rule', color: '#c62828', strokeDash: [4, 3] },
        encoding: { x: { field: 'at', type: 'quantitative' } },
      },
      { data: { values: [{ at: 0 }] }, mark: { type: 'rule', color: '#999' }, encoding: { x: { field: 'at', type: 'quantitative' } } },
    ],
  };
  return [
    [`Budgeted checks${note}, closest to their budget first: each change with its 95% interval, as a share of its budget (red line)`, spec],
  ];
}

/** Bins of fewer examples than this say little: their points are drawn faint and the line does not join them. */
export const FEW_EXAMPLES = 10;

type Run = 'candidate' | 'baseline';

/** A point of a reliability diagram: a confidence bin of one run, its examples counted. */
export interface ReliabilityPoint {
  run: Run;
  confidence: number;
  accuracy: number;
  count: number;
  /** The count as the chart writes it beside the point. */
  label: string;
  few: boolean;
}

/** The points of a reliability diagram: each run's bins, marked `few` under FEW_EXAMPLES examples. */
export function reliabilityPoints(candidate: CalibrationBin[], baseline: CalibrationBin[] | null): ReliabilityPoint[] {
  const points = (run: Run, bins: CalibrationBin[]) =>
    bins.map(({ confidence, accuracy, count }) => ({
      run,
      confidence,
      accuracy,
      count,
      label: formatNumber(count),
      few: count < FEW_EXAMPLES,
    }));
  return [...points('candidate', candidate), ...points('baseline', baseline ?? [])];
}

const FAINT = { condition: { test: 'datum.few', value: 0.3 }, value: 1 } as const;

function reliabilitySpecs(report: GateReport): Spec[] {
  return (report.calibration ?? []).map(({ candidate, baseline, ...scope }) => {
    const values = reliabilityPoints(candidate, baseline);
    const x = { field: 'confidence', type: 'quantitative' as const, scale: { domain: [0, 1] }, title: 'confidence (the mean in each bin)' };
    const y = { field: 'accuracy', type: 'quantitative' as const, scale: { domain: [0, 1] }, title: 'accuracy' };
    // Each run's counts on its own side of its points, so that the two runs' numbers do not overlap.
    const counts = (run: Run, dy: number) => ({
      data: { values: values.filter((point) => point.run === run) },
      mark: { type: 'text' as const, dy, fontSize: 10 },
      encoding: { x, y, text: { field: 'label' }, color: RUN_COLOUR, opacity: FAINT },
    });
    const spec: TopLevelSpec = {
      ...base,
      width: 360,
      height: 360,
      layer: [
        {
          data: { values: [0, 1].map((at) => ({ confidence: at, accuracy: at })) },
          mark: { type: 'line', color: '#999', strokeDash: [4, 3] },
          encoding: { x, y },
        },
        { data: { values: values.filter((point) => !point.few) }, mark: 'line', encoding: { x, y, color: RUN_COLOUR } },
        {
          data: { values },
          mark: { type: 'point', filled: true, size: 50 },
          encoding: { x, y, color: RUN_COLOUR, opacity: FAINT },
        },
        counts('candidate', -10),
        counts('baseline', 14),
      ],
    };
    return [
      `Reliability diagram (${plainLabel(shownScope(scope))}): accuracy per confidence bin; the diagonal is perfect calibration. ` +
        `Beside each point the examples in its bin; bins of fewer than ${FEW_EXAMPLES} examples are drawn faint and not joined by the line`,
      spec,
    ];
  });
}

/** A group's bar: its accuracy in one run, and the ends of its 95% interval (null without one). */
export interface GroupBar {
  group: string;
  run: Run;
  accuracy: number;
  low: number | null;
  high: number | null;
}

/** The bars of one gated attribute and scope: each group's accuracy per run, with the metric's interval. */
export function groupBars(report: GateReport, attribute: string, scope: ScopeRef): { bars: GroupBar[]; note: string } {
  const { shown, note } = firstCategories(groupMetrics(report, attribute, scope));
  const bar = (group: string, run: Run, { value, ci }: MetricValue): GroupBar => ({
    group: plainLabel(group),
    run,
    accuracy: value,
    low: ci?.[0] ?? null,
    high: ci?.[1] ?? null,
  });
  const bars = shown.flatMap(({ group, candidate, baseline }) => [
    bar(group, 'candidate', candidate),
    ...(baseline ? [bar(group, 'baseline', baseline)] : []),
  ]);
  return { bars, note };
}

/** Horizontal bars (the groups' names read across), the baseline's under the candidate's, each with its interval. */
function groupSpecs(report: GateReport): Spec[] {
  return gatedGroups(report).flatMap(({ attribute, scope }): Spec[] => {
    const { bars, note } = groupBars(report, attribute, scope);
    if (bars.length === 0) return [];
    const y = { field: 'group', type: 'nominal', title: null, sort: null } as const;
    const yOffset = { field: 'run', type: 'nominal', sort: ['candidate', 'baseline'] } as const;
    const x = { type: 'quantitative' as const, scale: { domain: [0, 1] }, title: 'accuracy (bar) and its 95% interval (line)' };
    const spec: TopLevelSpec = {
      ...base,
      width: 480,
      height: { step: 40 },
      data: { values: bars },
      layer: [
        { mark: 'bar', encoding: { y, yOffset, x: { ...x, field: 'accuracy' }, color: RUN_COLOUR } },
        {
          transform: [{ filter: 'isValid(datum.low)' }],
          mark: { type: 'rule', color: '#1f2328', strokeWidth: 1.5 },
          encoding: { y, yOffset, x: { ...x, field: 'low' }, x2: { field: 'high' } },
        },
      ],
    };
    const pointOnly = bars.some((bar) => bar.low === null) ? '; a bar without a line has no interval in the report (a point estimate)' : '';
    return [[`Accuracy per ${plainLabel(attribute)} (${plainLabel(scopeLabel(scope))})${note}, with 95% intervals${pointOnly}`, spec]];
  });
}

/** A point of a latency outline: `count` records from `ms` to the next point's `ms` (a step). */
export interface LatencyStep {
  run: Run;
  step: number;
  ms: number;
  count: number;
}

/** Each run's histogram as the outline of its bars: from 0 up at the first edge, along each bin, down to 0 at the last. */
export function latencyOutline(latency: NonNullable<GateReport['latency']>): LatencyStep[] {
  const runs: Array<[Run, number[] | null]> = [
    ['candidate', latency.candidate],
    ['baseline', latency.baseline],
  ];
  return runs.flatMap(([run, counts]) => {
    if (!counts) return [];
    const heights = [0, ...counts, counts.at(-1) ?? 0, 0];
    const edges = [latency.edges[0], ...latency.edges.slice(0, counts.length), latency.edges[counts.length], latency.edges[counts.length]];
    return heights.map((count, step) => ({ run, step, ms: edges[step], count }));
  });
}

/** Each run's latency_p50_ms and latency_p95_ms, where its metrics have them. */
export function latencyQuantiles(report: GateReport): Array<{ run: Run; quantile: 'p50' | 'p95'; ms: number }> {
  const runs: Array<[Run, MetricSet | undefined]> = [
    ['candidate', report.overall],
    ['baseline', report.baselineMetrics?.overall],
  ];
  return runs.flatMap(([run, metrics]) =>
    (['p50', 'p95'] as const).flatMap((quantile) => {
      const ms = own(metrics, `latency_${quantile}_ms`)?.value;
      return ms === undefined ? [] : [{ run, quantile, ms }];
    }),
  );
}

function latencySpecs(report: GateReport): Spec[] {
  if (!report.latency) return [];
  const quantiles = latencyQuantiles(report);
  const x = { field: 'ms', type: 'quantitative', title: 'latency (ms)' } as const;
  const spec: TopLevelSpec = {
    ...base,
    width: 560,
    layer: [
      {
        data: { values: latencyOutline(report.latency) },
        mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
        encoding: { x, y: { field: 'count', type: 'quantitative', title: 'records per bin' }, color: RUN_COLOUR, order: { field: 'step' } },
      },
      {
        data: { values: quantiles },
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: {
          x,
          color: RUN_COLOUR,
          strokeDash: {
            field: 'quantile',
            type: 'nominal',
            scale: {
              domain: ['p50', 'p95'],
              range: [
                [1, 0],
                [6, 3],
              ],
            },
            title: null,
          },
        },
      },
    ],
  };
  const marked = quantiles.map(({ run, quantile, ms }) => `${run} ${quantile} ${formatNumber(ms)} ms`).join(', ');
  return [
    [
      `Latency distribution: each run's records per latency bin as an outline${marked ? `; vertical lines at p50 (solid) and p95 (dashed): ${marked}` : ''}`,
      spec,
    ],
  ];
}

/** Every chart of the HTML report, rendered. */
export async function htmlCharts(
  report: GateReport,
): Promise<{ forest: Chart[]; reliability: Chart[]; groups: Chart[]; latency: Chart[] }> {
  const draw = (specs: Spec[]) => Promise.all(specs.map(async ([title, spec]) => ({ title, svg: await render(spec) })));
  const [forest, reliability, groups, latency] = await Promise.all([
    draw(forestSpecs(report)),
    draw(reliabilitySpecs(report)),
    draw(groupSpecs(report)),
    draw(latencySpecs(report)),
  ]);
  return { forest, reliability, groups, latency };
}
