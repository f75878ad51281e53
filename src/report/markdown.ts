import { markdownTable } from 'markdown-table';
import { countOutcomes } from '../gate/verdict.js';
import { shownScope } from '../metrics/names.js';
import {
  count,
  METRIC_TABLE_ALIGN,
  METRIC_TABLE_HEADER,
  metricRows,
  noBaselineText,
  notRunText,
  outcomeNote,
  withoutIntervalsNote,
} from './format.js';
import {
  byStatus,
  candidateCell,
  changeCell,
  CHECK_TABLE_HEADER,
  CORRECTED_NOTE,
  DETAIL_ALIGN,
  DETAIL_HEADER,
  detailCells,
  errorControlWords,
  findingWords,
  limitCell,
  NOTED_STATUSES,
} from './findings.js';
import type { GateReport } from './json.js';
import { instanceChangesMarkdown } from './changes.js';
import { commentCharts } from './charts.js';
import { suitesNote, worthShowing } from './comparability.js';
import { codeSpan, escapeHtml, escapeMarkdown } from './escape.js';
import { evidenceText } from './evidence.js';
import { STATUS_WORDS, statusLabel } from './words.js';

/** GitHub's limit on a comment is 65,536 characters; stay under it. */
export const MAX_COMMENT_CHARACTERS = 65000;

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
  return `## ${STATUS_WORDS[report.verdict].icon} evalgate: ${report.verdict}${waiver}${counts ? ` (${counts})` : ''}${notRun ? ` — ${notRun}` : ''}${outcomeNote(report)}${unverified ? ' · unverified report' : ''} · policy ${escapeMarkdown(report.policy.name)}${baseline ? ` · ${baseline}` : ''}`;
}

/** The gated checks (not those turned off), what needs a look first. */
const gated = (report: GateReport) => byStatus(report.checks.filter((check) => check.status !== 'off'));

/** The one table of the gated checks: five columns, units in every cell. */
function checkTable(report: GateReport): Piece[] {
  const checks = gated(report);
  if (checks.length === 0) return [];
  const rows = checks.map((check) => [
    statusLabel(check.status),
    `${escapeMarkdown(check.metric)} (${escapeMarkdown(shownScope(check))})`,
    escapeMarkdown(candidateCell(check)),
    escapeMarkdown(changeCell(check)),
    limitCell(check, escapeMarkdown),
  ]);
  const table = markdownTable([CHECK_TABLE_HEADER, ...rows], { align: ['l', 'l', 'r', 'r', 'l'] });
  const [header, delimiter, ...lines] = table.split('\n');
  const corrected = checks.some((check) => check.boundJudgedOn) ? [{ text: `_${escapeMarkdown(CORRECTED_NOTE)}_` }, { text: '' }] : [];
  return [
    { text: `${header}\n${delimiter}\n${lines[0]}`, kind: 'check' },
    ...lines.slice(1).map((text) => ({ text, kind: 'check' as const })),
    { text: '' },
    ...corrected,
  ];
}

/** The p-values, what each check can detect, and the counts: collapsed, one row per gated check. */
function detailsTable(report: GateReport): Piece[] {
  const checks = gated(report);
  if (checks.length === 0) return [];
  const rows = checks.map((check) => detailCells(check).map(escapeMarkdown));
  const table = markdownTable([DETAIL_HEADER, ...rows], { align: DETAIL_ALIGN });
  return [
    {
      text: `<details><summary>Tests, power and counts of the ${count(checks.length, 'check')}</summary>\n\n${table}\n\n</details>\n`,
      kind: 'details',
    },
  ];
}

/**
 * A piece of the comment, one or more whole lines: the size limit keeps it or leaves it out whole, so
 * that no table row, <details> block or code fence is ever cut open. `kind` counts it in the note on
 * what was left out; an `essential` piece (the verdict, what blocks, warns or is inconclusive, the
 * error control, the evidence and the comparability) is kept whatever else is left out.
 */
interface Piece {
  text: string;
  kind?: LeftOut;
  essential?: boolean;
}

type LeftOut = 'finding' | 'trade-off' | 'check' | 'details' | 'chart' | 'provenance' | 'changes' | 'scenario';

/** How the note names what was left out: a count of them (of how many), or the one piece. */
const LEFT_OUT: Record<LeftOut, (count: number, total: number) => string> = {
  finding: (count, total) => `${count} of the ${total} lines of what blocks, warns or is inconclusive`,
  'trade-off': (count, total) => `${count} of the ${total} trade-offs`,
  check: (count, total) => `${count} of the ${total} rows of the checks' table`,
  details: () => "the checks' tests, power and counts",
  chart: (count, total) => `${count} of the ${total} charts`,
  provenance: () => 'the line naming the policy and the runs',
  changes: () => 'what changed instance by instance',
  scenario: (count, total) => `${count} of the ${total} per-scenario details`,
};

/** Room kept for the note on what was left out (it is shorter). */
const NOTE_ROOM = 400;

/** A heading and its items, the heading kept with the first item (no heading is left without one). */
function section(heading: string, items: string[], kind: LeftOut, essential = false): Piece[] {
  if (items.length === 0) return [];
  return [
    { text: `${heading}\n\n${items[0]}`, kind, essential },
    ...items.slice(1).map((text) => ({ text, kind, essential })),
    { text: '', essential },
  ];
}

/** One line per check that blocks, warns, is inconclusive or errored (and coverage), in plain words with units. */
function findings(report: GateReport): Piece[] {
  const noted = byStatus(report.checks.filter((check) => NOTED_STATUSES.includes(check.status)));
  const coverage = report.coverage && report.coverage.status !== 'pass' ? report.coverage : undefined;
  const items = [
    ...(coverage
      ? [`- ${STATUS_WORDS[coverage.status].icon} coverage ${STATUS_WORDS[coverage.status].verb}: ${escapeMarkdown(coverage.reason)}`]
      : []),
    ...noted.map((check) => `- ${STATUS_WORDS[check.status].icon} ${findingWords(check, report, escapeMarkdown, (name) => `**${name}**`)}`),
  ];
  return section('### What blocks, warns or is inconclusive', items, 'finding', true);
}

/** The lines every reader needs beside the verdict: which checks are error-controlled, which runs, whether they compare. */
function context(report: GateReport, notes: string[]): Piece[] {
  const control = errorControlWords(report, escapeMarkdown);
  const lines = [
    ...notes.map(escapeMarkdown),
    ...(control ? [control] : []),
    ...(report.evidence ? [escapeMarkdown(evidenceText(report.evidence))] : []),
    ...(worthShowing(report.comparability) ? [escapeMarkdown(`Comparability: ${report.comparability.reason}.`)] : []),
  ];
  return lines.flatMap((line) => [
    { text: `> ${line}`, essential: true },
    { text: '', essential: true },
  ]);
}

function tradeoffs(report: GateReport): Piece[] {
  const items = report.tradeoffs.map(
    (tradeoff) =>
      `- ${tradeoff.applied ? 'applied' : 'not applied'}: **${escapeMarkdown(tradeoff.name)}** — ${escapeMarkdown(tradeoff.reasons.join('; '))}`,
  );
  return section('### Trade-offs', items, 'trade-off');
}

function provenance(report: GateReport): string {
  const run = (summary: GateReport['candidate']) =>
    `${codeSpan(summary.file)} (${summary.kind === 'records' ? `${count(summary.records ?? 0, 'record')}, ${count(summary.instances ?? 0, 'instance')}${suitesNote(summary)}` : 'summary metrics: point estimates'})`;
  const paired = report.checks.find((check) => check.comparison?.shared !== undefined)?.comparison?.shared;
  return [
    `Policy **${escapeMarkdown(report.policy.name)}** (${codeSpan(report.policy.file)}${report.policy.source ? ` ${escapeMarkdown(report.policy.source)}` : ''}, sha256 ${codeSpan(report.policy.sha256.slice(0, 12))})`,
    `· candidate ${run(report.candidate)}`,
    report.baseline
      ? `· baseline ${run(report.baseline)}${report.baseline.commit ? ` from commit ${codeSpan(report.baseline.commit.slice(0, 7))}` : ''}${paired !== undefined ? `, ${count(paired, 'instance')} shared` : ''}`
      : '· no baseline',
  ].join(' ');
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

/** The first of `pieces` that fit, whole, in `room` characters (and the room they take): a prefix, so that no table loses a middle row. */
function prefixWithin(pieces: Piece[], room: number): { kept: Piece[]; length: number } {
  let length = 0;
  let kept = 0;
  while (kept < pieces.length && length + pieces[kept].text.length + 1 <= room) length += pieces[kept++].text.length + 1;
  return { kept: pieces.slice(0, kept), length };
}

/**
 * The pieces, whole, as many as fit in `limit` characters; then a note on what was left out. Over the
 * limit the essential pieces stay (only their own excess, from the end, is left out), the charts go
 * first (the tables say what they draw), then pieces from the end.
 */
function fitted(all: Piece[], limit: number): string {
  const whole = all.map((piece) => piece.text).join('\n');
  if (whole.length <= limit) return whole;
  const essential = prefixWithin(
    all.filter((piece) => piece.essential),
    limit - NOTE_ROOM,
  );
  const rest = prefixWithin(
    all.filter((piece) => !piece.essential && piece.kind !== 'chart'),
    limit - NOTE_ROOM - essential.length,
  );
  const kept = new Set([...essential.kept, ...rest.kept]);
  const text = all
    .filter((piece) => kept.has(piece))
    .map((piece) => piece.text)
    .join('\n');
  // A blank line first: a line right after a table would be read as one more of its rows.
  return `${text.trimEnd()}\n\n${leftOutNote(
    all.filter((piece) => !kept.has(piece)),
    all,
  )}\n`;
}

/**
 * The pull-request comment and job summary: the verdict; what blocks, warns or is inconclusive, a line
 * each; which checks are error-controlled, the evidence and the comparability; one table of the gated
 * checks; their tests, power and counts collapsed; the charts that answer a question; the runs. Over
 * GitHub's size limit, the instance changes shrink first; then it is cut between whole pieces (the
 * per-scenario details go first, then the end of the main part) and says what it left out.
 */
export function gateMarkdown(
  report: GateReport,
  { minGroupSize = 10, waivedBy, notes = [], unverified = false }: MarkdownOptions = {},
): string {
  const intervalsNote = withoutIntervalsNote(report);
  const pieces: Piece[] = [
    { text: verdictLine(report, waivedBy, unverified), essential: true },
    { text: '', essential: true },
    ...findings(report),
    ...context(report, notes),
    ...checkTable(report),
    ...detailsTable(report),
    ...tradeoffs(report),
    ...commentCharts(report).flatMap(({ chart, caption }) => [{ text: `${chart}\n\n_${caption}_`, kind: 'chart' as const }, { text: '' }]),
    ...(intervalsNote ? [{ text: `_${escapeMarkdown(intervalsNote)}_` }, { text: '' }] : []),
    { text: provenance(report), kind: 'provenance' },
    { text: '' },
  ];
  const details = scenarioDetails(report, minGroupSize);
  // The instance changes go above the details, in the room everything else leaves: they shrink first.
  const room = MAX_COMMENT_CHARACTERS - NOTE_ROOM - [...pieces, ...details].reduce((total, piece) => total + piece.text.length + 1, 0);
  const changes = report.changes ? instanceChangesMarkdown(report.changes, room) : '';
  return fitted([...pieces, ...(changes ? [{ text: changes, kind: 'changes' as const }] : []), ...details], MAX_COMMENT_CHARACTERS);
}
