import { writeFile } from 'node:fs/promises';
import { countOutcomes } from '../gate/verdict.js';
import { MAX_INTERVAL_SCENARIOS } from '../limits.js';
import { shownScope } from '../metrics/names.js';
import { instanceChangesHtml } from './changes.js';
import { escapeHtml } from './escape.js';
import { evidenceText } from './evidence.js';
import { suitesNote, worthShowing } from './comparability.js';
import {
  byStatus,
  candidateCell,
  changeCell,
  CHECK_TABLE_HEADER,
  CORRECTED_NOTE,
  DETAIL_HEADER,
  detailCells,
  errorControlWords,
  findingWords,
  limitCell,
  NOTED_STATUSES,
} from './findings.js';
import { METRIC_TABLE_HEADER, metricRows, noBaselineText, notRunText, outcomeNote, withoutIntervalsNote } from './format.js';
import type { GateReport, RunSummary } from './json.js';
import { htmlCharts, type Chart } from './vega-charts.js';
import { STATUS_WORDS } from './words.js';

/*
 * The HTML report (`evalgate gate --html`, the action's `html-report` output): one self-contained page,
 * inline CSS and inline SVG only. Its Content-Security-Policy allows no script and no request at all,
 * and everything from data is escaped by escapeHtml, so the page reads the same with JavaScript off.
 */

/** Scenarios whose metrics the page lists at most (as many as may have intervals); it says when it lists fewer. */
const MAX_HTML_SCENARIOS = MAX_INTERVAL_SCENARIOS;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2328; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
.verdict { padding: .8rem 1rem; border-radius: 6px; font-weight: 600; border-left: 6px solid; }
.verdict.pass { background: #dafbe1; border-color: #1a7f37; } .verdict.warn { background: #fff8c5; border-color: #9a6700; } .verdict.fail { background: #ffebe9; border-color: #cf222e; }
table { border-collapse: collapse; margin: .5rem 0 1rem; max-width: 100%; } td, th { border: 1px solid #d0d7de; padding: .2rem .5rem; text-align: left; vertical-align: top; }
tr.status-fail td, tr.status-error td { background: #ffebe9; } tr.status-warn td, tr.status-inconclusive td { background: #fff8c5; }
tr.status-pass td:first-child { background: #dafbe1; } tr.status-skipped td, tr.status-off td { color: #59636e; }
figure { display: inline-block; margin: .5rem 1rem 1rem 0; vertical-align: top; max-width: 100%; overflow-x: auto; } figcaption { font-weight: 600; margin-bottom: .3rem; max-width: 36rem; }
svg { max-width: 100%; height: auto; }
td.decision.pass { background: #dafbe1; } td.decision.warn { background: #fff8c5; } td.decision.fail { background: #ffebe9; }
section { margin-top: 3rem; border-top: 4px solid #d0d7de; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; } .note { color: #59636e; font-style: italic; }
`;

type CheckRow = GateReport['checks'][number];

function table(header: string[], rows: string[][], rowClass: (index: number) => string = () => ''): string {
  const head = `<tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr>`;
  const body = rows.map((row, index) => `<tr${rowClass(index)}>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n${head}\n${body}\n</table>`;
}

function figures(charts: Chart[]): string {
  return charts.map(({ title, svg }) => `<figure><figcaption>${escapeHtml(title)}</figcaption>\n${svg}\n</figure>`).join('\n');
}

function verdictSection(report: GateReport, idPrefix: string): string {
  const { blocking, warnings, inconclusive } = countOutcomes(report.checks, report.coverage?.status);
  const counts = `${blocking} blocking check${blocking === 1 ? '' : 's'} failed, ${warnings} warning${warnings === 1 ? '' : 's'}, ${inconclusive} inconclusive`;
  const notRun = notRunText(report);
  const baseline = noBaselineText(report);
  const control = errorControlWords(report, escapeHtml);
  const context = [
    ...(control ? [control] : []),
    ...(report.evidence ? [escapeHtml(evidenceText(report.evidence))] : []),
    ...(worthShowing(report.comparability) ? [escapeHtml(`Comparability: ${report.comparability.reason}.`)] : []),
  ];
  return [
    `<p class="verdict ${report.verdict}" id="${idPrefix}verdict">Verdict: ${report.verdict.toUpperCase()} (${counts})${notRun ? ` — ${notRun}` : ''}${escapeHtml(outcomeNote(report))} · policy ${escapeHtml(report.policy.name)}${baseline ? ` · ${baseline}` : ''}</p>`,
    ...context.map((line) => `<p class="context">${line}</p>`),
  ].join('\n');
}

/** The verdict, and how many checks did not run: never a bare "pass" over them. */
export function verdictWords(report: GateReport): string {
  const notRun = notRunText(report);
  return `${report.verdict}${notRun ? ` — ${notRun}` : ''}`;
}

function findings(report: GateReport, idPrefix: string): string {
  const noted = byStatus(report.checks.filter((check) => NOTED_STATUSES.includes(check.status)));
  const coverage =
    report.coverage && report.coverage.status !== 'pass'
      ? [`<li><b>coverage</b> ${STATUS_WORDS[report.coverage.status].verb}: ${escapeHtml(report.coverage.reason)}</li>`]
      : [];
  const items = noted.map((check) => `<li>${findingWords(check, report, escapeHtml, (name) => `<b>${name}</b>`)}</li>`);
  if (coverage.length + items.length === 0) return '';
  return `<h2>What blocks, warns or is inconclusive</h2>\n<ul id="${idPrefix}findings">\n${[...coverage, ...items].join('\n')}\n</ul>`;
}

/** The one table of the gated checks (rows coloured by status), their details collapsed, and the budgets' forest plots. */
function checkTables(report: GateReport, forest: Chart[]): string {
  const checks = byStatus(report.checks.filter((check) => check.status !== 'off'));
  const rows = checks.map((check: CheckRow) => [
    check.status,
    `${escapeHtml(check.metric)} (${escapeHtml(shownScope(check))})`,
    escapeHtml(candidateCell(check)),
    escapeHtml(changeCell(check)),
    limitCell(check, escapeHtml),
  ]);
  const statusClass = (index: number) => ` class="status-${checks[index].status}"`;
  const corrected = checks.some((check) => check.boundJudgedOn) ? `<p class="note">${escapeHtml(CORRECTED_NOTE)}</p>` : '';
  const details = table(
    DETAIL_HEADER,
    checks.map((check) => detailCells(check).map(escapeHtml)),
  );
  return [
    '<h2>The checks</h2>',
    table(CHECK_TABLE_HEADER, rows, statusClass),
    corrected,
    `<details><summary>Each check's tests, power and counts</summary>\n${details}\n</details>`,
    chartSection('Budgets', forest),
  ].join('\n');
}

function chartSection(heading: string, charts: Chart[]): string {
  return charts.length === 0 ? '' : `<h2>${heading}</h2>\n${figures(charts)}`;
}

function scenarios(report: GateReport, minGroupSize: number): string {
  const entries = Object.entries(report.scenarios);
  const shown = entries
    .slice(0, MAX_HTML_SCENARIOS)
    .map(
      ([scenario, metrics]) =>
        `<h3>${escapeHtml(scenario)}</h3>\n${table(METRIC_TABLE_HEADER, metricRows(metrics, minGroupSize, escapeHtml))}`,
    );
  const note =
    entries.length > MAX_HTML_SCENARIOS
      ? `<p class="note">The first ${MAX_HTML_SCENARIOS} of ${entries.length} scenarios are listed; the JSON report has them all.</p>`
      : '';
  const intervals = withoutIntervalsNote(report);
  const intervalsNote = intervals ? `<p class="note">${escapeHtml(intervals)}.</p>\n` : '';
  return `<h2>Every metric of the candidate, per scenario</h2>\n${intervalsNote}${note}\n${shown.join('\n')}`;
}

/** What changed instance by instance, when both runs were records files. */
function changes(report: GateReport): string {
  return report.changes ? instanceChangesHtml(report.changes, MAX_HTML_SCENARIOS) : '';
}

function provenance(report: GateReport): string {
  const run = (name: string, summary: RunSummary | null) =>
    summary
      ? `<li>${name}: <code>${escapeHtml(summary.file)}</code> (${summary.kind === 'records' ? `${summary.records} records, ${summary.instances} instances${suitesNote(summary)}` : 'summary metrics: point estimates'})${summary.commit ? `, from commit <code>${escapeHtml(summary.commit)}</code>` : ''}</li>`
      : `<li>${name}: none</li>`;
  const github = report.github
    ? `<li>GitHub: ${escapeHtml(report.github.event)} at <code>${escapeHtml(report.github.sha)}</code>${report.github.pullRequest ? `, pull request ${report.github.pullRequest.number}` : ''}</li>`
    : '';
  return [
    '<h2>Provenance</h2>\n<ul>',
    `<li>policy ${escapeHtml(report.policy.name)}: <code>${escapeHtml(report.policy.file)}</code>${report.policy.source ? ` ${escapeHtml(report.policy.source)}` : ''}, sha256 <code>${report.policy.sha256}</code></li>`,
    run('candidate', report.candidate),
    run('baseline', report.baseline),
    ...(worthShowing(report.comparability) ? [`<li>comparability: ${escapeHtml(report.comparability.reason)}</li>`] : []),
    ...(report.evidence ? [`<li>${escapeHtml(evidenceText(report.evidence))}</li>`] : []),
    github,
    '</ul>',
  ].join('\n');
}

/** What a gate's page or section shows: every part but the page's title. */
export interface GateHtmlOptions {
  minGroupSize?: number;
  /** Put before each element id, to tell apart the sections of several gates on one page. */
  idPrefix?: string;
}

/** The parts of a gate's report below its title, from the verdict to the provenance. */
export async function gateHtmlParts(report: GateReport, { minGroupSize = 10, idPrefix = '' }: GateHtmlOptions = {}): Promise<string[]> {
  const charts = await htmlCharts(report);
  return [
    verdictSection(report, idPrefix),
    findings(report, idPrefix),
    checkTables(report, charts.forest),
    chartSection('Reliability diagrams', charts.reliability),
    chartSection('Accuracy per group', charts.groups),
    chartSection('Latency', charts.latency),
    changes(report),
    scenarios(report, minGroupSize),
    provenance(report),
  ].filter((part) => part !== '');
}

/** A whole page: its title (escaped by the caller) and its body's parts. */
export function htmlPage(title: string, parts: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
${parts.join('\n')}
</body>
</html>
`;
}

/** The HTML report of a gate: one page with no script, no request, and nothing from data unescaped. */
export async function gateHtml(report: GateReport, options: { minGroupSize?: number } = {}): Promise<string> {
  const parts = await gateHtmlParts(report, options);
  return htmlPage(`evalgate: ${verdictWords(report)} · ${escapeHtml(report.policy.name)}`, [
    `<h1>evalgate: ${verdictWords(report)}</h1>`,
    ...parts,
  ]);
}

/** Writes the HTML report (`evalgate gate --html`, the action's `html-report` output). */
export async function writeGateHtml(file: string, report: GateReport, options: { minGroupSize?: number } = {}): Promise<void> {
  await writeFile(file, await gateHtml(report, options));
}
