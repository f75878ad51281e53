import { countOutcomes } from '../gate/verdict.js';
import { shownScope } from '../metrics/names.js';
import { count, noBaselineText, notRunText, outcomeNote } from './format.js';
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
import type { GateReport } from './json.js';
import { escapeTerminal as shown } from './escape.js';
import { instanceChangesText } from './changes.js';
import { evidenceText } from './evidence.js';
import { suitesNote, worthShowing } from './comparability.js';
import { columnsTable, TERMINAL_WIDTH, wrapLine } from './columns.js';

const COLOURS: Record<string, string> = { pass: '32', warn: '33', fail: '31', error: '31', skipped: '90', off: '90', inconclusive: '33' };

/** What the terminal report shows besides the verdict and the checks. */
export interface TextOptions {
  /** ANSI colours (on a TTY). */
  colour?: boolean;
  /** The details too: each check's tests, power and counts, and the instance changes with their texts. */
  verbose?: boolean;
}

/** "2 blocking checks failed, 2 inconclusive" */
function counts(report: GateReport): string {
  const { blocking, warnings, inconclusive } = countOutcomes(report.checks, report.coverage?.status);
  return [
    blocking && `${count(blocking, 'blocking check')} failed`,
    warnings && count(warnings, 'warning'),
    inconclusive && `${inconclusive} inconclusive`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** "  ece (overall): baseline 4.55% · plain value (95% CI) 12.7% [9.75, 15.8] · p-values ...": a check's details, those it has. */
function detailLine(check: GateReport['checks'][number]): string {
  const [name, ...cells] = detailCells(check).map(shown);
  const shownCells = cells.flatMap((cell, index) => (cell === '-' ? [] : [`${DETAIL_HEADER[index + 1]} ${cell}`]));
  return `  ${name}: ${shownCells.join(' · ')}`;
}

function runsLine(report: GateReport): string {
  const run = (summary: GateReport['candidate']) =>
    `${shown(summary.file)}${summary.records !== null ? ` (${count(summary.records, 'record')}${suitesNote(summary)})` : ' (summary metrics)'}`;
  const baseline = report.baseline ? ` · baseline ${run(report.baseline)}` : '';
  return `policy ${shown(report.policy.file)} (sha256 ${report.policy.sha256.slice(0, 12)}) · candidate ${run(report.candidate)}${baseline}`;
}

/**
 * The gate's report for a terminal, in 100 columns: the verdict; what blocks, warns or is inconclusive,
 * a line each; which checks are error-controlled, the evidence and the comparability; the table of the
 * gated checks; with `verbose`, their tests, power and counts and the instance changes' texts.
 */
export function gateText(report: GateReport, { colour = false, verbose = false }: TextOptions = {}): string {
  const paint = (status: string, text: string) => (colour ? `\u001b[${COLOURS[status] ?? '0'}m${text}\u001b[0m` : text);
  const notRun = notRunText(report);
  const tally = counts(report);
  const headline = [
    `evalgate: ${paint(report.verdict, report.verdict.toUpperCase())}${tally ? ` (${tally})` : ''}${notRun ? ` — ${notRun}` : ''}${outcomeNote(report)}`,
    `policy ${shown(report.policy.name)}`,
    noBaselineText(report),
  ]
    .filter(Boolean)
    .join(' · ');
  const lines = [headline, ''];
  if (report.coverage && report.coverage.status !== 'pass') {
    lines.push(`  ${paint(report.coverage.status, report.coverage.status.padEnd(5))} coverage: ${shown(report.coverage.reason)}`);
  }
  for (const check of byStatus(report.checks.filter((check) => NOTED_STATUSES.includes(check.status)))) {
    lines.push(`  ${paint(check.status, check.status.padEnd(5))} ${findingWords(check, report, shown)}`);
  }
  const control = errorControlWords(report, shown);
  const context = [
    ...(control ? [control] : []),
    ...(report.evidence ? [shown(evidenceText(report.evidence))] : []),
    ...(worthShowing(report.comparability) ? [`Comparability: ${shown(report.comparability.reason)}.`] : []),
  ];
  for (const tradeoff of report.tradeoffs) {
    lines.push(
      `  trade-off ${tradeoff.applied ? 'applied' : 'not applied'}: ${shown(tradeoff.name)}: ${shown(tradeoff.reasons.join('; '))}`,
    );
  }
  lines.push(...(lines.length > 2 ? [''] : []), ...context, '');
  const gated = byStatus(report.checks.filter((check) => check.status !== 'off'));
  const rows = gated.map((check) => [
    check.status,
    `${shown(check.metric)} (${shown(shownScope(check))})`,
    candidateCell(check),
    changeCell(check),
    limitCell(check, shown),
  ]);
  const decorate = (row: number, column: number, text: string) => (column === 0 ? paint(gated[row].status, text) : text);
  const tables = [
    ...columnsTable(CHECK_TABLE_HEADER, rows, { decorate }),
    ...(gated.some((check) => check.boundJudgedOn) ? [CORRECTED_NOTE] : []),
    '',
  ];
  if (verbose) tables.push("Each check's tests, power and counts:", ...gated.map(detailLine), '');

  const changes = report.changes ? instanceChangesText(report.changes, { texts: verbose }) : undefined;
  const end = [
    ...(changes ? [changes] : []),
    runsLine(report),
    ...(verbose ? [] : ["(evalgate gate --verbose shows each check's tests, power and counts, and the changed examples' texts)"]),
  ];
  return `${[...lines, ...tables, ...end]
    .flatMap((line) => line.split('\n'))
    .flatMap((line) => wrapLine(line, TERMINAL_WIDTH))
    .join('\n')}\n`;
}
