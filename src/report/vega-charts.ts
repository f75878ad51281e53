import type { TopLevelSpec } from 'vega-lite';
import { budgetShares, firstCategories, gatedGroups, groupAccuracies } from './charts.js';
import type { GateReport } from './json.js';
import { plainLabel } from './escape.js';
import { scopeLabel, shownScope } from '../metrics/names.js';

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

function reliabilitySpecs(report: GateReport): Spec[] {
  return (report.calibration ?? []).map(({ candidate, baseline, ...scope }) => {
    const values = [
      ...candidate.map((bin) => ({ run: 'candidate', ...bin })),
      ...(baseline ?? []).map((bin) => ({ run: 'baseline', ...bin })),
    ];
    const x = { field: 'confidence', type: 'quantitative' as const, scale: { domain: [0, 1] }, title: 'mean confidence' };
    const spec: TopLevelSpec = {
      ...base,
      width: 320,
      height: 320,
      layer: [
        {
          data: { values: [{ at: 0 }, { at: 1 }] },
          mark: { type: 'line', color: '#999', strokeDash: [4, 3] },
          encoding: { x: { field: 'at', type: 'quantitative', title: null }, y: { field: 'at', type: 'quantitative', title: null } },
        },
        {
          data: { values },
          mark: { type: 'line', point: true },
          encoding: {
            x,
            y: { field: 'accuracy', type: 'quantitative', scale: { domain: [0, 1] }, title: 'accuracy' },
            color: RUN_COLOUR,
          },
        },
      ],
    };
    return [
      `Reliability diagram (${plainLabel(shownScope(scope))}): accuracy per confidence bin; the diagonal is perfect calibration`,
      spec,
    ];
  });
}

function groupSpecs(report: GateReport): Spec[] {
  return gatedGroups(report).flatMap(({ attribute, scope }): Spec[] => {
    const { shown: groups, note } = firstCategories(groupAccuracies(report, attribute, scope));
    if (groups.length === 0) return [];
    const values = groups.flatMap(([group, candidate, baseline]) => [
      { group: plainLabel(group), run: 'candidate', accuracy: candidate },
      ...(baseline === undefined ? [] : [{ group: plainLabel(group), run: 'baseline', accuracy: baseline }]),
    ]);
    const spec: TopLevelSpec = {
      ...base,
      data: { values },
      mark: 'bar',
      encoding: {
        x: { field: 'group', type: 'nominal', title: null, sort: null },
        xOffset: { field: 'run', type: 'nominal', sort: ['candidate', 'baseline'] },
        y: { field: 'accuracy', type: 'quantitative', scale: { domain: [0, 1] } },
        color: RUN_COLOUR,
      },
    };
    return [[`Accuracy per ${plainLabel(attribute)} (${plainLabel(scopeLabel(scope))})${note}`, spec]];
  });
}

function latencySpecs(report: GateReport): Spec[] {
  const latency = report.latency;
  if (!latency) return [];
  const runs: Array<[string, number[] | null]> = [
    ['candidate', latency.candidate],
    ['baseline', latency.baseline],
  ];
  const values = runs.flatMap(([run, counts]) =>
    (counts ?? []).map((count, bin) => ({ run, low: latency.edges[bin], high: latency.edges[bin + 1], count })),
  );
  const spec: TopLevelSpec = {
    ...base,
    width: 480,
    data: { values },
    mark: { type: 'bar', opacity: 0.6 },
    encoding: {
      x: { field: 'low', type: 'quantitative', title: 'latency (ms)' },
      x2: { field: 'high' },
      y: { field: 'count', type: 'quantitative', stack: null, scale: { zero: true }, title: 'records' },
      y2: { datum: 0 },
      color: RUN_COLOUR,
    },
  };
  return [['Latency distribution', spec]];
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
