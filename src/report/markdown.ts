import { markdownTable } from 'markdown-table';
import { countOutcomes } from '../gate/verdict.js';
import { reportedScope, scopeSuffix, shownScope } from '../metrics/names.js';
import { DIMENSIONS } from '../metrics/registry.js';
import {
  CHECK_TABLE_ALIGN,
  CHECK_TABLE_HEADER,
  checkCells,
  formatNumber,
  inconclusiveText,
  METRIC_TABLE_ALIGN,
  NOTED_STATUSES,
  outcomeNote,
  METRIC_TABLE_HEADER,
  metricRows,
  noBaselineText,
  notRunText,
  withoutIntervalsNote,
} from './format.js';
import type { GateReport } from './json.js';
import { instanceChangesMarkdown } from './changes.js';
import { commentCharts } from './charts.js';
import { suitesNote, worthShowing } from './comparability.js';
import { codeSpan, escapeHtml, escapeMarkdown, mermaidLabel } from './escape.js';
import { evidenceText } from './evidence.js';

/** GitHub's limit on a comment is 65,536 characters; stay under it. */
export const MAX_COMMENT_CHARACTERS = 65000;

const STATUS_ICON: Record<string, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  skipped: '⏭️ skipped',
  error: '💥 error',
  off: '➖ off',
  inconclusive: '❔ inconclusive',
};
const VERDICT_ICON: Record<string, string> = { pass: '✅', warn: '⚠️', fail: '❌' };

type CheckRow = GateReport['checks'][number];

function checkTable(checks: CheckRow[]): string {
  const rows = checks.map((check) => checkCells(check, escapeMarkdown, (status) => STATUS_ICON[status]));
  return markdownTable([CHECK_TABLE_HEADER, ...rows], { align: CHECK_TABLE_ALIGN });
}

export interface MarkdownOptions {
  /** Groups smaller than this are marked in the per-scenario details (the policy's min_group_size). */
  minGroupSize?: number;
  /** A failing verdict waived by this pull-request label. */
  waivedBy?: string;
  /** Plain-text notes shown under the verdict (escaped here): how the gate was run, when that matters. */
  notes?: string[];
  /** The candidate's numbers are a report's claim, not records gated here: the heading says "unverified". */
  unverified?: boolean;
}

function verdictLine(report: GateReport, waivedBy: string | undefined, unverified: boolean): string {
  const { blocking, warnings, inconclusive } = countOutcomes(report.checks, report.coverage?.status);
  const counts = [
    blocking && `${blocking} blocking check${blocking > 1 ? 's' : ''} failed`,
    warnings && `${warnings} warning${warnings > 1 ? 's' : ''}`,
    inconclusive && `${inconclusive} inconclusive`,
  ]
    .filter(Boolean)
    .join(', ');
  const waiver = waivedBy !== undefined && report.verdict === 'fail' ? ` (waived by label ${escapeMarkdown(waivedBy)})` : '';
  const notRun = notRunText(report);
  const baseline = noBaselineText(report);
  const heading = `## ${VERDICT_ICON[report.verdict]} evalgate: ${report.verdict}${waiver}${counts ? ` (${counts})` : ''}${notRun ? ` — ${notRun}` : ''}${outcomeNote(report)}${unverified ? ' · unverified report' : ''} · policy ${escapeMarkdown(report.policy.name)}${baseline ? ` · ${baseline}` : ''}`;
  const unsure = inconclusiveText(report, (text) => escapeMarkdown(text));
  return unsure ? `${heading}\n\n**Inconclusive:** ${unsure}` : heading;
}

/** A mermaid bar/line chart of candidate vs baseline for the checked metrics on a 0-1 scale. */
function chart(report: GateReport): string | undefined {
  const points = report.checks.filter(
    (check) =>
      // The built-in failure-rate check that had nothing to test (no failed call: 0 against 0) shows nothing.
      !(check.builtin && check.comparison?.pWorse === undefined) &&
      check.candidate &&
      check.comparison &&
      check.candidate.value >= 0 &&
      check.candidate.value <= 1 &&
      check.comparison.baseline >= 0 &&
      check.comparison.baseline <= 1,
  );
  if (points.length < 2) return undefined;
  const label = (check: CheckRow) => mermaidLabel(`${check.metric}${scopeSuffix(reportedScope(check))}`);
  return [
    '```mermaid',
    'xychart-beta',
    '  title "Candidate (bars) vs baseline (line)"',
    `  x-axis [${points.map(label).join(', ')}]`,
    '  y-axis "value" 0 --> 1',
    `  bar [${points.map((check) => formatNumber(check.candidate!.value)).join(', ')}]`,
    `  line [${points.map((check) => formatNumber(check.comparison!.baseline)).join(', ')}]`,
    '```',
  ].join('\n');
}

function provenance(report: GateReport): string {
  const run = (summary: GateReport['candidate']) =>
    `${codeSpan(summary.file)} (${summary.kind === 'records' ? `${summary.records} records, ${summary.instances} instances${suitesNote(summary)}` : 'summary metrics: point estimates'})`;
  const paired = report.checks.find((check) => check.comparison?.shared !== undefined)?.comparison?.shared;
  return [
    `Policy **${escapeMarkdown(report.policy.name)}** (${codeSpan(report.policy.file)}${report.policy.source ? ` ${escapeMarkdown(report.policy.source)}` : ''}, sha256 ${codeSpan(report.policy.sha256.slice(0, 12))})`,
    `· candidate ${run(report.candidate)}`,
    report.baseline
      ? `· baseline ${run(report.baseline)}${report.baseline.commit ? ` from commit ${codeSpan(report.baseline.commit.slice(0, 7))}` : ''}${paired !== undefined ? `, ${paired} instances shared` : ''}`
      : '· no baseline',
    ...(worthShowing(report.comparability) ? [`· comparability: ${escapeMarkdown(report.comparability.reason)}`] : []),
  ].join(' ');
}

/**
 * A piece of the comment, one or more whole lines: the size limit keeps it or leaves it out whole, so
 * that no table row, <details> block or code fence is ever cut open. `kind` counts it in the note on
 * what was left out.
 */
interface Piece {
  text: string;
  kind?: LeftOut;
}

type LeftOut = 'finding' | 'trade-off' | 'check' | 'chart' | 'provenance' | 'changes' | 'scenario';

/** How the note names what was left out: a count of them (of how many), or the one piece. */
const LEFT_OUT: Record<LeftOut, (count: number, total: number) => string> = {
  finding: (count, total) => `${count} of the ${total} items of what blocks or warns`,
  'trade-off': (count, total) => `${count} of the ${total} trade-offs`,
  check: (count, total) => `${count} of the ${total} rows of the checks' tables`,
  chart: (count, total) => `${count} of the ${total} charts`,
  provenance: () => 'the line naming the policy and the runs',
  changes: () => 'what changed instance by instance',
  scenario: (count, total) => `${count} of the ${total} per-scenario details`,
};

/** Room kept for the note on what was left out (it is shorter). */
const NOTE_ROOM = 400;

/** A heading and its items, the heading kept with the first item (no heading is left without one). */
function section(heading: string, items: string[], kind: LeftOut): Piece[] {
  if (items.length === 0) return [];
  return [{ text: `${heading}\n\n${items[0]}`, kind }, ...items.slice(1).map((text) => ({ text, kind })), { text: '' }];
}

function findings(report: GateReport): Piece[] {
  const regressions = report.checks.filter((check) => NOTED_STATUSES.includes(check.status));
  const coverage = report.coverage && report.coverage.status !== 'pass' ? report.coverage : undefined;
  const items = [
    ...(coverage ? [`- **coverage** · ${STATUS_ICON[coverage.status]}: ${escapeMarkdown(coverage.reason)}`] : []),
    ...DIMENSIONS.flatMap((dimension) =>
      regressions
        .filter((check) => check.dimension === dimension)
        .map(
          (check) =>
            `- **${dimension}** · ${STATUS_ICON[check.status]} ${codeSpan(check.metric)} (${escapeMarkdown(shownScope(check))}): ${escapeMarkdown(check.reasons.join('; '))}`,
        ),
    ),
  ];
  return section('### What blocks or warns, by dimension', items, 'finding');
}

function tradeoffs(report: GateReport): Piece[] {
  const items = report.tradeoffs.map(
    (tradeoff) =>
      `- ${tradeoff.applied ? 'applied' : 'not applied'}: **${escapeMarkdown(tradeoff.name)}** — ${escapeMarkdown(tradeoff.reasons.join('; '))}`,
  );
  return section('### Trade-offs', items, 'trade-off');
}

/** A table per dimension, each row a piece; a table's heading and header go with its first row. */
function checkTables(report: GateReport): Piece[] {
  const pieces: Piece[] = [{ text: '### Checks by dimension' }, { text: '' }];
  for (const dimension of DIMENSIONS) {
    const checks = report.checks.filter((check) => check.dimension === dimension);
    if (checks.length === 0) continue;
    const [header, delimiter, ...rows] = checkTable(checks).split('\n');
    pieces.push(...section(`#### ${dimension}`, [`${header}\n${delimiter}\n${rows[0]}`, ...rows.slice(1)], 'check'));
  }
  return pieces;
}

/**
 * A piece per scenario, rendered until they fill a whole comment: those after it could never be kept,
 * and stand empty (counted in the note), so that 20,000 scenarios cost no 20,000 tables.
 */
function scenarioDetails(report: GateReport, minGroupSize: number): Piece[] {
  let length = 0;
  return Object.entries(report.scenarios).map(([scenario, metrics]) => {
    if (length > MAX_COMMENT_CHARACTERS) return { text: '', kind: 'scenario' };
    const table = markdownTable([METRIC_TABLE_HEADER, ...metricRows(metrics, minGroupSize, escapeMarkdown)], { align: METRIC_TABLE_ALIGN });
    const text = `<details><summary>Scenario ${escapeHtml(scenario)}: every metric of the candidate</summary>\n\n${table}\n\n</details>\n`;
    length += text.length + 1;
    return { text, kind: 'scenario' };
  });
}

/** What the pieces left out hold, by kind (of how many of all), for the note. */
function leftOutNote(left: Piece[], all: Piece[]): string {
  const count = (kind: LeftOut, among: Piece[]) => among.filter((piece) => piece.kind === kind).length;
  const kinds = (Object.keys(LEFT_OUT) as LeftOut[])
    .filter((kind) => count(kind, left) > 0)
    .map((kind) => LEFT_OUT[kind](count(kind, left), count(kind, all)));
  return `_Left out to stay within GitHub's comment size limit: ${kinds.join(', ')}. The JSON report has them all._`;
}

/**
 * The pieces, whole, as many as fit in `limit` characters; then a note on what was left out. Over the
 * limit the charts go first (they draw what the tables say), then pieces from the end.
 */
function fitted(all: Piece[], limit: number): string {
  const whole = all.map((piece) => piece.text).join('\n');
  if (whole.length <= limit) return whole;
  const charts = all.filter((piece) => piece.kind === 'chart');
  const pieces = all.filter((piece) => piece.kind !== 'chart');
  let length = 0;
  let kept = 0;
  while (kept < pieces.length && length + pieces[kept].text.length + 1 <= limit - NOTE_ROOM) length += pieces[kept++].text.length + 1;
  const text = pieces
    .slice(0, kept)
    .map((piece) => piece.text)
    .join('\n');
  // A blank line first: a line right after a table would be read as one more of its rows.
  return `${text.trimEnd()}\n\n${leftOutNote([...charts, ...pieces.slice(kept)], all)}\n`;
}

/**
 * The pull-request comment and job summary. Over GitHub's size limit, the instance changes shrink first;
 * then it is cut between whole pieces (the per-scenario details go first, then the end of the main part)
 * and says what it left out.
 */
export function gateMarkdown(
  report: GateReport,
  { minGroupSize = 10, waivedBy, notes = [], unverified = false }: MarkdownOptions = {},
): string {
  const pictures = [chart(report), ...commentCharts(report)].filter((text) => text !== undefined);
  const pieces: Piece[] = [
    { text: verdictLine(report, waivedBy, unverified) },
    { text: '' },
    ...notes.flatMap((note) => [{ text: `> ${escapeMarkdown(note)}` }, { text: '' }]),
    ...(report.evidence ? [{ text: `> ${escapeMarkdown(evidenceText(report.evidence))}` }, { text: '' }] : []),
    ...findings(report),
    ...tradeoffs(report),
    ...checkTables(report),
    ...pictures.flatMap((text) => [{ text, kind: 'chart' as const }, { text: '' }]),
    ...[withoutIntervalsNote(report)].flatMap((note) => (note ? [{ text: `_${escapeMarkdown(note)}_` }, { text: '' }] : [])),
    { text: provenance(report), kind: 'provenance' },
    { text: '' },
  ];
  const details = scenarioDetails(report, minGroupSize);
  // The instance changes go above the details, in the room everything else leaves: they shrink first.
  const room = MAX_COMMENT_CHARACTERS - NOTE_ROOM - [...pieces, ...details].reduce((total, piece) => total + piece.text.length + 1, 0);
  const changes = report.changes ? instanceChangesMarkdown(report.changes, room) : '';
  return fitted([...pieces, ...(changes ? [{ text: changes, kind: 'changes' as const }] : []), ...details], MAX_COMMENT_CHARACTERS);
}
